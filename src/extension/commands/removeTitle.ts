// Remove Title: also deletes its secret key. Deletion Jobs receipts are kept: they are the
// record that a deletion was requested.
import * as vscode from 'vscode';
import { required } from '../errors';
import type { Services } from '../services';
import { resolveTitle } from './args';

export async function removeTitle(s: Services, arg?: unknown): Promise<boolean> {
  const title = await resolveTitle(s, arg);
  required(
    await s.prompts.confirm(
      vscode.l10n.t('Remove title {0} ({1})?', title.name, title.titleId),
      vscode.l10n.t('Its secret key is deleted from this machine\'s secret storage. Nothing changes on the service. Deletion Jobs receipts are kept and show again if you add the title back.'),
      vscode.l10n.t('Remove'),
    ),
  );
  // The key goes first: a failure then leaves a title without a key, never an orphaned key.
  await s.secrets.delete(title.titleId);
  await s.clients.forget(title.titleId);
  s.addonStates.forgetTitle(title.titleId);
  return s.titles.remove(title.titleId);
}
