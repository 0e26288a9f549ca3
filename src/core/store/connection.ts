// Connecting to the team store: the connection string comes from the caller (the CLI reads
// PLATFORM_STORE_URL, the editor its setting and SecretStorage), never from argv; what is shown of
// it is host, port and database, never the user's password. Every failure is a StoreError that
// says what to do.
import pg from 'pg';
import { serviceText } from '../serviceText';
import { SCHEMA, SCHEMA_VERSION } from './schema';
import { StoreError } from './types';

export interface ConnectOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  /** Longest a statement may run before the database cancels it (default 15000). */
  statementTimeoutMs?: number;
  /** Longest a connection may take to open (default 5000). */
  connectTimeoutMs?: number;
}

/** The store as named in messages: host, port and database, never a password. */
export function storeWhere(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname.length > 1 ? u.pathname : ''}`;
  } catch {
    return '(a connection string that is not a URL)';
  }
}

/** The password in a connection string, so that no message shows it. */
function passwordOf(url: string): string[] {
  try {
    const p = decodeURIComponent(new URL(url).password);
    return p === '' ? [] : [p];
  } catch {
    return [];
  }
}

/** A database error's text, clipped and masked (it may quote values). */
export function dbText(e: unknown, url: string): string {
  const code = (e as { code?: unknown }).code;
  const msg = serviceText(String((e as Error)?.message ?? e), { max: 300, secrets: passwordOf(url) });
  return typeof code === 'string' && code !== '' ? `${msg} [${code}]` : msg;
}

export function checkUrl(url: string | undefined, from: string): string {
  if (url === undefined || url.trim() === '') throw new StoreError(`${from} is not set: give the team store's connection string there (postgres://USER:PASSWORD@HOST:PORT/DATABASE).`);
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    throw new StoreError(`${from} is not a connection string: give postgres://USER:PASSWORD@HOST:PORT/DATABASE.`);
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') throw new StoreError(`${from} must start with postgres:// (it starts with ${serviceText(u.protocol, { max: 20 })}).`);
  return url.trim();
}

/** Opens one connection; a refused or failed connection is a StoreError naming the store and the fix. */
export async function connect(o: ConnectOptions): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: o.url,
    statement_timeout: o.statementTimeoutMs ?? 15_000,
    // Client-side too: a server that stops answering without closing the connection (a network cut) ends the query.
    query_timeout: (o.statementTimeoutMs ?? 15_000) + 5_000,
    connectionTimeoutMillis: o.connectTimeoutMs ?? 5_000,
    application_name: 'platform-explorer',
  });
  // A connection lost while idle is reported by the next query; without a listener it would end the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => undefined);
    throw new StoreError(`Cannot connect to the team store ${storeWhere(o.url)}: ${dbText(e, o.url)}. Nothing was sent. Check that the database is running and that the connection string's host, port, user and password are right.`);
  }
  return client;
}

/** The schema's version in the store, or 0 when it has none yet. */
export async function schemaVersion(client: pg.Client): Promise<number> {
  const has = await client.query<{ t: string | null }>(`SELECT to_regclass('${SCHEMA}.schema_version')::text AS t`);
  if (has.rows[0].t === null) return 0;
  const r = await client.query<{ version: number }>(`SELECT version FROM ${SCHEMA}.schema_version`);
  return r.rows[0]?.version ?? 0;
}

/** Refuses a store whose schema is not the one this build reads (none yet, older, or newer). */
export async function checkSchema(client: pg.Client, url: string): Promise<void> {
  const v = await schemaVersion(client);
  const where = storeWhere(url);
  if (v === 0) throw new StoreError(`The team store ${where} has no Platform Explorer schema yet. Nothing was sent. An admin creates it with: platform-explorer store init --admin-url-file FILE`);
  if (v > SCHEMA_VERSION) throw new StoreError(`The team store ${where} has schema version ${v}, newer than this Platform Explorer reads (version ${SCHEMA_VERSION}). Nothing was sent and nothing was changed. Update Platform Explorer to the version your team uses.`);
  if (v < SCHEMA_VERSION) throw new StoreError(`The team store ${where} has schema version ${v}, older than this Platform Explorer's (version ${SCHEMA_VERSION}). Nothing was sent. An admin updates it with: platform-explorer store init --admin-url-file FILE`);
}
