// Clear Secret Key: removes it from SecretStorage after a modal confirmation.
import * as vscode from 'vscode';
import { required } from '../errors';
import type { Services } from '../services';
import { resolveTitle } from './args';

export async function clearSecretKey(s: Services, arg?: unknown): Promise<boolean> {
  const title = await resolveTitle(s, arg);
  if (!(await s.secrets.has(title.titleId))) {
    void s.prompts.info(vscode.l10n.t('{0} ({1}) has no secret key set.', title.name, title.titleId));
    return false;
  }
  required(
    await s.prompts.confirm(
      vscode.l10n.t('Clear the secret key of {0} ({1})?', title.name, title.titleId),
      vscode.l10n.t('It is deleted from this machine\'s secret storage; commands for this title stop working until you set it again.'),
      vscode.l10n.t('Clear'),
    ),
  );
  await s.secrets.delete(title.titleId);
  await s.clients.forget(title.titleId);
  return true;
}
