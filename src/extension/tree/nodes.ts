// The Titles view's node base: each node has a stable id, knows its parent, builds its
// TreeItem and its own children. contextValue is a sorted `;`-joined set of flags, matched by
// regex in package.json menus.
import type { CommandId } from '../commandIds';
import { flags } from '../contextValue';
import * as vscode from 'vscode';
import type { TextFilter } from '../../core/textFilter';
import type { AddonStates } from '../addonStates';
import type { Clients } from '../clients';
import type { DeletionJobStore } from '../jobs';
import type { Log } from '../log';
import type { SecretKeys } from '../secrets';
import type { TitleStore } from '../titles';

/** What nodes read to build themselves and their children. */
export interface TreeContext {
  titles: TitleStore;
  secrets: SecretKeys;
  clients: Clients;
  jobs: DeletionJobStore;
  addonStates: AddonStates;
  log: Log;
  /** The view's filter now (empty: everything shown). */
  filter(): TextFilter;
  /** Redraws `node` and what is under it (nodes call it on themselves: a change fires where it happens). */
  changed(node: TreeNode): void;
}

export abstract class TreeNode {
  abstract readonly id: string;
  abstract readonly parent: TreeNode | undefined;
  abstract getTreeItem(): vscode.TreeItem;

  getChildren(): TreeNode[] | Promise<TreeNode[]> {
    return [];
  }

  getParent(): TreeNode | undefined {
    return this.parent;
  }
}

// Built on use, so the title comes from the l10n bundle loaded at activation.
export const showLog = (): vscode.Command => ({ command: 'platformExplorer.showLog' satisfies CommandId, title: vscode.l10n.t('Show Log') });

export class ErrorNode extends TreeNode {
  readonly id: string;

  constructor(readonly parent: TreeNode | undefined, readonly message: string) {
    super();
    this.id = `${parent?.id ?? 'root'}/error`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.message, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.tooltip = `${this.message}\n${vscode.l10n.t('Click to open the Platform Explorer log.')}`;
    item.iconPath = new vscode.ThemeIcon('error');
    item.contextValue = flags('error');
    item.command = showLog();
    return item;
  }
}

/** One of this view's own nodes (a task, link or keybinding can pass only plain JSON). */
export function isTreeNode(x: unknown): x is TreeNode {
  return x instanceof TreeNode;
}
