// The emulator's doors, attacked as a web page would: DNS rebinding (a foreign Host), a
// cross-origin "simple" POST (text/plain, no preflight), a foreign Origin, published keys,
// and control values that break the clock; plus a --data state.json that points outside.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_TITLES } from '../../../src/emulator/seed';
import { startEmulator } from '../../../src/emulator/server';
import type { EmulatorHandle } from '../../../src/emulator/server';

const LOOKUP = 'Server/GetPlatformIDsFromStorefrontNames';

interface Raw { status: number; text: string }

/** node:http, so the Host header can be what a rebinding page's browser sends. */
function raw(port: number, o: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: o.method ?? 'POST', path: o.path, headers: o.headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => { text += c.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

describe('security: the emulator answers only its own callers', () => {
  let emu: EmulatorHandle;
  let port: number;
  const key = () => emu.titles[0].secretKey;
  const lookup = (headers: Record<string, string>) => raw(port, {
    path: `/${emu.titles[0].titleId}/${LOOKUP}`,
    headers: { 'content-type': 'application/json', 'x-secretkey': key(), ...headers },
    body: JSON.stringify({ StorefrontNames: ['racer_ana_0'] }),
  });
  const stats = async () => JSON.parse((await raw(port, { method: 'GET', path: '/_emulator/stats', headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${emu.controlToken}` } })).text) as { total: number };

  before(async () => {
    emu = await startEmulator({ deletionDelayMs: 60_000 });
    port = Number(new URL(emu.origin).port);
  });
  after(() => emu.close());

  it('a rebinding Host (a foreign name, or loopback with another port) gets 421 on the API and the controls', async () => {
    for (const host of ['attacker.example', `attacker.example:${port}`, `127.0.0.1:${port + 1}`, 'localhost', `localhost.attacker.example:${port}`, `127.0.0.2:${port}`]) {
      assert.equal((await lookup({ host })).status, 421, `API with Host ${host}`);
      const reset = await raw(port, { path: '/_emulator/reset', headers: { host, 'content-type': 'application/json' }, body: '{}' });
      assert.equal(reset.status, 421, `reset with Host ${host}`);
      assert.ok(!reset.text.includes(key()), 'the answer carries a key');
    }
  });

  it('its own names with its own port are served', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) {
      assert.equal((await lookup({ host })).status, 200, `Host ${host}`);
    }
  });

  it('a foreign Origin (another page, or "null") is refused; its own origin is served', async () => {
    for (const origin of ['http://attacker.example', 'null', `http://127.0.0.1:${port + 1}`, `https://127.0.0.1:${port}`]) {
      assert.equal((await lookup({ host: `127.0.0.1:${port}`, origin })).status, 403, `Origin ${origin}`);
    }
    assert.equal((await lookup({ host: `127.0.0.1:${port}`, origin: `http://localhost:${port}` })).status, 200);
  });

  it('a text/plain POST (a cross-site form, no preflight) changes no control', async () => {
    await lookup({ host: `127.0.0.1:${port}` });
    const before = (await stats()).total;
    assert.ok(before > 0);
    for (const ct of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const r = await raw(port, { path: '/_emulator/stats/reset', headers: { host: `127.0.0.1:${port}`, 'content-type': ct, authorization: `Bearer ${emu.controlToken}` }, body: '{}' });
      assert.equal(r.status, 415, ct);
    }
    assert.equal((await stats()).total, before, 'the stats were reset by a simple POST');
  });

  it('clock/advance with a huge number is refused and every answer still works', async () => {
    const control = (path: string, body: unknown) => raw(port, { path: `/_emulator/${path}`, headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json', authorization: `Bearer ${emu.controlToken}` }, body: JSON.stringify(body) });
    for (const ms of [1e300, 8.64e15, 11 * 365 * 24 * 3600 * 1000]) {
      const r = await control('clock/advance', { ms });
      assert.equal(r.status, 400, `ms ${ms}`);
      assert.match(r.text, /"ms"/);
    }
    // Ten years at a time stops at 100 years ahead.
    let refused = 0;
    for (let i = 0; i < 12; i++) if ((await control('clock/advance', { ms: 10 * 365 * 24 * 3600 * 1000 })).status === 400) refused++;
    assert.ok(refused >= 1, 'the clock can be pushed without bound');
    const token = await raw(port, { path: `/${emu.titles[0].titleId}/Authentication/GetEntityToken`, headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json', 'x-secretkey': key() }, body: '{}' });
    assert.equal(token.status, 200, token.text);
    assert.equal((await lookup({ host: `127.0.0.1:${port}` })).status, 200);
    for (const [path, body] of [['launcher-token', { titleId: emu.titles[0].titleId, subject: 's', expiresInSeconds: 1e300 }], ['faults', { rules: [{ kind: '429', retryAfterSeconds: 1e12 }] }]] as const) {
      assert.equal((await control(path, body)).status, 400, path);
    }
    assert.equal((await control('reset', {})).status, 200);
  });

  it('demo keys are random per run (never the published ones) and survive a reset; fixedKeys gives the documented ones', async () => {
    const other = await startEmulator({});
    const fixed = await startEmulator({ fixedKeys: true });
    try {
      for (const [i, t] of emu.titles.entries()) {
        assert.notEqual(t.secretKey, DEMO_TITLES[i].secretKey, 'a published demo key');
        assert.notEqual(t.secretKey, other.titles[i].secretKey, 'two runs share a key');
        assert.equal(fixed.titles[i].secretKey, DEMO_TITLES[i].secretKey);
      }
      const published = await lookup({ host: `127.0.0.1:${port}`, 'x-secretkey': DEMO_TITLES[0].secretKey });
      assert.equal(published.status, 401, 'the published key works on a run with random keys');
      await raw(port, { path: '/_emulator/reset', headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json' }, body: '{}' });
      assert.equal((await lookup({ host: `127.0.0.1:${port}` })).status, 200, 'the run\'s key stopped working after a reset');
    } finally {
      await other.close();
      await fixed.close();
    }
  });
});

describe('security: --data cannot write outside its folder', () => {
  let root: string;
  beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'emu-data-')); });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  async function savedState(): Promise<{ dir: string; state: Record<string, any> }> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const dir = join(root, 'a', 'b', 'data');
    mkdirSync(dir, { recursive: true });
    const emu = await startEmulator({ dataDir: dir, fixedKeys: true });
    await emu.close();
    return { dir, state: JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) };
  }

  it('a JobReceiptId such as ../../x in state.json is refused at load, naming the file; nothing is written outside', async () => {
    const { dir, state } = await savedState();
    for (const id of ['../../../x', '/tmp/x', 'a/b', 'x'.repeat(65), '']) {
      const job = { JobReceiptId: id, PlatformId: 'ABCDEF0123456789', titleId: 'F71AC', TitleIds: ['F71AC'], createdAt: 0, dueAt: 0, status: 'queued' };
      writeFileSync(join(dir, 'state.json'), JSON.stringify({ ...state, data: { ...state.data, jobs: [job] } }));
      await assert.rejects(startEmulator({ dataDir: dir, deletionDelayMs: 0 }), (e: Error) => /state\.json/.test(e.message) && /JobReceiptId/.test(e.message) && /Delete it/.test(e.message));
    }
    assert.ok(!existsSync(join(root, 'x.json')), 'a file was written outside the data folder');
    for (const outbox of [[{ JobReceiptId: '../x' }]]) {
      writeFileSync(join(dir, 'state.json'), JSON.stringify({ ...state, data: { ...state.data, outbox } }));
      await assert.rejects(startEmulator({ dataDir: dir }), /outbox\[0\]/);
    }
  });

  it('malformed titles and members are refused with the member named', async () => {
    const { dir, state } = await savedState();
    const cases: [unknown, RegExp][] = [
      [{ ...state, clockOffsetMs: 'x' }, /clockOffsetMs/],
      [{ ...state, data: { ...state.data, titles: { '../x': state.data.titles.F71AC } } }, /title/],
      [{ ...state, data: { ...state.data, jobs: {} } }, /jobs/],
    ];
    for (const [s, re] of cases) {
      writeFileSync(join(dir, 'state.json'), JSON.stringify(s));
      await assert.rejects(startEmulator({ dataDir: dir }), re);
    }
  });

  it('receipt IDs of both forms (UUID, 32 upper-case hex) still load', async () => {
    const { dir, state } = await savedState();
    const jobs = ['3f2b8c1e-9d4a-4b7e-8f21-6c5d0a9e7b13', '0123456789ABCDEF0123456789ABCDEF'].map((id) => ({
      JobReceiptId: id, PlatformId: 'ABCDEF0123456789', titleId: 'F71AC', TitleIds: ['F71AC'], createdAt: 0, dueAt: 0, status: 'completed', completedAt: 0,
    }));
    writeFileSync(join(dir, 'state.json'), JSON.stringify({ ...state, data: { ...state.data, jobs } }));
    const emu = await startEmulator({ dataDir: dir });
    await emu.close();
  });
});
