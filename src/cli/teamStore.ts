// The command line's team store: deletion batches kept in PostgreSQL (--store postgres, the
// connection string in PLATFORM_STORE_URL, never argv), and `store init` / `store grant` run with
// an admin's connection string read from a file of the user's own.
import { readFile, stat } from 'node:fs/promises';
import type { BatchRecord } from '../core/deletion';
import type { RequestAuth } from '../core/requests';
import { checkUrl, grantRole, initStore, openPgBatch, PgRequestStore, ROLES, type PgBatch, type PgStoreOptions, type RoleName } from '../core/store';
import { UsageError } from './args';
import { checkOwnFile } from './files';
import { cliOperator } from './operator';
import { knownSecrets } from './output';
import { storeExport, storeImport, storeUrl, TRANSFER_USAGE } from './storeTransfer';

/** A whole number from the environment variable `name` within bounds, else `fallback`. */
function envNumber(name: string, fallback: number, min: number, max: number): number {
  const v = process.env[name];
  if (v === undefined || v.trim() === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${name} must be a whole number from ${min} to ${max}, not "${v.slice(0, 20)}".`);
  return n;
}

/** The team store's connection, the operator, and the lease and time-out from the environment. */
async function storeOptions(): Promise<PgStoreOptions> {
  const op = await cliOperator();
  return {
    url: storeUrl(),
    operator: { fingerprint: op.fingerprint, name: op.name },
    leaseSeconds: envNumber('PLATFORM_STORE_LEASE_SECONDS', 900, 1, 86_400),
    statementTimeoutMs: envNumber('PLATFORM_STORE_STATEMENT_TIMEOUT_MS', 15_000, 100, 600_000),
  };
}

/** Opens the data requests of the team store (request ... --store postgres). */
export async function openTeamRequests(auth: RequestAuth): Promise<PgRequestStore> {
  return PgRequestStore.open({
    ...(await storeOptions()),
    again: 'run the same request command again: a send whose answer was not recorded stays unknown and is not sent again (request verify settles erasures; --resend-unknown sends the others again, knowing they may have been taken)',
    auth,
  });
}

/** Opens (with `create`: starts or joins) the batch of --batch in the team store. */
export async function openStoreBatch(a: { batch?: string; titleId: string }, key: string, create?: BatchRecord): Promise<PgBatch> {
  return openPgBatch({
    ...(await storeOptions()),
    batchId: a.batch!,
    secret: key,
    titleId: a.titleId,
    ...(create !== undefined ? { create: { ...create, batchId: a.batch! } } : {}),
  });
}

export const STORE_USAGE = `usage:
  platform-explorer store init --admin-url-file FILE
  platform-explorer store grant --admin-url-file FILE --role operator|auditor|admin --user NAME
${TRANSFER_USAGE}

store init creates or updates the team store's schema (in one transaction; refused against a
newer schema) and its roles: operator (reads and appends; evidence and send records are
append-only), auditor (reads only), admin. store grant gives an existing database user a role.
FILE holds an admin's connection string (postgres://USER:PASSWORD@HOST:PORT/DATABASE); it must be
yours and not readable by others. Operators then set PLATFORM_STORE_URL to their own.
store import moves a folder's deletion journals into the store (PLATFORM_STORE_URL): each
journal checked first (MAC chain, anchor), all written in one transaction and read back before it
commits; a batch already in the store is refused. The journals are kept, renamed *.imported.
store export writes the store's batches (or each --batch) as journals into a new folder, sealed
with each title's key (PLATFORM_SECRET_KEY_<TITLEID>, else PLATFORM_SECRET_KEY).`;

// eslint-disable-next-line complexity -- one check per flag of store init/grant with its own message
export async function runStoreCommand(argv: readonly string[]): Promise<string> {
  const [sub, ...rest] = argv;
  if (sub === 'import') return storeImport(rest);
  if (sub === 'export') return storeExport(rest);
  if (sub !== 'init' && sub !== 'grant') throw new UsageError(`Unknown store command "${sub ?? ''}": use store init, grant, import or export (see --help).`);
  const values = new Map<string, string>();
  const allowed = sub === 'init' ? ['--admin-url-file'] : ['--admin-url-file', '--role', '--user'];
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]];
    if (!allowed.includes(flag)) throw new UsageError(`Unknown option "${flag}" for store ${sub} (see --help).`);
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value (see --help).`);
    values.set(flag, value);
  }
  const file = values.get('--admin-url-file');
  if (file === undefined) throw new UsageError(`store ${sub} needs --admin-url-file FILE: a file of yours holding an admin's connection string (never given on the command line).`);
  await checkOwnFile(file, '--admin-url-file');
  let text: string;
  try {
    if (((await stat(file)).mode & 0o077) !== 0) throw new UsageError(`--admin-url-file ${file} can be read by others, and it holds a password: chmod 600 it.`);
    text = await readFile(file, 'utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`--admin-url-file ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
  const url = checkUrl(text.trim(), `--admin-url-file ${file}`);
  const password = new URL(url).password;
  if (password !== '') knownSecrets.push(decodeURIComponent(password));
  if (sub === 'init') return initStore(url);
  const role = values.get('--role');
  if (role === undefined || !(role in ROLES)) throw new UsageError(`--role must be one of ${Object.keys(ROLES).join(', ')}.`);
  const user = values.get('--user');
  if (user === undefined || user.trim() === '' || user.length > 63) throw new UsageError('--user names an existing database user (at most 63 characters).');
  return grantRole(url, role as RoleName, user);
}
