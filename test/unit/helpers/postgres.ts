// A real PostgreSQL for the tests (Debian's postgresql, see /work/shared/postgres-test-host.md):
// initdb and pg_ctl run as the `postgres` user (PostgreSQL refuses root) in a temporary folder, on
// a loopback port of its own with the socket in that folder. One server per test run
// (sharedPostgres), a database per test file (freshDatabase); a test that stops its server starts
// its own (startPostgres). Each server is stopped by the postmaster's PID and its folder removed,
// at the latest when the test process exits.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The folder holding initdb and pg_ctl: on PATH, else Debian's /usr/lib/postgresql/VERSION/bin. */
function pgBin(): string {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath !== '') return join(onPath, '..');
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a)) : [];
  if (versions.length === 0) throw new Error('PostgreSQL is not installed (no initdb on PATH or under /usr/lib/postgresql/*/bin): apt-get install -y postgresql (.ci/run does this on CI).');
  return join(root, versions[0], 'bin');
}

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

const asPostgres = (args: string[]): void => {
  execFileSync('runuser', ['-u', 'postgres', '--', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
};

export class TestPostgres {
  private stoppedPid: number | undefined;

  private constructor(readonly dir: string, readonly port: number, readonly password: string, private readonly bin: string, private readonly durable: boolean) {}

  /** The admin (superuser) connection string of database `db`. */
  url(db = 'postgres', user = 'admin', password = this.password): string {
    return `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${this.port}/${db}`;
  }

  /** `durable`: fsync on, as a real server (the bench); the tests run without it. */
  static async start(o: { durable?: boolean } = {}): Promise<TestPostgres> {
    const bin = pgBin();
    const dir = mkdtempSync(join(tmpdir(), 'pe-pg-'));
    chmodSync(dir, 0o755);
    const data = join(dir, 'data');
    const password = randomBytes(12).toString('hex');
    const pwfile = join(dir, 'pw');
    writeFileSync(pwfile, password, { mode: 0o600 });
    const pgUid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(pwfile, pgUid, -1);
    chownSync(dir, pgUid, -1);
    const port = await freePort();
    const server = new TestPostgres(dir, port, password, bin, o.durable === true);
    RUNNING.add(server);
    asPostgres([join(bin, 'initdb'), '-D', data, '-A', 'scram-sha-256', '-U', 'admin', '--pwfile', pwfile, '--no-sync']);
    server.startServer();
    return server;
  }

  private startServer(): void {
    const data = join(this.dir, 'data');
    asPostgres([join(this.bin, 'pg_ctl'), '-D', data, '-o', `-p ${this.port} -k ${data} -c listen_addresses=127.0.0.1${this.durable ? '' : ' -c fsync=off'}`, '-l', join(this.dir, 'log'), '-w', 'start']);
    this.stoppedPid = undefined;
  }

  /** The postmaster's PID (first line of postmaster.pid), while it runs. */
  pid(): number | undefined {
    try {
      return Number(readFileSync(join(this.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      return undefined;
    }
  }

  /** Stops the server at once (SIGQUIT to the postmaster: immediate shutdown) and waits until it is gone. */
  stop(): void {
    const pid = this.pid();
    if (pid === undefined) return;
    try {
      process.kill(pid, 'SIGQUIT');
    } catch {
      return;
    }
    const deadline = Date.now() + 10_000;
    // Bounded: until the postmaster is gone or 10 s.
    while (Date.now() < deadline) {
      try {
        process.kill(pid, 0);
      } catch {
        break;
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
    this.stoppedPid = pid;
  }

  /** Starts a stopped server again on the same port. */
  restart(): void {
    if (this.stoppedPid === undefined) return;
    rmSync(join(this.dir, 'data', 'postmaster.pid'), { force: true });
    this.startServer();
  }

  /** Stops the server and removes its folder. */
  dispose(): void {
    this.stop();
    rmSync(this.dir, { recursive: true, force: true });
    RUNNING.delete(this);
  }

  /** Runs SQL as the admin on database `db`. */
  async sql<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values: unknown[] = [], db = 'postgres'): Promise<T[]> {
    const c = new pg.Client({ connectionString: this.url(db) });
    await c.connect();
    try {
      return (await c.query<T>(text, values)).rows;
    } finally {
      await c.end();
    }
  }

  /** A new empty database; its admin connection string. */
  async freshDatabase(prefix: string): Promise<string> {
    const name = `${prefix}_${randomBytes(4).toString('hex')}`;
    await this.sql(`CREATE DATABASE ${name}`);
    return this.url(name);
  }
}

const RUNNING = new Set<TestPostgres>();
process.once('exit', () => {
  for (const s of RUNNING) s.dispose();
});

let shared: Promise<TestPostgres> | undefined;

/** The test run's one server, started on first use. */
export function sharedPostgres(): Promise<TestPostgres> {
  shared ??= TestPostgres.start();
  return shared;
}
