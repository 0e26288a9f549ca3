import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Agent, request } from 'undici';

// `npm run test:unit` builds first; this test runs the built CLI as a user would.
const bundle = join(process.cwd(), 'dist', 'emulator.js');

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error('no output from the emulator within 10 s')), 10_000);
    rl.once('line', (line) => { clearTimeout(timer); rl.close(); resolve(line); });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`emulator exited early with ${code}`)); });
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

describe('emulator: CLI (dist/emulator.js)', () => {
  let child: ChildProcess | undefined;
  afterEach(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
      await exited(child);
    }
    child = undefined;
  });

  it('--json prints exactly one JSON line first; the endpoint serves; SIGTERM stops it cleanly', async function () {
    assert.ok(existsSync(bundle), 'run `node esbuild.mjs` first');
    child = spawn(process.execPath, [bundle, '--port', '0', '--seed', 'demo', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const line = await firstLine(child);
    const info = JSON.parse(line);
    assert.deepEqual(Object.keys(info), ['endpoint', 'controlToken', 'faultSeed', 'titles']);
    assert.match(info.endpoint, /^http:\/\/127\.0\.0\.1:\d+\/\{titleId\}$/);
    assert.ok(info.titles.length >= 2);
    for (const t of info.titles) assert.deepEqual(Object.keys(t), ['titleId', 'secretKey']);
    const { titleId, secretKey } = info.titles[0];
    const url = info.endpoint.replace('{titleId}', titleId) + '/Authentication/GetEntityToken';
    const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-SecretKey': secretKey }, body: '{}' });
    assert.equal(res.status, 200);
    const json = (await res.json()) as { data: { Entity: { Id: string } } };
    assert.equal(json.data.Entity.Id, titleId);
    child.kill('SIGTERM');
    assert.equal(await exited(child), 0);
  });

  it('--tls --json: HTTPS with a certificate made at start, its PEM in the first line as caCertificate', async function () {
    child = spawn(process.execPath, [bundle, '--port', '0', '--seed', 'demo', '--tls', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const info = JSON.parse(await firstLine(child));
    assert.deepEqual(Object.keys(info), ['endpoint', 'controlToken', 'faultSeed', 'titles', 'caCertificate']);
    assert.match(info.endpoint, /^https:\/\/127\.0\.0\.1:\d+\/\{titleId\}$/);
    assert.match(info.caCertificate, /^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n?$/);
    const { titleId, secretKey } = info.titles[0];
    const url = info.endpoint.replace('{titleId}', titleId) + '/Authentication/GetEntityToken';
    const post = (dispatcher: Agent) => request(url, { method: 'POST', dispatcher, headers: { 'content-type': 'application/json', 'x-secretkey': secretKey }, body: '{}' });
    const trusting = new Agent({ connect: { ca: info.caCertificate } });
    const untrusting = new Agent();
    try {
      assert.equal((await post(trusting)).statusCode, 200);
      await assert.rejects(post(untrusting), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    } finally {
      await Promise.all([trusting.close(), untrusting.close()]);
    }
  });

  it('without --json prints the endpoint and each demo title with its secret key', async () => {
    child = spawn(process.execPath, [bundle, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => { out += c.toString(); });
    for (let i = 0; i < 200 && !out.includes('Ctrl+C'); i++) await new Promise((r) => setTimeout(r, 25));
    assert.match(out, /Endpoint template: http:\/\/127\.0\.0\.1:\d+\/\{titleId\}/);
    assert.match(out, /Title F71AC "Demo Racer"\s+secret key: \S{20,}/);
    assert.match(out, /Title A248 /);
  });

  it('bad arguments exit with code 2 and a message naming the flag', async () => {
    child = spawn(process.execPath, [bundle, '--seed', 'lots'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (c: Buffer) => { err += c.toString(); });
    assert.equal(await exited(child), 2);
    assert.match(err, /--seed must be one of demo, empty/);
  });
});
