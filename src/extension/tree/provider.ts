// The Titles view's data provider: delegates to the node models and turns a failed load
// into an error node (with "Show Log") instead of a notification.
import * as vscode from 'vscode';
import type { AddonStates } from '../addonStates';
import type { Clients } from '../clients';
import { describeFailure } from '../errors';
import type { DeletionJobStore } from '../jobs';
import type { Log } from '../log';
import type { SecretKeys } from '../secrets';
import type { TitleStore } from '../titles';
import { AddonNode, DeletionBatchNode, DeletionJobsNode, ErrorNode, TitleNode, type TreeNode } from './nodes';

export interface TreeDeps {
  titles: TitleStore;
  secrets: SecretKeys;
  clients: Clients;
  jobs: DeletionJobStore;
  addonStates: AddonStates;
  log: Log;
}

export class TitlesTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly d: TreeDeps) {
    const refresh = (): void => this.refresh();
    this.subscriptions = [
      d.titles.onDidChange(refresh),
      d.secrets.onDidChange(refresh),
      d.jobs.onDidChange(refresh),
      d.addonStates.onDidChange(refresh),
    ];
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const item = node.getTreeItem();
    // Without this, screen readers get the tooltip, whose last full stop runs into ", has actions".
    const label = typeof item.label === 'string' ? item.label : item.label?.label ?? '';
    item.accessibilityInformation ??= { label: [label, item.description].filter(Boolean).join(', ').replace(/[.…\s]+$/, '') };
    return item;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    try {
      if (!node) {
        return await this.titleNodes();
      }
      if (node instanceof TitleNode) {
        return await this.titleChildren(node);
      }
      if (node instanceof DeletionJobsNode || node instanceof DeletionBatchNode) {
        return node.children();
      }
      return [];
    } catch (e) {
      const { message } = describeFailure(e, this.d.secrets.known());
      this.d.log.error(`Titles view: ${message}`);
      return [new ErrorNode(node, vscode.l10n.t('Could not load: {0}', message))];
    }
  }

  private async titleNodes(): Promise<TreeNode[]> {
    const titles = this.d.titles.all();
    const keys = await Promise.all(titles.map((t) => this.d.secrets.has(t.titleId)));
    return titles.map((t, i) => new TitleNode(t, keys[i], this.d.clients.endpointFor(t)));
  }

  private async titleChildren(node: TitleNode): Promise<TreeNode[]> {
    const { titleId } = node;
    const states = this.d.addonStates;
    return [
      await this.handheldStoreNode(node),
      new AddonNode(node, 'MobileStore', states.get(titleId, 'MobileStore')),
      new AddonNode(node, 'ConsoleNetB', states.get(titleId, 'ConsoleNetB')),
      new DeletionJobsNode(node, this.d.jobs.forTitle(titleId)),
    ];
  }

  /** HandheldStore's Created state, read live when the title has a key. */
  private async handheldStoreNode(node: TitleNode): Promise<AddonNode> {
    if (!node.hasKey) {
      return new AddonNode(node, 'HandheldStore', 'unknown', vscode.l10n.t('no secret key'));
    }
    if (!this.d.clients.isTrusted()) {
      return new AddonNode(node, 'HandheldStore', 'unknown', vscode.l10n.t('workspace not trusted'));
    }
    try {
      const client = await this.d.clients.get(node.titleId);
      const config = await client.getHandheldStore();
      return new AddonNode(node, 'HandheldStore', config.Created ? 'present' : 'absent');
    } catch (e) {
      const { message, hint } = describeFailure(e, this.d.secrets.known());
      this.d.log.warn(`HandheldStore of ${node.titleId} could not be loaded: ${message}`);
      return new AddonNode(node, 'HandheldStore', 'error', hint ? `${message} ${hint}` : message);
    }
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.changed.dispose();
  }
}
