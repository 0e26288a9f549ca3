// Files that decide what is sent or kept as a record (journals, receipts, data-request folders)
// must be the user's own, not writable by group or others, and not symbolic links, so a file
// planted or swapped by another user in a shared folder is never obeyed, read back or written
// through. Written files are written whole: a temp file beside them, synced, renamed over.
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { link, lstat, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { ownProblem } from './ownFile';

type Stat = Stats;

/** Why `st` (of `what`, named `label` in the message) must not be used, or undefined (the rule: ownFile.ts). */
export function ownPathProblem(label: string, what: string, st: Stat, folder: boolean): string | undefined {
  const p = ownProblem(st, folder);
  if (p === undefined) return undefined;
  const fix = folder ? 'use a folder of your own that only you can write (mkdir -m 700 DIR)' : 'use a file of your own (or a new path)';
  if (p.chmod) return `${label}: ${what} ${p.problem}; run chmod go-w on it, or ${fix}.`;
  return `${label}: ${what} ${p.problem}; ${st.isSymbolicLink() ? 'give the real path, ' : ''}${fix}.`;
}

/** Why the folder at `path` (named `label`) must not be used, or undefined; `missing` says what to do when it does not exist. */
export async function ownFolderProblem(path: string, label: string, missing?: string): Promise<string | undefined> {
  const st = await lstat(path).catch(() => undefined);
  if (st === undefined) return missing ?? `${label}: the folder ${path} does not exist; create it (mkdir -m 700 ${path}) or give another path.`;
  return ownPathProblem(label, `the folder ${path}`, st, true);
}

/** Why the file at `path` (named `label`) or its folder must not be used, or undefined; a missing file is fine. */
export async function ownFileProblem(path: string, label: string): Promise<string | undefined> {
  const file = resolve(path);
  const folder = await ownFolderProblem(dirname(file), label);
  if (folder !== undefined) return folder;
  let st: Stat | undefined;
  try {
    st = await lstat(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return `${label} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`;
  }
  return ownPathProblem(label, 'the file', st, false);
}

/**
 * Writes `text` to `path` whole: a new temp file beside it, synced, then moved into place.
 * `replace` renames it over (a link planted at `path` is replaced, not followed); `create` links it
 * into place and keeps a file already there (two first uses racing keep one, the first).
 */
export async function writeWhole(path: string, text: string, how: 'replace' | 'create' = 'replace'): Promise<void> {
  const tmp = join(dirname(resolve(path)), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fh = await open(tmp, 'wx', 0o600);
    try {
      await fh.writeFile(text, 'utf8');
      await fh.datasync();
    } finally {
      await fh.close();
    }
    if (how === 'replace') await rename(tmp, path);
    else await link(tmp, path).catch((e: NodeJS.ErrnoException) => { if (e.code !== 'EEXIST') throw e; });
  } finally {
    await rm(tmp, { force: true });
  }
}
