// The control token over real HTTP: every /_emulator/ route of the route table but the open ones
// refuses a client without it; the --json line carries it, the environment fixes it; no listing
// holds a download token; the request log masks key-shaped values wherever they came in.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CONTROL_ROUTES } from '../../../src/emulator/routes/controls';
import { DEMO_PLAYERS } from '../../../src/emulator/seed';
import { Emu, MAIN } from './harness';

// Tests read fields freely from parsed bodies.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

describe('emulator: the control token', () => {
  let emu: Emu;
  before(async () => { emu = await Emu.start(); });
  after(() => emu.close());

  const call = (method: string, path: string, authorization?: string) => emu.raw(`/_emulator/${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(authorization === undefined ? {} : { Authorization: authorization }) },
    body: method === 'GET' ? undefined : '{}',
  });

  it('every route but the open ones answers 401 without the token, with another token, or with it in another scheme', async () => {
    const guarded = CONTROL_ROUTES.filter((r) => !r.open);
    assert.ok(guarded.length >= 20, `the route table lists ${guarded.length} guarded routes`);
    const token = emu.handle.controlToken;
    for (const r of guarded) {
      for (const auth of [undefined, 'Bearer wrong-token-of-another-user', `Basic ${token}`, `Bearer ${token}x`, token]) {
        const a = await call(r.method, r.example, auth);
        assert.equal(a.status, 401, `${r.method} ${r.example} with ${auth === undefined ? 'no Authorization' : auth.replace(token, 'TOKEN')}: ${a.text}`);
        assert.equal(a.json.error, 'NotAuthenticated');
        assert.ok(!a.text.includes(token) && !a.text.includes(MAIN.secretKey), 'the answer holds the token or a key');
      }
      // With the token: anything but 401 (an example may name no snapshot or link); the stream's body never ends, so only its status is read.
      const ok = await fetch(`${emu.origin}/_emulator/${r.example}`, {
        method: r.method, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: r.method === 'GET' ? undefined : '{}',
      });
      await ok.body?.cancel();
      assert.notEqual(ok.status, 401, `${r.method} ${r.example} with the token`);
    }
  });

  it('ready answers without it (a health check), and a refused reset changes nothing', async () => {
    assert.equal((await call('GET', 'ready')).status, 200);
    await emu.call('Authentication/GetEntityToken');
    const before = (await emu.control('stats')).json.total;
    assert.equal((await call('POST', 'stats/reset')).status, 401);
    assert.equal((await emu.control('stats')).json.total, before);
  });

  it('GET exports lists no download token; the link still serves its document', async () => {
    const r = await emu.call('Admin/ExportMasterPlayerData', { PlatformId: DEMO_PLAYERS[0].platformId });
    assert.equal(r.status, 200, r.text);
    await emu.control('clock/advance', { ms: 60_000 });
    const [event] = (await emu.control('events?type=player_data_exported')).json.events;
    const token = String(event.ExportDownloadUrl).split('/').pop()!;
    const listing = await emu.control('exports');
    assert.equal(listing.json.exports[0].status, 'completed');
    assert.ok(!listing.text.includes(token), `the listing holds the download token: ${listing.text}`);
    assert.ok(!('token' in listing.json.exports[0]));
    const doc = await emu.raw(new URL(event.ExportDownloadUrl).pathname, { method: 'GET' });
    assert.equal(doc.status, 200, 'a download link is a bearer link of its own: no control token');
  });

  it('the request log masks key-shaped values in a path, under any member name, and the control token itself', async () => {
    await emu.control('requests/clear', {});
    const production = 'K7Q2M9X4T8W1R6Y3U5P0S2N8B4C7D1ZZ9A8B7C6D';
    await emu.raw(`/${MAIN.titleId}/Server/${production}`, { headers: { 'Content-Type': 'application/json', 'X-SecretKey': MAIN.secretKey }, body: '{}' });
    await emu.call('Server/GetPlatformIDsFromStorefrontNames', { StorefrontNames: ['racer_ana_0'], note: production, copied: emu.handle.controlToken, header: `Authorization: Bearer ${production}` });
    const log = await emu.control('requests');
    assert.equal(log.json.entries.length, 2);
    for (const secret of [production, emu.handle.controlToken, MAIN.secretKey]) assert.ok(!log.text.includes(secret), `the log shows ${secret.slice(0, 6)}…`);
    assert.match(log.json.entries[0].path, new RegExp(`^/${MAIN.titleId}/Server/`), 'our own text (the title, the area) stays');
    assert.deepEqual(log.json.entries[1].request.StorefrontNames, ['racer_ana_0']);
  });
});

describe('emulator: the control token of the command line', () => {
  const bundle = join(process.cwd(), 'dist', 'emulator.js');
  let child: ChildProcess | undefined;
  afterEach(async () => {
    if (child && child.exitCode === null) {
      const gone = new Promise((r) => child!.once('exit', r));
      child.kill('SIGKILL');
      await gone;
    }
    child = undefined;
  });
  const start = (env: Record<string, string>, args: string[] = []): Promise<Any> => {
    const c = spawn(process.execPath, [bundle, '--port', '0', '--json', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, ...env } });
    child = c;
    return new Promise((resolve, reject) => {
      createInterface({ input: c.stdout! }).once('line', (l) => resolve(JSON.parse(l)));
      c.once('exit', (code) => reject(new Error(`exited with ${code}`)));
    });
  };

  it('random per run and printed in the --json line; fixed by the environment, which stays out of the process list', async () => {
    const a = await start({});
    assert.match(a.controlToken, /^[\w-]{32}$/);
    const origin = new URL(a.endpoint.replace('{titleId}', 'x')).origin;
    assert.equal((await fetch(`${origin}/_emulator/stats`)).status, 401);
    assert.equal((await fetch(`${origin}/_emulator/stats`, { headers: { Authorization: `Bearer ${a.controlToken}` } })).status, 200);
    child!.kill('SIGKILL');
    const fixed = 'compose-file-token-0123456789';
    const b = await start({ PLATFORM_EMULATOR_CONTROL_TOKEN: fixed });
    assert.notEqual(a.controlToken, fixed);
    assert.equal(b.controlToken, fixed);
    assert.ok(!readFileSync(`/proc/${child!.pid}/cmdline`, 'utf8').includes(fixed), 'the token is in argv');
    const o2 = new URL(b.endpoint.replace('{titleId}', 'x')).origin;
    assert.equal((await fetch(`${o2}/_emulator/stats`, { headers: { Authorization: `Bearer ${fixed}` } })).status, 200);
  });

  it('a short or spaced token is refused with exit 2, naming the variable and the fix', async () => {
    for (const bad of ['short', 'has spaces in the middle of it']) {
      const c = spawn(process.execPath, [bundle, '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, PLATFORM_EMULATOR_CONTROL_TOKEN: bad } });
      child = c;
      let err = '';
      c.stderr!.on('data', (d) => { err += String(d); });
      const code = await new Promise((r) => c.once('exit', r));
      assert.equal(code, 2);
      assert.match(err, /PLATFORM_EMULATOR_CONTROL_TOKEN: The control token must be 16 to 256 visible ASCII characters/);
    }
  });
});
