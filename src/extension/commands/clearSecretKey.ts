// Clear Secret Key: removes it from SecretStorage after a modal confirmation.
import * as vscode from 'vscode';
import type { CommandContext } from './context';
import { resolveTitle } from './args';

export async function clearSecretKey(c: CommandContext, arg?: unknown): Promise<boolean> {
  const s = c.services;
  const title = await resolveTitle(c, arg);
  if (!(await s.secrets.has(title.titleId))) {
    void c.ui.info(vscode.l10n.t('{0} ({1}) has no secret key set.', title.name, title.titleId));
    return false;
  }
  await c.ui.confirm(
    vscode.l10n.t('Clear the secret key of {0} ({1})?', title.name, title.titleId),
    vscode.l10n.t('It is deleted from this machine\'s secret storage; commands for this title stop working until you set it again.'),
    vscode.l10n.t('Clear'),
  );
  await s.secrets.delete(title.titleId);
  return true;
}
