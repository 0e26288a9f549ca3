// Rename: the display name only; the title ID never changes. F2 in the Titles view renames the
// focused title.
import * as vscode from 'vscode';
import type { CommandContext } from './context';
import { validateTitleName } from '../titles';
import { resolveTitles } from './args';
import { defineCommand } from './define';
import { parseTarget, type Target } from './parse';

export async function renameTitle(c: CommandContext, target: Target): Promise<string | undefined> {
  const s = c.services;
  const [title] = await resolveTitles(c, target);
  if (!title) {
    // A message, not a status-bar note: screen readers announce it.
    void c.ui.info(vscode.l10n.t('Only a title can be renamed: move to a title in the Titles view and press F2 again.'));
    return undefined;
  }
  const name = (await c.ui.input({
    title: vscode.l10n.t('Rename {0}', title.titleId),
    prompt: vscode.l10n.t('New display name'),
    value: title.name,
    validateInput: validateTitleName,
  })).trim();
  await s.titles.rename(title.titleId, name);
  return name;
}

export const renameTitleCommand = defineCommand({
  id: 'platformExplorer.renameTitle',
  title: 'Rename Title',
  category: true,
  icon: 'edit',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\btitle\\b/', group: '3_title@1' },
    ],
  },
  keybindings: [{ key: 'f2', when: 'focusedView == platformExplorer.titles && !inputFocus', args: { $treeViewId: 'platformExplorer.titles', $focusedTreeItem: true } }],
  parse: parseTarget,
  handler: renameTitle,
});
