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

const SHOW_LOG: vscode.Command = { command: 'platformExplorer.showLog', title: 'Show Log' };

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
    item.description = `${t.titleId} · ${this.hasKey ? 'key set' : 'no key'}${t.endpointProfile === 'emulator' ? ' · emulator' : ''}`;
    item.tooltip = [
      `${t.name} (title ID ${t.titleId})`,
      `Endpoint: ${this.endpoint}`,
      `Secret key: ${this.hasKey ? 'set (stored in SecretStorage)' : 'not set'}`,
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon(t.endpointProfile === 'emulator' ? 'vm' : 'cloud');
    item.contextValue = flags('title', this.hasKey ? 'keySet' : 'noKey', t.endpointProfile);
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
      present: live ? 'created' : 'present',
      absent: live ? 'not created' : 'absent',
      unknown: live ? 'not loaded' : 'state unknown',
      error: 'could not load',
    };
    item.description = this.detail && this.state !== 'error' ? `${words[this.state]} (${this.detail})` : words[this.state];
    item.tooltip = [
      live
        ? `HandheldStore add-on: ${words[this.state]}. Read live with GetHandheldStore.`
        : `${this.addon} add-on: ${words[this.state]}. Learned from this session's actions; there is no read operation.`,
      ...(this.detail ? [this.detail] : []),
      ...(this.state === 'error' ? ['Click to open the Platform Explorer log.'] : []),
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon(this.state === 'error' ? 'error' : this.state === 'absent' ? 'circle-slash' : 'extensions');
    item.contextValue = flags(
      'addon',
      ADDON_FLAG[this.addon],
      this.state,
      !live && this.state !== 'absent' && 'deletable',
    );
    if (this.state === 'error') {
      item.command = SHOW_LOG;
    } else if (live) {
      item.command = { command: 'platformExplorer.showHandheldStore', title: 'Show HandheldStore Configuration', arguments: [{ titleId: this.titleId }] };
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
      'Deletion Jobs',
      this.jobs.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = this.id;
    item.description = this.jobs.length === 0 ? 'none' : String(this.jobs.length);
    item.tooltip = 'Master player account deletions requested from this machine, with their JobReceiptIds.';
    item.iconPath = new vscode.ThemeIcon('history');
    item.contextValue = flags('deletionJobs', this.jobs.length > 0 && 'hasJobs');
    return item;
  }
}

export class DeletionJobNode implements TreeNode {
  readonly id: string;
  readonly titleId: string;
  readonly jobReceiptId: string;

  constructor(readonly parent: DeletionJobsNode, readonly job: DeletionJob) {
    this.titleId = job.titleId;
    this.jobReceiptId = job.jobReceiptId;
    this.id = `${parent.id}/${job.jobReceiptId}`;
  }

  getTreeItem(): vscode.TreeItem {
    const j = this.job;
    const item = new vscode.TreeItem(j.jobReceiptId, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.description = `${j.platformId} · ${j.requestedAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}`;
    item.tooltip = [
      `JobReceiptId: ${j.jobReceiptId}`,
      `PlatformId: ${j.platformId}`,
      `Requested: ${j.requestedAt}`,
      `Titles: ${j.titleIds.join(', ') || '(none reported)'}`,
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon('trash');
    item.contextValue = flags('deletionJob');
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
    item.tooltip = `${this.message}\nClick to open the Platform Explorer log.`;
    item.iconPath = new vscode.ThemeIcon('error');
    item.contextValue = flags('error');
    item.command = SHOW_LOG;
    return item;
  }
}
