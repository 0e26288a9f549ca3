// Delete Master Player Account: shows what will be wiped (GetPlayedTitleList), asks for a
// modal confirmation and the PlatformId typed back, sends the request once (the client
// never re-sends a delete), then records the receipt under Deletion Jobs.
import * as vscode from 'vscode';
import type { DeleteMasterPlayerAccountResult } from '../../core/api/types';
import { required } from '../errors';
import type { Services } from '../services';
import { resolveTitle } from './args';
import { resolvePlatformId } from './platformIdArg';
import { confirmProductionTitle } from './production';

export async function deleteMasterPlayerAccount(s: Services, arg?: unknown): Promise<DeleteMasterPlayerAccountResult> {
  const title = await resolveTitle(s, arg);
  const platformId = await resolvePlatformId(s, arg, vscode.l10n.t('Delete Master Player Account'));
  const client = await s.clients.get(title.titleId);

  const played = (await client.getPlayedTitleList(platformId)).TitleIds ?? [];
  const impact = played.length > 0
    ? vscode.l10n.t('It removes the player\'s data from every title they played: {0}.', played.join(', '))
    : vscode.l10n.t('GetPlayedTitleList reports no played titles for this player.');
  required(
    await s.prompts.confirm(
      vscode.l10n.t('Delete the master player account {0}?', platformId),
      vscode.l10n.t('{0} Statistics, inventory, purchases, virtual currency, linked accounts, friends and event data are deleted. This cannot be undone; the service e-mails the title\'s notification address when it is finished.', impact),
      vscode.l10n.t('Delete'),
    ),
  );
  await confirmProductionTitle(s, title);
  required(
    await s.prompts.input({
      title: vscode.l10n.t('Confirm deletion'),
      prompt: vscode.l10n.t('Type the PlatformId {0} to confirm', platformId),
      validateInput: (v) => (v.trim().toUpperCase() === platformId ? undefined : vscode.l10n.t('Type {0} exactly to confirm.', platformId)),
    }),
  );

  const result = await client.deleteMasterPlayerAccount({ PlatformId: platformId });
  await s.jobs.add({
    jobReceiptId: result.JobReceiptId,
    platformId,
    titleId: title.titleId,
    titleName: title.name,
    requestedAt: new Date().toISOString(),
    titleIds: result.TitleIds ?? [],
  });
  const titles = result.TitleIds.join(', ') || vscode.l10n.t('none reported');
  const receipt = result.JobReceiptId;
  if (receipt === undefined) {
    // The deletion is queued all the same: say so, and keep the record without a receipt.
    s.log.info(`Deletion queued for ${platformId} on ${title.titleId}: the service returned no JobReceiptId`);
    void s.prompts.info(vscode.l10n.t('Deletion of {0} queued; the service returned no receipt. Titles: {1}. It is recorded under Deletion Jobs.', platformId, titles));
    return result;
  }
  s.log.info(`Deletion queued for ${platformId} on ${title.titleId}: JobReceiptId ${receipt}`);
  void s.prompts
    .info(vscode.l10n.t('Deletion of {0} queued. JobReceiptId {1}; titles: {2}.', platformId, receipt, titles), vscode.l10n.t('Copy JobReceiptId'))
    .then((action) => (action ? vscode.env.clipboard.writeText(receipt) : undefined));
  return result;
}
