/* eslint-disable @typescript-eslint/no-explicit-any -- tests read members of parsed answers freely */
import * as assert from 'node:assert/strict';
import { request } from 'node:http';
import { maskBody } from '../../../src/emulator/requestLog';
import { DEMO_PLAYERS, DEMO_UNLINKED } from '../../../src/emulator/seed';
import { ARENA, Emu, MAIN } from './harness';

const linked = DEMO_PLAYERS.find((p) => p.launcherSubject !== undefined && !p.banned && p.playedTitles.includes(MAIN.titleId))!;

/** Reads server-sent events from `path` until `count` request events arrived. */
function readEvents(origin: string, path: string, count: number, onOpen: () => void, controlToken: string): Promise<{ raw: string; events: any[] }> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { headers: { Accept: 'text/event-stream', Authorization: `Bearer ${controlToken}` } }, (res) => {
      assert.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8');
      let raw = '';
      const events: any[] = [];
      let opened = false;
      res.on('data', (c: Buffer) => {
        raw += c.toString();
        if (!opened) { opened = true; onOpen(); }
        const frames = raw.split('\n\n');
        events.length = 0;
        for (const f of frames) {
          const data = f.split('\n').find((l) => l.startsWith('data: '));
          if (data) events.push(JSON.parse(data.slice(6)));
        }
        if (events.length >= count) { req.destroy(); resolve({ raw, events: [...events] }); }
      });
    });
    req.on('error', (e) => { if (!req.destroyed) reject(e); });
    req.setTimeout(15_000, () => { req.destroy(); reject(new Error('no events within 15 s')); });
    req.end();
  });
}

describe('emulator: request log', () => {
  let emu: Emu;
  beforeEach(async () => { emu = await Emu.start({ deletionDelayMs: 60_000 }); });
  afterEach(async () => { await emu.close(); });

  it('N requests of every credential and outcome give N entries with their fields, and no secret in the log\'s bytes', async () => {
    const secrets: string[] = [MAIN.secretKey, ARENA.secretKey];
    let n = 0;
    const call = async (...a: Parameters<Emu['call']>) => { n++; return emu.call(...a); };
    const withToken = async (...a: Parameters<Emu['callWithToken']>) => { n++; return emu.callWithToken(...a); };
    const title = await call('Authentication/GetEntityToken');
    const titleToken = title.json.data.EntityToken;
    secrets.push(titleToken);
    const IdentityToken = await emu.launcherToken({ subject: linked.launcherSubject });
    secrets.push(IdentityToken);
    const login = await call('Server/LoginWithLauncher', { IdentityToken, LoginTitlePlayerAccountEntity: true });
    assert.equal(login.status, 200, login.text);
    secrets.push(login.json.data.SessionTicket, login.json.data.EntityToken.EntityToken);
    const byTicket = await emu.raw(`/${MAIN.titleId}/Authentication/GetEntityToken`, { headers: { 'Content-Type': 'application/json', 'X-Authorization': login.json.data.SessionTicket }, body: {} });
    n++;
    assert.equal(byTicket.status, 200);
    secrets.push(byTicket.json.data.EntityToken);
    await withToken('Addon/GetHandheldStore', titleToken);
    await call('Server/GetPlatformIDsFromStorefrontNames', { StorefrontNames: [...DEMO_UNLINKED.storefrontNames] });
    await call('Admin/GetPlayedTitleList', { PlatformId: DEMO_UNLINKED.platformId });
    await call('Admin/GetPlayedTitleList', { PlatformId: linked.platformId }, { headers: { 'X-SecretKey': ARENA.secretKey } });
    await call('Admin/GetPlayedTitleList', { PlatformId: linked.platformId }, { headers: { 'X-SecretKey': 'NOTAKEY' + MAIN.secretKey } });
    secrets.push('NOTAKEY' + MAIN.secretKey);
    await emu.raw('/F71AC/Nope/Nothing', { body: '{"SecretKey":"' + MAIN.secretKey + '"}', headers: { 'Content-Type': 'application/json' } });
    n++;
    await emu.raw(`/${MAIN.titleId}/Server/LoginWithLauncher`, { body: `not json ${IdentityToken}`, headers: { 'Content-Type': 'application/json', 'X-SecretKey': MAIN.secretKey } });
    n++;
    await emu.control('faults', { rules: [{ operation: 'Server/GetPlatformIDsFromStorefrontNames', kind: '500', times: 1 }] });
    await call('Server/GetPlatformIDsFromStorefrontNames', { StorefrontNames: ['x'] });
    // The key pasted where the title ID goes: the path is masked, and so is the entry's titleId.
    await emu.raw(`/${MAIN.secretKey}/Admin/GetPlayedTitleList`, { body: '{}', headers: { 'Content-Type': 'application/json' } });
    n++;

    const log = await emu.control('requests');
    assert.equal(log.status, 200);
    const entries = log.json.entries as any[];
    assert.equal(entries.length, n, 'one entry per service request; controls are not logged');
    assert.deepEqual(entries.map((e) => e.seq), entries.map((_, i) => i + 1));
    for (const e of entries) {
      assert.match(e.time, /^\d{4}-\d\d-\d\dT/);
      assert.equal(typeof e.durationMs, 'number');
      assert.equal(e.method, 'POST');
    }
    const first = entries[0];
    assert.equal(first.operation, 'Authentication/GetEntityToken');
    assert.equal(first.titleId, MAIN.titleId);
    assert.equal(first.credential, 'secretKey');
    assert.equal(first.status, 200);
    assert.equal(first.response.data.EntityToken, '***', 'the token is masked in the answer');
    assert.ok(first.response.data.TokenExpiration, 'what is no secret stays');
    assert.equal(entries[1].request.IdentityToken, '***');
    assert.equal(entries[1].response.data.SessionTicket, '***');
    assert.equal(entries[2].credential, 'sessionTicket');
    assert.equal(entries[3].credential, 'entityToken');
    assert.deepEqual(entries[4].request, { StorefrontNames: [...DEMO_UNLINKED.storefrontNames] }, 'request bodies are kept');
    assert.equal(entries[5].status, 400);
    assert.equal(entries[5].error, 'AccountNotFound');
    assert.equal(entries[5].errorCode, 1001);
    assert.equal(entries[6].status, 403);
    assert.equal(entries[7].error, 'SecretKeyNotFound');
    assert.equal(entries[8].status, 404);
    assert.equal(entries[8].operation, null);
    assert.equal(entries[8].credential, 'none');
    assert.equal(entries[8].request, null, 'an unknown operation\'s body is not read');
    assert.equal(entries[9].status, 400);
    assert.match(entries[9].request, /^not json ••••••••\S{4}$/, 'a non-JSON body is masked as text (core/redact: the last 4 characters kept)');
    assert.equal(entries[10].status, 500);
    assert.equal(entries[10].error, 'InternalServerError');
    assert.equal(entries[11].titleId, null, 'a title segment that is not a title ID is not kept as one');
    // No key or token the test used appears anywhere in the log's bytes.
    for (const s of secrets) assert.ok(!log.text.includes(s), `a secret reached the log: ${s.slice(0, 6)}…`);
    const since = await emu.control(`requests?since=${entries[8].seq}`);
    assert.deepEqual(since.json.entries.map((e: any) => e.seq), [10, 11, 12]);
    assert.equal(since.json.next, 12);
  });

  it('the stream replays then sends each new request as an event, masked', async () => {
    await emu.call('Authentication/GetEntityToken');
    const N = 12;
    const got = readEvents(emu.origin, '/_emulator/requests/stream?since=0', N + 1, () => {
      void (async () => {
        for (let i = 0; i < N; i++) await emu.call('Authentication/GetEntityToken', {}, { titleId: i % 2 ? ARENA.titleId : MAIN.titleId });
      })();
    }, emu.handle.controlToken);
    const { raw, events } = await got;
    assert.equal(events.length, N + 1);
    assert.deepEqual(events.map((e) => e.seq), Array.from({ length: N + 1 }, (_, i) => i + 1));
    assert.ok(!raw.includes(MAIN.secretKey) && !raw.includes(ARENA.secretKey));
    assert.ok(events.every((e) => e.response.data.EntityToken === '***'));
    assert.ok(!/[\w-]{20,}\.[\w-]{43}/.test(raw), 'no token in the stream');
  });

  it('since= takes an ISO time; a bad one is InvalidParams naming since', async () => {
    await emu.call('Authentication/GetEntityToken');
    await new Promise((r) => setTimeout(r, 5));
    const cut = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    await emu.call('Authentication/GetEntityToken');
    const r = await emu.control(`requests?since=${encodeURIComponent(cut)}`);
    assert.equal(r.json.entries.length, 1);
    const bad = await emu.control('requests?since=yesterday');
    assert.equal(bad.status, 400);
    assert.ok(bad.json.errorDetails.since);
  });

  it('requests the emulator never answers are logged too, once each, with status 0', async () => {
    const kinds = ['reset-before', 'reset-after', 'timeout', 'drip', '503'];
    for (const kind of kinds) {
      await emu.control('faults', { rules: [{ operation: 'Authentication/GetEntityToken', kind, times: 1 }] });
      // The client gives up on the ones that never (or only slowly) answer.
      const signal = AbortSignal.timeout(kind === 'timeout' || kind === 'drip' ? 300 : 10_000);
      const headers = { 'Content-Type': 'application/json', 'X-SecretKey': MAIN.secretKey };
      await emu.raw(`/${MAIN.titleId}/Authentication/GetEntityToken`, { headers, body: {}, signal }).catch(() => undefined);
    }
    const want = [['reset-before', 0], ['reset-after', 0], ['timeout', 0], ['drip', 200], ['503', 503]];
    const entries = await (async () => {
      for (let i = 0; i < 200; i++) {
        const e = (await emu.control('requests')).json.entries as any[];
        if (e.length >= want.length) return e;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('the unanswered requests were never logged');
    })();
    // A request the client abandoned is logged when its connection closes: compare as a multiset.
    assert.deepEqual(entries.map((e) => e.status).sort(), want.map((w) => w[1]).sort());
    assert.equal(entries.length, want.length, 'each once');
    assert.ok(entries.every((e) => e.operation === 'Authentication/GetEntityToken'));
  });

  it('keeps the newest entries up to its size, in order, and counts every request in next', async () => {
    const small = await Emu.start({ requestLogSize: 5 });
    try {
      for (let i = 0; i < 12; i++) await small.call('Authentication/GetEntityToken');
      const r = await small.control('requests');
      assert.deepEqual(r.json.entries.map((e: any) => e.seq), [8, 9, 10, 11, 12]);
      assert.equal(r.json.next, 12);
      assert.deepEqual((await small.control('requests?limit=0')).json, { entries: [], next: 12 });
      assert.equal((await small.control('requests/clear', {})).status, 200);
      assert.deepEqual((await small.control('requests')).json.entries, []);
      await small.call('Authentication/GetEntityToken');
      assert.deepEqual((await small.control('requests')).json.entries.map((e: any) => e.seq), [13]);
    } finally {
      await small.close();
    }
  });

  it('masks every secret-named member at any depth, known keys and token-like values anywhere, and keeps the rest', () => {
    const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';
    const ours = `${'A'.repeat(40)}.${'b'.repeat(43)}`;
    const body = JSON.stringify({
      SecretKey: 'k1', SessionTicket: 't1', IdentityToken: 't2', Password: 'p1',
      Environments: [{ ClientID: 'keep-me', ClientSecret: 'cs1', ID: 'env' }],
      EntityToken: { EntityToken: 't3', TokenExpiration: '2030-01-01T00:00:00Z' },
      Note: `see ${jwt} and ${ours} and ${MAIN.secretKey}`,
    });
    const masked = maskBody(body, [MAIN.secretKey]) as any;
    assert.deepEqual(masked, {
      SecretKey: '***', SessionTicket: '***', IdentityToken: '***', Password: '***',
      Environments: [{ ClientID: 'keep-me', ClientSecret: '***', ID: 'env' }],
      EntityToken: { EntityToken: '***', TokenExpiration: '2030-01-01T00:00:00Z' },
      Note: 'see ••••••••tlbg and *** and ••••••••C7D1',
    });
    assert.equal(maskBody(`not json ${jwt}`, []), 'not json ••••••••tlbg');
    const long = maskBody(`${MAIN.secretKey}${'x'.repeat(70_000)}`, [MAIN.secretKey]) as string;
    assert.ok(long.startsWith('••••••••') && !long.includes(MAIN.secretKey.slice(0, 12)) && long.length < 66_000, 'masked, then clipped');
  });

  it('size 0 turns it off: nothing is kept', async () => {
    const off = await Emu.start({ requestLogSize: 0 });
    try {
      await off.call('Authentication/GetEntityToken');
      assert.deepEqual((await off.control('requests')).json.entries, []);
    } finally {
      await off.close();
    }
  });
});
