// Delete Master Player Account: warns first when the ledger holds a queued deletion of the
// player; shows what will be wiped (GetPlayedTitleList), asks for a modal confirmation and the
// PlatformId typed back, sends the request once (the client never re-sends a delete), then
// records the deletion in the ledger (Deletion Jobs).
import * as vscode from 'vscode';
import { named } from '../titles';
import { PlatformError, withChanges } from '../../core/api/errors';
import { ErrorCodes, type DeleteMasterPlayerAccountResult } from '../../core/api/types';
import { shownReceiptId, shownTitleId } from '../../core/serviceText';
import { NONE_RETURNED } from '../../core/deletion/types';
import { readableLocal } from '../../core/time';
import { usableTitle } from './args';
import type { CommandContext } from './context';
import { parsePlayerArgs, resolvePlatformId, type PlayerArgs } from './platformIdArg';
import { verifyTitle } from './verifyDeletions';
import { confirmProductionTitle } from './production';
import { noteActivity } from '../activity/recorder';
import { defineCommand } from './define';

/** The PlatformId given, else the editor's (not from a node; never InView: the selected deletion job's player), else asked. */
export async function deleteMasterPlayerAccount(c: CommandContext, a: PlayerArgs): Promise<DeleteMasterPlayerAccountResult | undefined> {
  const s = c.services;
  const { title, client } = await usableTitle(c, a.target);
  const platformId = await resolvePlatformId(c, a, vscode.l10n.t('Delete Master Player Account'));
  const queued = s.jobs.queuedFor(platformId);
  if (queued !== undefined) {
    // The service refuses a second deletion while one is queued: say so instead of sending.
    const VERIFY = vscode.l10n.t('Verify Now');
    const action = await c.ui.optional.confirm(
      vscode.l10n.t('A deletion of {0} is already queued.', platformId),
      vscode.l10n.t('Requested {0} through title {1}, JobReceiptId {2}. The service refuses a second deletion while one is queued; nothing was sent. Verify Now checks whether it has completed.', readableLocal(queued.requestedAt), queued.titleId, queued.jobReceiptId ?? NONE_RETURNED),
      VERIFY,
    );
    noteActivity(vscode.l10n.t('nothing sent'));
    if (action === VERIFY) await verifyTitle(s, queued.titleId, c.ui);
    return undefined;
  }

  let played: string[];
  try {
    played = (await client.getPlayedTitleList(platformId)).TitleIds.map(shownTitleId);
  } catch (e) {
    if (!(e instanceof PlatformError && e.errorCode === ErrorCodes.AccountNotFound)) throw e;
    // Already deleted (or never there): nothing to do, and nothing went wrong.
    const deleted = s.jobs.all().find((j) => j.platformId === platformId && j.state === 'verified-deleted');
    void c.ui.info(deleted
      ? vscode.l10n.t('{0}: {1} is already deleted (verified {2}); nothing was sent.', named(title), platformId, readableLocal(deleted.verifiedAt ?? deleted.requestedAt))
      : vscode.l10n.t('{0}: {1} has no master player account (already deleted, or never created); nothing was sent.', named(title), platformId));
    noteActivity(vscode.l10n.t('nothing sent'));
    return undefined;
  }
  const impact = played.length > 0
    ? vscode.l10n.t('It removes the player\'s data from every title they played: {0}.', played.join(', '))
    : vscode.l10n.t('GetPlayedTitleList reports no played titles for this player.');
  await c.ui.confirm(
    vscode.l10n.t('Delete the master player account {0} through {1}?', platformId, named(title)),
    vscode.l10n.t('{0} Statistics, inventory, purchases, virtual currency, linked accounts, friends and event data are deleted. This cannot be undone; the service e-mails the title\'s notification address when it is finished.', impact),
    vscode.l10n.t('Delete'),
  );
  await confirmProductionTitle(c, title);
  await c.ui.input({
    title: vscode.l10n.t('Confirm deletion'),
    prompt: vscode.l10n.t('Type the PlatformId {0} to confirm', platformId),
    validateInput: (v) => (v.trim().toUpperCase() === platformId ? undefined : vscode.l10n.t('Type {0} exactly to confirm.', platformId)),
  });

  let result: DeleteMasterPlayerAccountResult;
  try {
    result = await client.deleteMasterPlayerAccount({ PlatformId: platformId });
  } catch (e) {
    if (!(e instanceof PlatformError && e.outcomeUnknown)) throw e;
    // Sent, but no answer says what happened: recorded as unknown, which Verify Deletions checks.
    await s.jobs.add({ input: platformId, platformId, titleId: title.titleId, titleIds: played, requestedAt: new Date().toISOString(), state: 'unknown', error: e.message });
    s.verifier.kick();
    throw withChanges(e, {
      hint: vscode.l10n.t('It is recorded under Deletion Jobs as "outcome unknown"; Verify Deletions checks whether the player is gone (the service answers AccountNotFound once a deletion completes). Do not send it again before that.'),
    });
  }
  // Checked before the receipt is stored, shown or copied (a malformed one is kept escaped, never lost).
  const receipt = result.JobReceiptId === undefined || result.JobReceiptId.length === 0 ? undefined : shownReceiptId(result.JobReceiptId);
  const titleIds = result.TitleIds.length > 0 ? result.TitleIds.map(shownTitleId) : played;
  await s.jobs.add({
    input: platformId, platformId, titleId: title.titleId, titleIds, requestedAt: new Date().toISOString(), state: 'queued',
    ...(receipt !== undefined ? { jobReceiptId: receipt } : {}),
  });
  s.verifier.kick();
  s.log.info(`Deletion queued for ${platformId} on ${title.titleId}: JobReceiptId ${receipt ?? NONE_RETURNED}`);
  const titles = titleIds.join(', ') || vscode.l10n.t('none reported');
  if (receipt === undefined) {
    // The deletion is queued all the same: say so; the record under Deletion Jobs has no receipt.
    void c.ui.info(vscode.l10n.t('{0}: deletion of {1} queued; the service returned no receipt. Titles: {2}. It is recorded under Deletion Jobs.', named(title), platformId, titles));
  } else {
    void c.ui
      .info(vscode.l10n.t('{0}: deletion of {1} queued. JobReceiptId {2}; titles: {3}.', named(title), platformId, receipt, titles), vscode.l10n.t('Copy JobReceiptId'))
      .then((action) => (action ? vscode.env.clipboard.writeText(receipt) : undefined));
  }
  return result;
}

export const deleteMasterPlayerAccountCommand = defineCommand({
  id: 'platformExplorer.deleteMasterPlayerAccount',
  title: 'Delete Master Player Account…',
  category: true,
  icon: 'trash',
  inView: true,
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bkeySet\\b/', group: '2_player@2' },
    ],
    'editor/context': [
      { when: 'editorTextFocus && platformExplorer.editorHasPlatformId && !platformExplorer.editorHasPlatformIds', group: 'platformExplorer@2' },
    ],
  },
  lazy: 'deletion',
  operations: ['DeleteMasterPlayerAccount'],
  parse: parsePlayerArgs,
  handler: deleteMasterPlayerAccount,
});
