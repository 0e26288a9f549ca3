// Set / Replace Secret Key: password input, stored in SecretStorage only.
import * as vscode from 'vscode';
import { required } from '../errors';
import { validateSecretKey } from '../secrets';
import type { Services } from '../services';
import { resolveTitle } from './args';

export async function setSecretKey(s: Services, arg?: unknown): Promise<void> {
  const title = await resolveTitle(s, arg);
  const replacing = await s.secrets.has(title.titleId);
  const key = required(
    await s.prompts.input({
      title: replacing
        ? vscode.l10n.t('Replace the secret key of {0} ({1})', title.name, title.titleId)
        : vscode.l10n.t('Set the secret key of {0} ({1})', title.name, title.titleId),
      prompt: vscode.l10n.t('The title secret key from the title\'s management portal. It is kept in VS Code\'s secret storage only.'),
      password: true,
      validateInput: validateSecretKey,
    }),
  );
  await s.secrets.set(title.titleId, key);
  await s.clients.forget(title.titleId);
  void s.prompts.info(replacing
    ? vscode.l10n.t('Secret key replaced for {0} ({1}).', title.name, title.titleId)
    : vscode.l10n.t('Secret key saved for {0} ({1}).', title.name, title.titleId));
}
