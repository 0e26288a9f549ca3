// A real proxy for tests and the bench: Debian's tinyproxy in the foreground with a config file
// of its own, on a free loopback port, logging to a file we read; stopped by its process id.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TinyproxyOptions {
  /** Ports CONNECT may reach (tinyproxy's own default allows only 443 and 563). */
  connectPorts: readonly number[];
  /** Require Basic proxy credentials. */
  basicAuth?: { user: string; password: string };
  /** Info shows each CONNECT line; Warning keeps the log quiet for the bench. */
  logLevel?: 'Info' | 'Connect' | 'Warning';
}

export interface Tinyproxy {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  pid: number;
  /** Everything tinyproxy has logged so far. */
  log(): string;
  stop(): Promise<void>;
}

const START_MS = 5_000;
const STOP_MS = 3_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
}

function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    child.once('exit', () => { clearTimeout(t); resolve(true); });
  });
}

export async function startTinyproxy(o: TinyproxyOptions): Promise<Tinyproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'tinyproxy-'));
  const port = await freePort();
  const logFile = join(dir, 'tinyproxy.log');
  const conf = join(dir, 'tinyproxy.conf');
  writeFileSync(conf, [
    `Port ${port}`, 'Listen 127.0.0.1', 'Timeout 60', `LogFile "${logFile}"`, `LogLevel ${o.logLevel ?? 'Info'}`,
    'MaxClients 100', 'Allow 127.0.0.1', ...o.connectPorts.map((p) => `ConnectPort ${p}`),
    ...(o.basicAuth ? [`BasicAuth ${o.basicAuth.user} ${o.basicAuth.password}`] : []), '',
  ].join('\n'));
  const child = spawn('tinyproxy', ['-d', '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => { stderr += c.toString(); });
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  const stop = async (): Promise<void> => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      process.kill(child.pid, 'SIGTERM');
      if (!(await exited(child, STOP_MS))) {
        process.kill(child.pid, 'SIGKILL');
        await exited(child, STOP_MS);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + START_MS;
  for (;;) {
    const failed = await Promise.race([spawnError, new Promise<undefined>((r) => setTimeout(() => r(undefined), 50))]);
    if (failed) {
      await stop();
      throw new Error(`tinyproxy could not start (${failed.message}); install the Debian package: node scripts/test-host/install.mjs`);
    }
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`tinyproxy exited with code ${child.exitCode}: ${stderr.trim()}`);
    }
    if (await accepts(port)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`tinyproxy did not listen on 127.0.0.1:${port} within ${START_MS} ms: ${stderr.trim()}`);
    }
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? 0,
    log: () => {
      try { return readFileSync(logFile, 'utf8'); } catch { return ''; }
    },
    stop,
  };
}
