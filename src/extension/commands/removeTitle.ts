// Remove Title: also deletes its secret key. Deletion Jobs receipts are kept: they are the
// record that a deletion was requested. Several selected titles go after one confirmation;
// Delete in the Titles view removes the focused title (with the selection when it is part of it).
// A title with a key also needs its title ID typed: Enter alone never deletes a key.
import * as vscode from 'vscode';
import { named } from '../titles';
import type { CommandContext } from './context';
import { resolveTitles } from './args';
import { defineCommand } from './define';
import { parseTarget, type Target } from './parse';
import { rememberRemovedEmulatorTitles } from '../removedTitles';

export async function removeTitle(c: CommandContext, target: Target): Promise<boolean> {
  const s = c.services;
  const titles = await resolveTitles(c, target);
  if (titles.length === 0) {
    // A message, not a status-bar note: screen readers announce it.
    void c.ui.info(vscode.l10n.t('Only a title can be removed: move to a title in the Titles view and press Delete again.'));
    return false;
  }
  const detail = vscode.l10n.t('Nothing changes on the service. Deletion Jobs receipts are kept and show again if you add the title back.');
  await c.ui.confirm(
    titles.length === 1
      ? vscode.l10n.t('Remove title {0} ({1})?', titles[0].name, titles[0].titleId)
      : vscode.l10n.t('Remove {0} titles: {1}?', titles.length, titles.map(named).join(', ')),
    `${titles.length === 1
      ? vscode.l10n.t('Its secret key is deleted from this machine\'s secret storage.')
      : vscode.l10n.t('Their secret keys are deleted from this machine\'s secret storage.')} ${detail}`,
    vscode.l10n.t('Remove'),
  );
  const keyed = [];
  for (const t of titles) if (await s.secrets.has(t.titleId)) keyed.push(t);
  if (keyed.length > 0) {
    const expected = keyed.map((t) => t.titleId).join(' ');
    await c.ui.input({
      title: vscode.l10n.t('Confirm removal'),
      prompt: keyed.length === 1
        ? vscode.l10n.t('Type {0} (the title ID) to remove {1} and delete its secret key', expected, keyed[0].name)
        : vscode.l10n.t('Type "{0}" (the title IDs with a key) to remove them and delete their secret keys', expected),
      validateInput: (v) => (v.trim().replace(/\s+/g, ' ').toUpperCase() === expected.toUpperCase() ? undefined : vscode.l10n.t('Type {0} exactly to confirm.', expected)),
    });
  }
  let removed = false;
  await rememberRemovedEmulatorTitles(s.ctx.globalState, titles);
  for (const title of titles) {
    // The key goes first: a failure then leaves a title without a key, never an orphaned key.
    await s.secrets.delete(title.titleId);
    s.addonStates.forgetTitle(title.titleId);
    removed = (await s.titles.remove(title.titleId)) || removed;
  }
  // The row leaving the view is silent to a screen reader: a message says it.
  if (removed) {
    void c.ui.info(titles.length === 1
      ? vscode.l10n.t('Removed title {0}.', named(titles[0]))
      : vscode.l10n.t('Removed {0} titles: {1}.', titles.length, titles.map(named).join(', ')));
  }
  return removed;
}

export const removeTitleCommand = defineCommand({
  id: 'platformExplorer.removeTitle',
  title: 'Remove Title',
  category: true,
  icon: 'close',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\btitle\\b/', group: '4_remove@1' },
    ],
  },
  keybindings: [{ key: 'delete', mac: 'cmd+backspace', when: 'focusedView == platformExplorer.titles && !inputFocus', args: { $treeViewId: 'platformExplorer.titles', $focusedTreeItem: true } }],
  parse: parseTarget,
  handler: removeTitle,
});
