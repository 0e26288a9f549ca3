/* eslint-disable @typescript-eslint/no-explicit-any -- tests read members of parsed answers freely */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../../../src/emulator/server';
import { DEMO_TITLES } from '../../../src/emulator/seed';

const bundle = join(process.cwd(), 'dist', 'emulator.js');

async function get(url: string): Promise<{ status: number; json: any } | 'refused'> {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(5000) });
    return { status: r.status, json: await r.json() };
  } catch {
    return 'refused';
  }
}

function entityToken(origin: string, titleId: string, secretKey: string): Promise<Response> {
  return fetch(`${origin}/${titleId}/Authentication/GetEntityToken`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', 'X-SecretKey': secretKey }, body: '{}', signal: AbortSignal.timeout(5000),
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

describe('emulator: readiness', () => {
  it('GET /_emulator/ready answers 503 while the start is held and 200 only once every title answers', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    let listening!: (origin: string) => void;
    const origin = new Promise<string>((r) => { listening = r; });
    const starting = startEmulator({ fixedKeys: true, onListening: (o) => listening(o), beforeReady: () => held });
    const o = await origin;
    const before = await get(`${o}/_emulator/ready`);
    assert.notEqual(before, 'refused');
    if (before === 'refused') return;
    assert.equal(before.status, 503);
    assert.equal(before.json.ready, false);
    const early = await entityToken(o, DEMO_TITLES[0].titleId, DEMO_TITLES[0].secretKey);
    assert.equal(early.status, 503, 'a service request before ready is told to wait');
    assert.equal(early.headers.get('retry-after'), '1');
    assert.equal(((await early.json()) as { error: string }).error, 'ServiceUnavailable');
    release();
    const emu = await starting;
    try {
      const after = await get(`${o}/_emulator/ready`);
      assert.ok(after !== 'refused' && after.status === 200 && after.json.ready === true);
      assert.deepEqual(after.json.titles, DEMO_TITLES.map((t) => t.titleId));
      for (const t of DEMO_TITLES) assert.equal((await entityToken(o, t.titleId, t.secretKey)).status, 200);
    } finally {
      await emu.close();
    }
  });

  describe('the CLI', () => {
    let dir: string;
    let child: ChildProcess | undefined;
    beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'emu-ready-')); });
    afterEach(async () => {
      if (child && child.exitCode === null) {
        child.kill('SIGKILL');
        await exited(child);
      }
      child = undefined;
      rmSync(dir, { recursive: true, force: true });
    });

    const freePort = () => new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => resolve(port));
      });
    });

    it('under a slow start (300 titles, 100,000 players) ready turns 200 only when every title answers', async function () {
      this.timeout(120_000);
      const titles = Array.from({ length: 300 }, (_, i) => ({ titleId: (0x10000 + i).toString(16).toUpperCase(), name: `T${i}`, secretKey: `KEYOFTITLE${String(i).padStart(8, '0')}` }));
      const seed = join(dir, 'big.json');
      writeFileSync(seed, JSON.stringify({ titles, playerTemplates: [{ count: 100_000, player: { storefrontNames: ['p{n}'], titles: { [titles[0].titleId]: {} } } }] }));
      const port = await freePort();
      child = spawn(process.execPath, [bundle, '--seed', seed, '--port', String(port), '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
      const seen = new Set<string>();
      let ready: { status: number; json: any } | undefined;
      for (let i = 0; i < 6000 && !ready; i++) {
        const r = await get(`http://127.0.0.1:${port}/_emulator/ready`);
        seen.add(r === 'refused' ? 'refused' : String(r.status));
        if (r !== 'refused' && r.status === 200) ready = r;
        else await new Promise((res) => setTimeout(res, 10));
      }
      assert.ok(ready, `never ready (seen: ${[...seen].join(', ')})`);
      assert.ok(seen.has('503'), `the port answered "not ready" while the seed was built (seen: ${[...seen].join(', ')})`);
      assert.equal(ready.json.titles.length, 300);
      // Right after the first 200: every title answers its key.
      const origin = `http://127.0.0.1:${port}`;
      const statuses = await Promise.all(titles.map((t) => entityToken(origin, t.titleId, t.secretKey).then((r) => r.status)));
      assert.deepEqual([...new Set(statuses)], [200]);
    });

    it('a port in use exits 1 with a message naming the port and the fix', async () => {
      const blocker = createServer().listen(0, '127.0.0.1');
      await new Promise((r) => blocker.once('listening', r));
      const { port } = blocker.address() as AddressInfo;
      try {
        child = spawn(process.execPath, [bundle, '--port', String(port), '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
        let err = '';
        let out = '';
        child.stderr!.on('data', (c: Buffer) => { err += c.toString(); });
        child.stdout!.on('data', (c: Buffer) => { out += c.toString(); });
        assert.equal(await exited(child), 1);
        assert.equal(out, '');
        assert.match(err, new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is in use by another program; choose another --port, or --port 0`));
      } finally {
        blocker.close();
      }
    });
  });
});
