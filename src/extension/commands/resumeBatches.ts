// A batch stopped by a crash, a kill or a closed window: on the next start its journal still
// lists players not sent (or sent without an answer). Offer to resume it; a player whose
// outcome is unknown is sent again only in a resume the user confirms (the service refuses a
// second deletion while one is queued, and that refusal is recorded as queued).
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { Journal, JournalNoAnchor, JournalRolledBack } from '../../core/deletion/journal';
import { readableLocal } from '../../core/time';
import type { Services } from '../services';
import type { CommandContext } from './context';
import { reportBatch, runJournal } from './deleteFromList';
import { journalAnchors, journalKey, journalPaths } from './journals';
import { defineCommand, noArguments } from './define';

export interface Interrupted {
  path: string;
  titleId: string;
  pending: number;
  unknown: number;
  /** Players of the whole batch, and those already answered (queued, deleted or failed). */
  total: number;
  answered: number;
  /** The ticket reference (MetaData), when one was given, and when the batch was made. */
  ticket?: string;
  createdAt: string;
}

/** Journals with players not yet sent or whose outcome is unknown, and journals refused as cut back or an older copy. */
export async function findInterrupted(s: Services, o: { noAnchor?: string } = {}): Promise<(Interrupted | { path: string; refused: string } | { path: string; noAnchor: string })[]> {
  const out: (Interrupted | { path: string; refused: string } | { path: string; noAnchor: string })[] = [];
  const anchors = journalAnchors(s);
  for (const path of o.noAnchor !== undefined ? [o.noAnchor] : await journalPaths(s)) {
    try {
      const found = await Journal.read(path, journalKey(s), anchors);
      // A data request's export or events-only journal is run by its request, never as deletions.
      if (found === undefined || found.batch.operation !== undefined) continue;
      const j = await Journal.open(path, { key: journalKey(s), anchors, noAnchor: o.noAnchor === path });
      if (j.notice !== undefined) s.log.info(j.notice);
      const states = [...j.players().values()].map((p) => p.state);
      await j.close();
      const pending = states.filter((st) => st === 'pending').length;
      const unknown = states.filter((st) => st === 'unknown').length;
      const b = found.batch;
      if (pending + unknown > 0) {
        out.push({ path, titleId: b.titleId, pending, unknown, total: states.length, answered: states.length - pending - unknown, ticket: b.metaData, createdAt: b.createdAt });
      }
    } catch (e) {
      // Never resumed; said, not only logged: its players may have been sent after what it shows.
      if (e instanceof JournalRolledBack) out.push({ path, refused: e.message });
      // No anchor here (another machine, a restored copy): offered only after the user accepts the risk.
      if (e instanceof JournalNoAnchor) out.push({ path, noAnchor: e.message });
      s.log.warn(`Deletion journal ${basename(path)} could not be read: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return out;
}

/** Offers each interrupted batch for resuming; resolves with the batches resumed. */
export async function resumeBatches(c: CommandContext): Promise<number> {
  const s = c.services;
  let resumed = 0;
  const interrupted = await findInterrupted(s);
  for (let b of interrupted) {
    if ('refused' in b) {
      await c.ui.error(b.refused);
      continue;
    }
    if ('noAnchor' in b) {
      const USE = vscode.l10n.t('Use Without Anchor');
      const ok = await c.ui.optional.confirm(
        vscode.l10n.t('Resume this deletion batch without its anchor?'),
        vscode.l10n.t('{0} If it is not the newest copy (an older copy restored, or one that went on elsewhere), players deleted since it was copied would be sent again.', b.noAnchor),
        USE,
      );
      const found = ok === USE ? (await findInterrupted(s, { noAnchor: b.path }))[0] : undefined;
      if (found === undefined || 'refused' in found || 'noAnchor' in found) continue;
      b = found;
    }
    const title = s.titles.get(b.titleId);
    if (!title) continue;
    const RESUME = vscode.l10n.t('Resume');
    const answer = await c.ui.optional.confirm(
      vscode.l10n.t('A deletion batch for title {0} ({1}, started {2}) stopped with {3} of {4} players answered.',
        b.titleId, b.ticket ? vscode.l10n.t('ticket {0}', b.ticket) : vscode.l10n.t('no ticket'), readableLocal(b.createdAt), b.answered, b.total),
      vscode.l10n.t('{0} players were not sent; {1} were sent without an answer (outcome unknown). Resuming sends the rest; those with an unknown outcome are sent again, and the service refuses a second deletion of a player already queued, which is then recorded as queued.', b.pending, b.unknown),
      RESUME,
    );
    if (answer !== RESUME) continue;
    reportBatch(c, title, await runJournal(c, title, await Journal.open(b.path, { key: journalKey(s), anchors: journalAnchors(s) }), true), true);
    resumed++;
  }
  if (interrupted.length === 0) void c.ui.info(vscode.l10n.t('No interrupted deletion batch to resume: every batch has been sent in full.'));
  return resumed;
}

export const resumeDeletionBatchesCommand = defineCommand({
  id: 'platformExplorer.resumeDeletionBatches',
  title: 'Resume Interrupted Deletion Batches',
  category: true,
  icon: 'debug-continue',
  lazy: 'deletion',
  operations: ['DeleteMasterPlayerAccount'],
  parse: noArguments,
  handler: resumeBatches,
});
