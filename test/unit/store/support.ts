// Shared by the team store tests: a database of its own on the test run's PostgreSQL, its schema
// made by the CLI's `store init`, and database users given the operator and auditor roles by
// `store grant`; CLI runs with --store postgres and PLATFORM_STORE_URL.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { runCli, spawnCli, TITLE, type CliRun } from '../deletion/support';
import { sharedPostgres, type TestPostgres } from '../helpers/postgres';

export interface StoreFixture {
  pg: TestPostgres;
  /** The admin's connection string of this file's database. */
  adminUrl: string;
  /** A file (0600) holding it. */
  adminFile: string;
  operatorUrl: string;
  auditorUrl: string;
  dir: string;
}

/** A new database with the schema and two users (operator, auditor), made through the CLI. */
export async function makeStore(pg: TestPostgres, prefix: string): Promise<StoreFixture> {
  const adminUrl = await pg.freshDatabase(prefix);
  const dir = mkdtempSync(join(tmpdir(), 'pe-store-'));
  const adminFile = join(dir, 'admin-url');
  writeFileSync(adminFile, `${adminUrl}\n`, { mode: 0o600 });
  const init = await runCli(['store', 'init', '--admin-url-file', adminFile]);
  assert.equal(init.code, 0, init.stderr);
  const db = new URL(adminUrl).pathname.slice(1);
  const users: Record<string, string> = {};
  for (const role of ['operator', 'auditor']) {
    const user = `${role}_${randomBytes(4).toString('hex')}`;
    const password = randomBytes(9).toString('hex');
    await pg.sql(`CREATE ROLE ${user} LOGIN PASSWORD '${password}'`);
    const g = await runCli(['store', 'grant', '--admin-url-file', adminFile, '--role', role, '--user', user]);
    assert.equal(g.code, 0, g.stderr);
    users[role] = pg.url(db, user, password);
  }
  return { pg, adminUrl, adminFile, operatorUrl: users.operator, auditorUrl: users.auditor, dir };
}

/** A mocha fixture: one store per test file on the shared server. */
export function useStore(prefix: string): StoreFixture {
  const f = {} as StoreFixture;
  before(async function () {
    this.timeout(60_000);
    Object.assign(f, await makeStore(await sharedPostgres(), prefix));
  });
  after(() => rmSync(f.dir, { recursive: true, force: true }));
  return f;
}

/** The environment of a CLI run against the store at `url`. */
export function storeEnv(url: string, more: Record<string, string> = {}): Record<string, string> {
  return { PLATFORM_SECRET_KEY: TITLE.secretKey, PLATFORM_STORE_URL: url, ...more };
}

/** delete-players arguments for batch `batch` of the ids in `input` against `endpoint`. */
export function storeArgs(endpoint: string, input: string, batch: string): string[] {
  return ['delete-players', '--title', TITLE.titleId, '--endpoint', endpoint, '--kind', 'platform-id', '--input', input, '--store', 'postgres', '--batch', batch, '--json'];
}

export function runStoreCli(args: string[], url: string, more: Record<string, string> = {}): Promise<CliRun> {
  return spawnCli(args, storeEnv(url, more)).done;
}

/** Runs one statement as the database user of `url`; its rows. */
export async function asUser<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}
