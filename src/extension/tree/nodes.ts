// Nodes of the Titles view: models with a stable id, their parent, and their TreeItem.
// contextValue is a sorted `;`-joined set of flags, matched by regex in package.json menus.
import * as vscode from 'vscode';
import type { AddonName, AddonState } from '../addonStates';
import type { DeletionJob } from '../jobs';
import type { TitleRecord } from '../titles';

export interface TreeNode {
  readonly id: string;
  readonly parent: TreeNode | undefined;
  getTreeItem(): vscode.TreeItem;
}

export function flags(...f: (string | false | undefined)[]): string {
  return [...new Set(f.filter((x): x is string => typeof x === 'string' && x.length > 0))].sort().join(';');
}

// Built on use, so the title comes from the l10n bundle loaded at activation.
const showLog = (): vscode.Command => ({ command: 'platformExplorer.showLog', title: vscode.l10n.t('Show Log') });

export class TitleNode implements TreeNode {
  readonly id: string;
  readonly parent = undefined;
  readonly titleId: string;

  constructor(readonly title: TitleRecord, readonly hasKey: boolean, readonly endpoint: string) {
    this.titleId = title.titleId;
    this.id = `title/${title.titleId}`;
  }

  getTreeItem(): vscode.TreeItem {
    const t = this.title;
    const item = new vscode.TreeItem(t.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.description = [
      t.titleId,
      this.hasKey ? vscode.l10n.t('key set') : vscode.l10n.t('no key'),
      t.endpointProfile === 'emulator' && vscode.l10n.t('emulator'),
      t.production && vscode.l10n.t('production'),
    ].filter(Boolean).join(' · ');
    item.tooltip = [
      vscode.l10n.t('{0} (title ID {1})', t.name, t.titleId),
      vscode.l10n.t('Endpoint: {0}', this.endpoint),
      this.hasKey ? vscode.l10n.t('Secret key: set (stored in SecretStorage)') : vscode.l10n.t('Secret key: not set'),
      ...(t.production ? [vscode.l10n.t('Marked production: deletions also need the title ID typed.')] : []),
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon(t.endpointProfile === 'emulator' ? 'vm' : 'cloud');
    item.contextValue = flags('title', this.hasKey ? 'keySet' : 'noKey', t.endpointProfile, t.production ? 'production' : 'notProduction');
    return item;
  }
}

export type AddonNodeState = AddonState | 'error';

const ADDON_FLAG: Record<AddonName, string> = {
  HandheldStore: 'handheldStore',
  MobileStore: 'mobileStore',
  ConsoleNetB: 'consoleNetB',
};

export class AddonNode implements TreeNode {
  readonly id: string;
  readonly titleId: string;

  constructor(
    readonly parent: TitleNode,
    readonly addon: AddonName,
    readonly state: AddonNodeState,
    /** Why the state is what it is, when not obvious (no key, load failure). */
    readonly detail?: string,
  ) {
    this.titleId = parent.titleId;
    this.id = `${parent.id}/addon/${addon}`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.addon, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    const live = this.addon === 'HandheldStore';
    const words: Record<AddonNodeState, string> = {
      present: live ? vscode.l10n.t('created') : vscode.l10n.t('present'),
      absent: live ? vscode.l10n.t('not created') : vscode.l10n.t('absent'),
      unknown: live ? vscode.l10n.t('not loaded') : vscode.l10n.t('state unknown'),
      error: vscode.l10n.t('could not load'),
    };
    item.description = this.detail && this.state !== 'error' ? `${words[this.state]} (${this.detail})` : words[this.state];
    item.tooltip = [
      live
        ? vscode.l10n.t('HandheldStore add-on: {0}. Read live with GetHandheldStore.', words[this.state])
        : vscode.l10n.t('{0} add-on: {1}. Learned from this session\'s actions; there is no read operation.', this.addon, words[this.state]),
      ...(this.detail ? [this.detail] : []),
      ...(this.state === 'error' ? [vscode.l10n.t('Click to open the Platform Explorer log.')] : []),
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon(this.state === 'error' ? 'error' : this.state === 'absent' ? 'circle-slash' : 'extensions');
    item.contextValue = flags(
      'addon',
      ADDON_FLAG[this.addon],
      this.state,
      !live && this.state !== 'absent' && 'deletable',
    );
    if (this.state === 'error') {
      item.command = showLog();
    } else if (live) {
      item.command = { command: 'platformExplorer.showHandheldStore', title: vscode.l10n.t('Show HandheldStore Configuration'), arguments: [{ titleId: this.titleId }] };
    }
    return item;
  }
}

export class DeletionJobsNode implements TreeNode {
  readonly id: string;
  readonly titleId: string;

  constructor(readonly parent: TitleNode, readonly jobs: readonly DeletionJob[]) {
    this.titleId = parent.titleId;
    this.id = `${parent.id}/jobs`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(
      vscode.l10n.t('Deletion Jobs'),
      this.jobs.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = this.id;
    item.description = this.jobs.length === 0 ? vscode.l10n.t('none') : String(this.jobs.length);
    item.tooltip = vscode.l10n.t('Master player account deletions requested from this machine, with their JobReceiptIds.');
    item.iconPath = new vscode.ThemeIcon('history');
    item.contextValue = flags('deletionJobs', this.jobs.length > 0 && 'hasJobs');
    return item;
  }
}

export class DeletionJobNode implements TreeNode {
  readonly id: string;
  readonly titleId: string;
  readonly jobReceiptId: string | undefined;

  constructor(readonly parent: DeletionJobsNode, readonly job: DeletionJob) {
    this.titleId = job.titleId;
    this.jobReceiptId = job.jobReceiptId;
    this.id = `${parent.id}/${job.jobReceiptId ?? `${job.platformId}@${job.requestedAt}`}`;
  }

  getTreeItem(): vscode.TreeItem {
    const j = this.job;
    const receipt = j.jobReceiptId ?? vscode.l10n.t('(no receipt returned)');
    const item = new vscode.TreeItem(receipt, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.description = `${j.platformId} · ${j.requestedAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}`;
    item.tooltip = [
      vscode.l10n.t('JobReceiptId: {0}', receipt),
      vscode.l10n.t('PlatformId: {0}', j.platformId),
      vscode.l10n.t('Requested: {0}', j.requestedAt),
      vscode.l10n.t('Titles: {0}', j.titleIds.join(', ') || vscode.l10n.t('(none reported)')),
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon('trash');
    item.contextValue = flags('deletionJob', j.jobReceiptId !== undefined && 'hasReceipt');
    return item;
  }
}

export class ErrorNode implements TreeNode {
  readonly id: string;

  constructor(readonly parent: TreeNode | undefined, readonly message: string) {
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
