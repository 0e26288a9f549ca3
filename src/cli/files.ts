// The command line's files: the journal and the receipts (and their folders) must be the user's
// own, not writable by group or others, and not symbolic links, so a file planted or swapped by
// another user in a shared folder is never obeyed, read back or written through. Receipts are
// written whole (temp file, then renamed over), and the ledger of earlier batches is read only
// from journals this tool wrote and authenticated with the title's key.
import { randomBytes } from 'node:crypto';
import { lstat, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Journal, ledgerFromJournal, replay, type LedgerEntry } from '../core/deletion';
import { journalIdentity } from '../core/deletion/lock';
import { UsageError } from './args';

/** Refuses `path` (given as `flag`) and its folder unless they are the user's own and private enough; a missing file is fine. */
export async function checkOwnFile(path: string, flag: string): Promise<void> {
  const file = resolve(path);
  const folder = dirname(file);
  const dir = await lstat(folder).catch(() => undefined);
  if (dir === undefined) throw new UsageError(`${flag} ${path}: the folder ${folder} does not exist; create it (mkdir -m 700 ${folder}) or give another path.`);
  refuse(flag, path, `the folder ${folder}`, dir, true);
  const st = await lstat(file).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw new UsageError(`${flag} ${path} cannot be read (${e.code ?? e.message}).`);
  });
  if (st !== undefined) refuse(flag, path, 'the file', st, false);
}

function refuse(flag: string, path: string, what: string, st: Awaited<ReturnType<typeof lstat>>, folder: boolean): void {
  const fix = folder ? 'use a folder of your own that only you can write (mkdir -m 700 DIR)' : 'use a file of your own (or a new path)';
  if (st.isSymbolicLink()) throw new UsageError(`${flag} ${path}: ${what} is a symbolic link, which could lead to another user's file; give the real path, ${fix}.`);
  if (folder ? !st.isDirectory() : !st.isFile()) throw new UsageError(`${flag} ${path}: ${what} is not a ${folder ? 'folder' : 'regular file'}; ${fix}.`);
  const uid = process.getuid?.();
  if (uid === undefined) return;
  if (Number(st.uid) !== uid) throw new UsageError(`${flag} ${path}: ${what} belongs to another user (uid ${st.uid}), who could have planted or could change it; ${fix}.`);
  if ((Number(st.mode) & 0o022) !== 0) {
    throw new UsageError(`${flag} ${path}: ${what} is writable by group or others (mode ${(Number(st.mode) & 0o7777).toString(8)}); run chmod go-w on it, or ${fix}.`);
  }
}

/** Writes `text` to `path` whole: a new temp file beside it, renamed over (a link planted at `path` is replaced, not followed). */
export async function writeWhole(path: string, text: string): Promise<void> {
  const tmp = join(dirname(resolve(path)), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, text, { mode: 0o600, flag: 'wx' });
    await rename(tmp, path);
  } finally {
    await rm(tmp, { force: true });
  }
}

const LEDGER_FILES_MAX = 500;

/**
 * Deletions already recorded for `titleId`: the other journals in `journal`'s folder that are the
 * user's own files and authenticate with the title's key. Anything else there is not read as a ledger.
 */
export async function priorLedger(journal: string, key: string, titleId: string): Promise<LedgerEntry[]> {
  const folder = dirname(resolve(journal));
  const self = await journalIdentity(journal);
  const uid = process.getuid?.();
  const names = (await readdir(folder).catch(() => [])).filter((n) => n.endsWith('.jsonl')).sort().slice(0, LEDGER_FILES_MAX);
  const out: LedgerEntry[] = [];
  for (const name of names) {
    const path = join(folder, name);
    const st = await lstat(path).catch(() => undefined);
    if (st === undefined || !st.isFile() || path === self || (uid !== undefined && (st.uid !== uid || (st.mode & 0o022) !== 0))) continue;
    const found = await Journal.read(path, key).catch(() => undefined);
    if (found === undefined || found.batch.titleId !== titleId) continue;
    out.push(...ledgerFromJournal(found.batch, replay(found.batch, found.records)));
  }
  return out;
}
