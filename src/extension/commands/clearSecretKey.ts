// Clear Secret Key: removes it (of the title, or of every selected title) from SecretStorage
// after one modal confirmation.
import * as vscode from 'vscode';
import { named } from '../titles';
import type { CommandContext } from './context';
import { resolveTitles } from './args';
import { defineCommand } from './define';
import { parseTarget, type Target } from './parse';

export async function clearSecretKey(c: CommandContext, target: Target): Promise<boolean> {
  const s = c.services;
  const chosen = await resolveTitles(c, target);
  const keyed = [];
  for (const t of chosen) if (await s.secrets.has(t.titleId)) keyed.push(t);
  const names = keyed.map(named).join(', ');
  if (keyed.length === 0) {
    void c.ui.info(chosen.length === 1
      ? vscode.l10n.t('{0} ({1}) has no secret key set.', chosen[0].name, chosen[0].titleId)
      : vscode.l10n.t('None of the selected titles has a secret key set.'));
    return false;
  }
  await c.ui.confirm(
    keyed.length === 1 ? vscode.l10n.t('Clear the secret key of {0}?', names) : vscode.l10n.t('Clear the secret keys of {0}?', names),
    vscode.l10n.t('It is deleted from this machine\'s secret storage; commands for this title stop working until you set it again.'),
    vscode.l10n.t('Clear'),
  );
  for (const t of keyed) await s.secrets.delete(t.titleId);
  return true;
}

export const clearSecretKeyCommand = defineCommand({
  id: 'platformExplorer.clearSecretKey',
  title: 'Clear Secret Key',
  category: true,
  icon: 'circle-slash',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bkeySet\\b/', group: '3_title@3' },
    ],
  },
  parse: parseTarget,
  handler: clearSecretKey,
});
