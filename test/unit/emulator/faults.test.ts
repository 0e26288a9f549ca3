import * as assert from 'node:assert/strict';
import { request } from 'node:http';
import { isLoopbackAddress } from '../../../src/emulator/access';
import { DEMO_PLAYERS } from '../../../src/emulator/seed';
import { startEmulator } from '../../../src/emulator/server';
import { Emu } from './harness';

const LOOKUP = 'Server/GetPlatformIDsFromStorefrontNames';
const body = { StorefrontNames: [DEMO_PLAYERS[0].storefrontNames[0]] };

describe('emulator: fault injection, stats and controls', () => {
  let emu: Emu;
  before(async () => { emu = await Emu.start(); });
  after(async () => { await emu.close(); });
  beforeEach(async () => { await emu.control('reset', {}); });

  const fault = async (rule: Record<string, unknown>, latencyMs?: number) => {
    const r = await emu.control('faults', { latencyMs, rules: [{ operation: LOOKUP, ...rule }] });
    assert.equal(r.status, 200, r.text);
  };

  it('429 carries Retry-After and retryAfterSeconds, then the next call succeeds', async () => {
    await fault({ kind: '429', retryAfterSeconds: 3 });
    const r = await emu.call(LOOKUP, body);
    assert.equal(r.status, 429);
    assert.equal(r.headers.get('retry-after'), '3');
    assert.equal(r.json.retryAfterSeconds, 3);
    assert.equal(r.json.errorCode, 1199);
    assert.equal((await emu.call(LOOKUP, body)).status, 200);
  });

  it('500 and 503 answer with the error wrapper; X-ReportErrorAsSuccess turns them into HTTP 200', async () => {
    await fault({ kind: '500' });
    const r500 = await emu.call(LOOKUP, body);
    assert.equal(r500.status, 500);
    assert.equal(r500.json.errorCode, 1110);
    await fault({ kind: '503' });
    const r503 = await emu.call(LOOKUP, body, { headers: { 'X-ReportErrorAsSuccess': 'true' } });
    assert.equal(r503.status, 200);
    assert.equal(r503.json.code, 503);
    assert.equal(r503.json.errorCode, 1123);
  });

  it('times counts uses, -1 is forever, and a rule for another operation does not fire', async () => {
    await fault({ kind: '500', times: 2 });
    assert.equal((await emu.call(LOOKUP, body)).status, 500);
    assert.equal((await emu.call('Server/GetPlatformIDsFromConsoleLiveIDs', { ConsoleLiveAccountIDs: ['1'] })).status, 200);
    assert.equal((await emu.call(LOOKUP, body)).status, 500);
    assert.equal((await emu.call(LOOKUP, body)).status, 200);
    await fault({ kind: '503', times: -1 });
    for (let i = 0; i < 3; i++) assert.equal((await emu.call(LOOKUP, body)).status, 503);
    await emu.control('faults/clear', {});
    assert.equal((await emu.call(LOOKUP, body)).status, 200);
  });

  it('garbage is invalid JSON and html is a proxy error page', async () => {
    await fault({ kind: 'garbage' });
    const g = await emu.call(LOOKUP, body);
    assert.equal(g.status, 200);
    assert.equal(g.json, undefined, 'not parseable');
    assert.ok(g.text.length > 0);
    await fault({ kind: 'html' });
    const h = await emu.call(LOOKUP, body);
    assert.equal(h.status, 502);
    assert.match(h.headers.get('content-type') ?? '', /text\/html/);
    assert.match(h.text, /<html>/);
  });

  it('reset-before drops the connection without processing; reset-after processes, then drops it', async () => {
    const victim = DEMO_PLAYERS.find((p) => !p.banned)!;
    await emu.control('faults', { rules: [{ operation: 'Admin/DeleteMasterPlayerAccount', kind: 'reset-before' }] });
    await assert.rejects(emu.call('Admin/DeleteMasterPlayerAccount', { PlatformId: victim.platformId }));
    assert.equal((await emu.control('jobs')).json.jobs.length, 0, 'nothing happened');
    await emu.control('faults', { rules: [{ operation: 'Admin/DeleteMasterPlayerAccount', kind: 'reset-after' }] });
    await assert.rejects(emu.call('Admin/DeleteMasterPlayerAccount', { PlatformId: victim.platformId }));
    assert.equal((await emu.control('jobs')).json.jobs.length, 1, 'the job was queued although no answer came');
  });

  it('timeout never answers until the client gives up; drip sends the body slowly', async () => {
    await fault({ kind: 'timeout' });
    await assert.rejects(
      emu.raw(`/F71AC/${LOOKUP}`, { headers: { 'Content-Type': 'application/json', 'X-SecretKey': emu.handle.titles[0].secretKey }, body, signal: AbortSignal.timeout(300) }),
      (e: Error) => e.name === 'TimeoutError',
    );
    await fault({ kind: 'drip' });
    const chunks = await new Promise<number>((resolve, reject) => {
      const url = new URL(emu.origin);
      const req = request({ host: '127.0.0.1', port: url.port, path: `/F71AC/${LOOKUP}`, method: 'POST', headers: { 'Content-Type': 'application/json', 'X-SecretKey': emu.handle.titles[0].secretKey } }, (res) => {
        let n = 0;
        res.on('data', () => {
          if (++n === 3) {
            req.destroy();
            resolve(n);
          }
        });
      });
      req.on('error', (e) => { if (!req.destroyed) reject(e); });
      req.end(JSON.stringify(body));
    });
    assert.equal(chunks, 3, 'the body arrives in separate small pieces');
    assert.equal((await emu.call(LOOKUP, body)).status, 200, 'the emulator keeps serving');
  });

  it('latencyMs delays every answer but the answer is still right', async () => {
    await emu.control('faults', { latencyMs: 30, rules: [] });
    const r = await emu.call(LOOKUP, body);
    assert.equal(r.json.data.Data[0].PlatformId, DEMO_PLAYERS[0].platformId);
  });

  it('refuses bad fault rules with InvalidParams naming the member', async () => {
    const r = await emu.control('faults', { rules: [{ kind: 'explode' }, { kind: '429', times: 0 }] });
    assert.equal(r.status, 400);
    assert.ok(r.json.errorDetails['rules[0].kind']);
    assert.ok(r.json.errorDetails['rules[1].times']);
  });

  it('stats count requests per operation, including faulted ones, and reset', async () => {
    await emu.control('stats/reset', {});
    await fault({ kind: '500' });
    await emu.call(LOOKUP, body);
    await emu.call(LOOKUP, body);
    await emu.call('Server/GetPlatformIDsFromConsoleLiveIDs', { ConsoleLiveAccountIDs: ['1'] });
    const s = (await emu.control('stats')).json;
    assert.deepEqual(s, { requests: { [LOOKUP]: 2, 'Server/GetPlatformIDsFromConsoleLiveIDs': 1 }, total: 3, tlsHandshakes: 0, throttled: 0 });
    await emu.control('stats/reset', {});
    assert.deepEqual((await emu.control('stats')).json, { requests: {}, total: 0, tlsHandshakes: 0, throttled: 0 });
  });

  it('seed switches between demo and empty; unknown controls are 404; bad seeds 400', async () => {
    assert.equal((await emu.control('seed', { seed: 'empty' })).status, 200);
    const r = await emu.call(LOOKUP, body);
    assert.equal(r.json.data.Data[0].PlatformId, null);
    assert.equal((await emu.control('seed', { seed: 'nope' })).status, 400);
    assert.equal((await emu.control('no/such/control', {})).status, 404);
    await emu.control('seed', { seed: 'demo' });
    assert.equal((await emu.call(LOOKUP, body)).json.data.Data[0].PlatformId, DEMO_PLAYERS[0].platformId);
  });

  it('isLoopbackAddress accepts only loopback addresses', () => {
    for (const a of ['127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1']) assert.equal(isLoopbackAddress(a), true, a);
    for (const a of [undefined, '', '10.0.0.1', '192.168.1.5', '::ffff:10.0.0.1', 'fe80::1', '128.0.0.1', '127.0.0', '127.0.0.1.5', '1127.0.0.1']) {
      assert.equal(isLoopbackAddress(a), false, String(a));
    }
  });

  it('refuses to listen on a non-loopback host', async () => {
    await assert.rejects(startEmulator({ host: '0.0.0.0' }), /--allowed-host/);
  });
});

describe('emulator: close()', () => {
  it('ends hanging, dripping and delayed requests and resolves', async () => {
    const emu = await Emu.start();
    let closed = false;
    try {
      await emu.control('faults', { rules: [{ kind: 'timeout' }, { kind: 'drip' }] });
      const send = () => emu.call(LOOKUP, body).then(() => 'answered', () => 'failed');
      const hanging = send();
      const dripping = send();
      for (let i = 0; i < 100 && (await emu.control('stats')).json.total < 2; i++) await new Promise((r) => setTimeout(r, 10));
      await emu.control('faults', { latencyMs: 60_000, rules: [] });
      const delayed = send();
      for (let i = 0; i < 100 && (await emu.control('stats')).json.total < 3; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal((await emu.control('stats')).json.total, 3);
      await emu.close();
      closed = true;
      assert.deepEqual(await Promise.all([hanging, dripping, delayed]), ['failed', 'failed', 'failed']);
      await assert.rejects(emu.call(LOOKUP, body), 'no longer listening');
    } finally {
      if (!closed) await emu.close();
    }
  });
});
