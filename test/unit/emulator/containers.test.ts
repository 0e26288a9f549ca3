// The emulator bound to another address than 127.0.0.1 (as in a container, with --host 0.0.0.0),
// tested as far as a machine without a container runtime allows: bound to 127.0.0.2 with
// --allowed-host emulator, a request with Host emulator:PORT is served, foreign Hosts are refused,
// and the control token alone guards the controls. A non-loopback bind without an allowed host,
// or with a bad one, is refused before any socket opens.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startEmulator } from '../../../src/emulator/server';
import type { EmulatorHandle } from '../../../src/emulator/server';
import { DEMO_TITLES } from '../../../src/emulator/seed';

const MAIN = DEMO_TITLES[0];

/** One request to `address:port` with exactly these headers (fetch cannot set Host). */
function raw(address: string, port: number, path: string, headers: Record<string, string>, body = '{}'): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: address, port, path, method: path.endsWith('/ready') || path.endsWith('/players') ? 'GET' : 'POST', headers, timeout: 10_000 }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => { text += c.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.end(req.method === 'GET' ? undefined : body);
  });
}

describe('emulator: another bind address (containers)', () => {
  let emu: EmulatorHandle;
  let port: number;
  before(async () => {
    emu = await startEmulator({ host: '127.0.0.2', allowedHosts: ['emulator'], fixedKeys: true });
    port = Number(new URL(emu.origin).port);
  });
  after(() => emu.close());

  const lookup = (host: string) => raw('127.0.0.2', port, `/${MAIN.titleId}/Server/GetPlatformIDsFromStorefrontNames`,
    { host, 'content-type': 'application/json', 'x-secretkey': MAIN.secretKey }, '{"StorefrontNames":["racer_ana_0"]}');

  it('serves Host emulator:PORT and its own address; refuses foreign Hosts and another port', async () => {
    assert.equal(emu.endpoint, `http://127.0.0.2:${port}/{titleId}`);
    for (const host of [`emulator:${port}`, `EMULATOR:${port}`, `127.0.0.2:${port}`]) assert.equal((await lookup(host)).status, 200, `Host ${host}`);
    for (const host of [`attacker.example:${port}`, `emulator:${port + 1}`, 'emulator', `emulator.attacker.example:${port}`, `127.0.0.3:${port}`]) {
      const r = await lookup(host);
      assert.equal(r.status, 421, `Host ${host}`);
      assert.match(r.text, /emulator:\d+/, 'the answer names the hosts it answers to');
    }
  });

  it('the control token alone guards the controls there: 401 without it, 200 with it; ready is open', async () => {
    const headers = { host: `emulator:${port}`, 'content-type': 'application/json' };
    assert.equal((await raw('127.0.0.2', port, '/_emulator/ready', headers)).status, 200);
    assert.equal((await raw('127.0.0.2', port, '/_emulator/players', headers)).status, 401);
    assert.equal((await raw('127.0.0.2', port, '/_emulator/reset', headers)).status, 401);
    const ok = await raw('127.0.0.2', port, '/_emulator/players', { ...headers, authorization: `Bearer ${emu.controlToken}` });
    assert.equal(ok.status, 200, ok.text);
  });

  it('a non-loopback bind needs --allowed-host; a bad name is refused; nothing listens', async () => {
    await assert.rejects(startEmulator({ host: '0.0.0.0' }), /--host 0\.0\.0\.0 needs --allowed-host NAME/);
    await assert.rejects(startEmulator({ host: '127.0.0.2' }), /needs --allowed-host/);
    await assert.rejects(startEmulator({ host: 'example.com', allowedHosts: ['emulator'] }), /--host must be 127\.0\.0\.1, ::1, localhost or an IP address/);
    await assert.rejects(startEmulator({ host: '127.0.0.2', allowedHosts: ['bad name/x'] }), /--allowed-host "bad name\/x" is not a host name/);
  });

  it('the command line: --host without --allowed-host exits 2 naming the flag; with it the --json endpoint is on that address', async () => {
    const bundle = join(process.cwd(), 'dist', 'emulator.js');
    const bad = spawn(process.execPath, [bundle, '--host', '127.0.0.2', '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    bad.stderr.on('data', (d) => { err += String(d); });
    assert.equal(await new Promise((r) => bad.once('exit', r)), 2);
    assert.match(err, /needs --allowed-host NAME/);
    const good = spawn(process.execPath, [bundle, '--host', '127.0.0.2', '--allowed-host', 'emulator', '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const info = JSON.parse(await new Promise<string>((resolve, reject) => {
        createInterface({ input: good.stdout }).once('line', resolve);
        good.once('exit', (c) => reject(new Error(`exited ${c}`)));
      })) as { endpoint: string };
      assert.match(info.endpoint, /^http:\/\/127\.0\.0\.2:\d+\/\{titleId\}$/);
    } finally {
      const gone = new Promise((r) => good.once('exit', r));
      good.kill('SIGTERM');
      await gone;
    }
  });
});
