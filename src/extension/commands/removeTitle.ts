// Remove Title: also deletes its secret key. Deletion Jobs receipts are kept: they are the
// record that a deletion was requested.
import * as vscode from 'vscode';
import type { CommandContext } from './context';
import { resolveTitle } from './args';

export async function removeTitle(c: CommandContext, arg?: unknown): Promise<boolean> {
  const s = c.services;
  const title = await resolveTitle(c, arg);
  await c.ui.confirm(
    vscode.l10n.t('Remove title {0} ({1})?', title.name, title.titleId),
    vscode.l10n.t('Its secret key is deleted from this machine\'s secret storage. Nothing changes on the service. Deletion Jobs receipts are kept and show again if you add the title back.'),
    vscode.l10n.t('Remove'),
  );
  // The key goes first: a failure then leaves a title without a key, never an orphaned key.
  await s.secrets.delete(title.titleId);
  s.addonStates.forgetTitle(title.titleId);
  return s.titles.remove(title.titleId);
}
