// Copy Title ID: of the title (or the selected titles, one per line), else the user's pick.
import * as vscode from 'vscode';
import type { CommandContext } from './context';
import { resolveTitles } from './args';
import { defineCommand } from './define';
import { parseTarget, type Target } from './parse';
import { sayCopied } from './copied';

export async function copyTitleId(c: CommandContext, target: Target): Promise<string | undefined> {
  const titles = await resolveTitles(c, target);
  if (titles.length === 0) {
    // Guidance in a message, which screen readers announce; a status-bar note is never read out.
    void c.ui.info(vscode.l10n.t('Select a title in the Platform view to copy its ID.'));
    return undefined;
  }
  const text = titles.map((t) => t.titleId).join('\n');
  await vscode.env.clipboard.writeText(text);
  sayCopied(c, titles.length === 1 ? vscode.l10n.t('Copied title ID {0}', text) : vscode.l10n.t('Copied {0} title IDs', titles.length));
  return text;
}

export const copyTitleIdCommand = defineCommand({
  id: 'platformExplorer.copyTitleId',
  title: 'Copy Title ID',
  category: true,
  icon: 'copy',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\btitle\\b/', group: '3_title@0' },
    ],
  },
  parse: parseTarget,
  handler: copyTitleId,
});
