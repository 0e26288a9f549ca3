// Set / Replace Secret Key: password input, stored in SecretStorage only.
import * as vscode from 'vscode';
import { validateSecretKey } from '../secrets';
import type { CommandContext } from './context';
import { resolveTitle } from './args';
import { defineCommand } from './define';
import { parseNodeOnly, parseTarget, type Target } from './parse';

export async function setSecretKey(c: CommandContext, target: Target): Promise<void> {
  const s = c.services;
  const title = await resolveTitle(c, target);
  const replacing = await s.secrets.has(title.titleId);
  const key = await c.ui.input({
    title: replacing
      ? vscode.l10n.t('Replace the secret key of {0} ({1})', title.name, title.titleId)
      : vscode.l10n.t('Set the secret key of {0} ({1})', title.name, title.titleId),
    prompt: vscode.l10n.t('The title secret key from the title\'s management portal. It is kept in VS Code\'s secret storage only.'),
    password: true,
    validateInput: validateSecretKey,
  });
  await s.secrets.set(title.titleId, key);
  void c.ui.info(replacing
    ? vscode.l10n.t('Secret key replaced for {0} ({1}).', title.name, title.titleId)
    : vscode.l10n.t('Secret key saved for {0} ({1}).', title.name, title.titleId));
}

export const setSecretKeyCommand = defineCommand({
  id: 'platformExplorer.setSecretKey',
  title: 'Set Secret Key',
  category: true,
  icon: 'key',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bnoKey\\b/', group: 'inline@1' },
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bnoKey\\b/', group: '3_title@2' },
    ],
  },
  parse: parseTarget,
  handler: setSecretKey,
});
export const replaceSecretKeyCommand = defineCommand({
  id: 'platformExplorer.replaceSecretKey',
  title: 'Replace Secret Key',
  category: true,
  icon: 'key',
  palette: 'false',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bkeySet\\b/', group: '3_title@2' },
    ],
  },
  parse: parseNodeOnly,
  handler: setSecretKey,
});
