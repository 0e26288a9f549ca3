// Where the editor keeps its deletion journals and their anchors (global storage, the user's own
// folders), the key they are authenticated with, and the deletions they record.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FolderAnchorStore, Journal, replay, type AnchorStore, type JournalKey } from '../../core/deletion/journal';
import { ledgerFromJournal } from '../../core/deletion/ledger';
import type { LedgerEntry } from '../../core/deletion/types';
import type * as vscode from 'vscode';
import type { Log } from '../log';
import type { SecretKeys } from '../secrets';

/** What these helpers use of the services (structural, so data requests can use them without an import cycle). */
interface JournalHost {
  readonly ctx: Pick<vscode.ExtensionContext, 'globalStorageUri'>;
  readonly secrets: Pick<SecretKeys, 'get'>;
  readonly log: Pick<Log, 'warn'>;
}

export function journalsDir(s: JournalHost): string {
  return join(s.ctx.globalStorageUri.fsPath, 'deletion-journals');
}

const anchorsDir = (s: Pick<JournalHost, 'ctx'>): string => join(s.ctx.globalStorageUri.fsPath, 'deletion-anchors');

/** Removes every journal and anchor (the test API's fresh start: they are records a plan reads, like the ledger). */
export async function forgetJournals(s: JournalHost): Promise<void> {
  await rm(journalsDir(s), { recursive: true, force: true });
  await rm(anchorsDir(s), { recursive: true, force: true });
}

/** The journals' anchors: beside them in global storage, out of reach of a cut or a restored copy of a journal file. */
export function journalAnchors(s: Pick<JournalHost, 'ctx'>): AnchorStore {
  return new FolderAnchorStore(anchorsDir(s));
}

/** Journals are authenticated with a key derived from their title's stored secret key (the CLI's too). */
export function journalKey(s: JournalHost): JournalKey {
  return (titleId) => s.secrets.get(titleId);
}

/** The journal files, by path. */
export async function journalPaths(s: JournalHost): Promise<string[]> {
  try {
    return (await readdir(journalsDir(s))).filter((n) => n.endsWith('.jsonl')).map((n) => join(journalsDir(s), n));
  } catch {
    return [];
  }
}

/**
 * The deletions every journal records, for a plan: the ledger (globalState) follows a run at most
 * a few times a second, so a crash can leave out the last players a journal shows sent.
 */
export async function journalLedger(s: JournalHost): Promise<LedgerEntry[]> {
  const out: LedgerEntry[] = [];
  const anchors = journalAnchors(s);
  for (const path of await journalPaths(s)) {
    try {
      const found = await Journal.read(path, journalKey(s), anchors);
      if (found !== undefined) out.push(...ledgerFromJournal(found.batch, replay(found.batch, found.records)));
    } catch (e) {
      s.log.warn(`Deletion journal ${path} could not be read for the plan: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return out;
}
