// Copy (Ctrl+C / Cmd+C in the Titles view): what the focused or selected items stand for, one
// per line: a title's ID, a job's PlatformId (a batch's every PlatformId), else the item's name.
import * as vscode from 'vscode';
import { DeletionBatchNode, DeletionJobNode } from '../tree/jobNodes';
import type { TreeNode } from '../tree/nodes';
import { TitleNode } from '../tree/titleNodes';
import type { CommandContext } from './context';
import { targetNodes } from './args';
import { defineCommand } from './define';
import { parseTarget, type Target } from './parse';
import { sayCopied } from './copied';

function copied(n: TreeNode): string[] {
  if (n instanceof TitleNode) return [n.titleId];
  if (n instanceof DeletionJobNode) return [n.job.platformId];
  if (n instanceof DeletionBatchNode) return n.jobs.map((j) => j.platformId);
  const label = n.getTreeItem().label;
  return [typeof label === 'string' ? label : label?.label ?? ''].filter((x) => x !== '');
}

export async function copyItem(c: CommandContext, target: Target): Promise<string | undefined> {
  const lines = [...new Set(targetNodes(c, target).flatMap(copied))];
  if (lines.length === 0) {
    void c.ui.info(vscode.l10n.t('Select an item in the Platform view to copy it.'));
    return undefined;
  }
  const text = lines.join('\n');
  await vscode.env.clipboard.writeText(text);
  sayCopied(c, lines.length === 1 ? vscode.l10n.t('Copied {0}', text) : vscode.l10n.t('Copied {0} lines', lines.length));
  return text;
}

export const copyItemCommand = defineCommand({
  id: 'platformExplorer.copyItem',
  title: 'Copy',
  category: true,
  palette: 'false',
  keybindings: [{ key: 'ctrl+c', mac: 'cmd+c', when: 'focusedView == platformExplorer.titles && !inputFocus', args: { $treeViewId: 'platformExplorer.titles', $focusedTreeItem: true } }],
  parse: parseTarget,
  handler: copyItem,
});
