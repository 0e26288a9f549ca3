// The command line's files: the journal and the receipts (and their folders) must be the user's
// own, not writable by group or others, and not symbolic links (core/files/ownFiles.ts). Receipts are
// written whole, and the ledger of earlier batches is read only from journals this tool wrote and
// authenticated with the title's key.
import { lstat, open, readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { ownFileProblem, writeWhole } from '../core/files/ownFiles';
import { FolderAnchorStore, Journal, ledgerFromJournal, replay, type AnchorStore, type LedgerEntry } from '../core/deletion';
import { journalIdentity } from '../core/deletion/lock';
import { ownProblem } from '../core/files/ownFile';
import { UsageError } from './args';

/** Refuses `path` (given as `flag`) and its folder unless they are the user's own and private enough; a missing file is fine. */
export async function checkOwnFile(path: string, flag: string): Promise<void> {
  const why = await ownFileProblem(path, `${flag} ${path}`);
  if (why !== undefined) throw new UsageError(why);
}

export { writeWhole };

/**
 * The command line's journal anchors (core/deletion/anchor.ts): a folder of this user's state,
 * `$XDG_STATE_HOME/platform-explorer/anchors` (by default `~/.local/state/platform-explorer/anchors`),
 * made 0700 and refused when it is not the user's own.
 */
export function cliAnchors(env: NodeJS.ProcessEnv = process.env): AnchorStore {
  const state = env.XDG_STATE_HOME !== undefined && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return new FolderAnchorStore(join(state, 'platform-explorer', 'anchors'));
}

const LEDGER_FILES_MAX = 500;

/** The first bytes of `path`: a journal starts with its batch record. */
async function head(path: string): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(512);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
}

/** The title a file's batch record names, when the file is a deletion journal (read before any check of its MAC). */
export async function journalTitle(path: string): Promise<string | undefined> {
  const first = await head(path).catch(() => '');
  if (!/^\{"type":"batch"/.test(first)) return undefined;
  const m = /"titleId":"([0-9A-Fa-f]{4,16})"/.exec(first);
  return m ? m[1].toUpperCase() : '';
}

/** Refuses a --receipts path that is a journal (this batch's or another's): writing there would erase a deletion record. */
export async function checkReceiptsPath(receipts: string, journal: string): Promise<void> {
  const same = resolve(receipts) === resolve(journal);
  if (same || (await journalTitle(resolve(receipts))) !== undefined) {
    throw new UsageError(`--receipts ${receipts} is ${same ? 'the --journal file' : 'a deletion journal'}; writing receipts there would erase the record of the deletions it holds. Give a new receipts file.`);
  }
}

export interface PriorLedger {
  entries: LedgerEntry[];
  /** Journals of this title in the folder that could not be read with its key (named, with why). */
  unreadable: string[];
  /** Journals of this title beyond the number read. */
  notRead: number;
}

/**
 * Deletions already recorded for `titleId`: the other journals in `journal`'s folder (any file
 * name) that are the user's own files and authenticate with the title's key. A journal of the
 * title that does not authenticate (another key, damaged, an older version, someone else's file)
 * is reported, never silently skipped: it may record deletions of the same players. So is a batch
 * anchored in this folder (core/deletion/anchor.ts) whose journal is no longer there.
 */
// eslint-disable-next-line complexity -- one reading per earlier journal with a reason each time one is skipped; the skips are the point and read in order
export async function priorLedger(journal: string, key: string, titleId: string, anchors: AnchorStore): Promise<PriorLedger> {
  const folder = dirname(resolve(journal));
  const self = await journalIdentity(journal);
  const out: PriorLedger = { entries: [], unreadable: [], notRead: 0 };
  const batches = new Set<string>();
  let read = 0;
  for (const name of (await readdir(folder).catch(() => [])).sort()) {
    const path = join(folder, name);
    const st = await lstat(path).catch(() => undefined);
    if (st === undefined || !st.isFile() || path === self) continue;
    const title = await journalTitle(path);
    if (title === undefined || (title !== '' && title !== titleId.toUpperCase())) continue;
    if (read >= LEDGER_FILES_MAX) {
      out.notRead++;
      continue;
    }
    read++;
    if (ownProblem(st, false) !== undefined) {
      out.unreadable.push(`${name} (not your own file, or writable by others)`);
      continue;
    }
    try {
      const found = await Journal.read(path, key, anchors);
      // A data request's export or events-only journal records no deletion.
      if (found !== undefined && found.batch.operation === undefined) out.entries.push(...ledgerFromJournal(found.batch, replay(found.batch, found.records)));
      if (found !== undefined) batches.add(found.batch.batchId);
    } catch (e) {
      out.unreadable.push(`${name} (${(e as Error).message.slice(0, 200)})`);
    }
  }
  // A batch anchored in this folder whose journal is no longer here (deleted, moved, cut to nothing, or another in its place).
  try {
    for (const a of await anchors.list()) {
      if (a.titleId.toUpperCase() !== titleId.toUpperCase() || dirname(a.path) !== folder || batches.has(a.batchId) || a.path === self) continue;
      out.unreadable.push(`${basename(a.path)} (batch ${a.batchId} reached ${a.lines} records there, and its journal is gone or holds less; restore it, or if its players are known, remove its anchor ${join(anchors.where, `${a.batchId}.json`)})`);
    }
  } catch (e) {
    out.unreadable.push(`the anchors in ${anchors.where} (${(e as Error).message.slice(0, 200)})`);
  }
  return out;
}
