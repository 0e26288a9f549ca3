// The emulator as a separate process on 127.0.0.1 (`node dist/emulator.js --port 0 --json`),
// for the demo and the UI tests. Build first (node esbuild.mjs).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from '../test-host/paths.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * `node dist/emulator.js --port 0 --seed demo --json` on 127.0.0.1; resolves with its first
 * stdout line (endpoint + demo keys) and a stop() that waits for the process to exit.
 */
export async function startEmulatorProcess({ seed = 'demo' } = {}) {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'dist', 'emulator.js'), '--port', '0', '--host', '127.0.0.1', '--seed', seed, '--json'], {
    cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
  const exited = new Promise((r) => child.once('exit', (code, signal) => r(code ?? signal)));
  let timer;
  const first = await Promise.race([
    new Promise((r) => createInterface({ input: child.stdout }).once('line', r)),
    exited.then((c) => { throw new Error(`the emulator exited (${c}) before printing its endpoint: ${stderr.trim()}`); }),
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('the emulator printed no endpoint within 15 s')), 15_000); }),
  ]).catch((e) => { child.kill('SIGKILL'); throw e; }).finally(() => clearTimeout(timer));
  const info = JSON.parse(first);
  const origin = new URL(info.endpoint.replace('{titleId}', 'x')).origin;
  const kill = () => { try { child.kill('SIGKILL'); } catch { /* gone */ } };
  process.on('exit', kill);
  return {
    ...info,
    origin,
    pid: child.pid,
    /** POST/GET a loopback test control under /_emulator/. */
    async control(method, path, body) {
      const res = await fetch(`${origin}/_emulator/${path}`, {
        method, headers: { 'content-type': 'application/json', authorization: `Bearer ${info.controlToken}` }, body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`emulator control ${path}: HTTP ${res.status} ${text}`);
      return text ? JSON.parse(text) : undefined;
    },
    async stop() {
      process.off('exit', kill);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const done = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)]);
      if (!done) { kill(); await exited; }
    },
  };
}
