// Verify Deletions: asks the service (GetPlayedTitleList) about every queued deletion in the
// ledger; AccountNotFound means the deletion completed, so it is marked verified deleted.
// The same check runs on its own while the editor is open (../verifier.ts).
import * as vscode from 'vscode';
import { named } from '../titles';
import { awaitsVerification, verifyQueued, type VerifyResult } from '../../core/deletion/ledger';
import type { Services } from '../services';
import type { CommandContext, CommandUi } from './context';
import { jobsOfNodes } from '../tree/jobNodes';
import { targetNodes } from './args';
import { defineCommand } from './define';
import { parseTarget, type Target } from './parse';

/** Verifies one title's queued deletions (or those of `entries`); with `ui` (a command's), reports the result to the user. */
export async function verifyTitle(s: Services, titleId: string, ui: Pick<CommandUi, 'info' | 'error'> | undefined, entries = s.jobs.forTitle(titleId)): Promise<VerifyResult> {
  const client = await s.clients.get(titleId);
  const verified: string[] = [];
  const r = await verifyQueued(client, entries, (platformId) => void verified.push(platformId));
  await s.jobs.markVerified(verified, new Date().toISOString());
  s.log.info(`Verified deletions of ${titleId}: ${r.verified.length} deleted, ${r.stillQueued.length} still queued, ${r.errors.length} not checked`);
  if (ui) {
    const title = s.titles.get(titleId);
    const text = vscode.l10n.t('{0}: {1} verified deleted, {2} still queued, {3} could not be checked.', title ? named(title) : titleId, r.verified.length, r.stillQueued.length, r.errors.length);
    void (r.errors.length > 0 ? ui.error(`${text} ${r.errors[0].error}`) : ui.info(text));
  }
  return r;
}

/** Verifies the selected jobs and batches (several titles' too), else one title's or every queued deletion. */
export async function verifyDeletions(c: CommandContext, t: Target): Promise<VerifyResult> {
  const s = c.services;
  const named = t.titleId;
  const chosen = t.node ? jobsOfNodes(targetNodes(c, t)).filter(awaitsVerification) : undefined;
  const titles = chosen ? [...new Set(chosen.map((e) => e.titleId))]
    : named !== undefined ? [named.toUpperCase()] : [...new Set(s.jobs.all().filter(awaitsVerification).map((e) => e.titleId))];
  const total: VerifyResult = { verified: [], stillQueued: [], errors: [] };
  if (titles.length === 0) {
    void c.ui.info(vscode.l10n.t('No queued deletions to verify.'));
    return total;
  }
  for (const t of titles) {
    const r = await verifyTitle(s, t, c.ui, chosen?.filter((e) => e.titleId === t));
    total.verified.push(...r.verified);
    total.stillQueued.push(...r.stillQueued);
    total.errors.push(...r.errors);
  }
  return total;
}

export const verifyDeletionsCommand = defineCommand({
  id: 'platformExplorer.verifyDeletions',
  title: 'Verify Deletions',
  category: true,
  icon: 'check-all',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bhasQueued\\b/', group: 'inline@2' },
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bhasQueued\\b/', group: '1_job@2' },
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bdeletionJob\\b/ && viewItem =~ /\\b(queued|unknown)\\b/', group: '1_job@2' },
    ],
  },
  lazy: 'deletion',
  operations: ['GetPlayedTitleList'],
  // A node with the view's selection beside it, `{ titleId }` (a notification's action, a test), nothing (all).
  parse: parseTarget,
  handler: verifyDeletions,
});
