// Nodes of the Titles view: models with a stable id, their parent, and their TreeItem.
// contextValue is a sorted `;`-joined set of flags, matched by regex in package.json menus.
import type { CommandId } from '../commandIds';
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
const showLog = (): vscode.Command => ({ command: 'platformExplorer.showLog' satisfies CommandId, title: vscode.l10n.t('Show Log') });

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
      item.command = { command: 'platformExplorer.showHandheldStore' satisfies CommandId, title: vscode.l10n.t('Show HandheldStore Configuration'), arguments: [{ titleId: this.titleId }] };
    }
    return item;
  }
}

const STATE_ICONS: Record<DeletionJob['state'], string> = {
  queued: 'watch', 'verified-deleted': 'pass', failed: 'error', unknown: 'question', pending: 'circle-outline',
};

function stateWord(state: DeletionJob['state']): string {
  const words: Record<DeletionJob['state'], () => string> = {
    queued: () => vscode.l10n.t('queued'),
    'verified-deleted': () => vscode.l10n.t('verified deleted'),
    failed: () => vscode.l10n.t('failed'),
    unknown: () => vscode.l10n.t('outcome unknown'),
    pending: () => vscode.l10n.t('not sent'),
  };
  return words[state]();
}

const shortTime = (iso: string): string => iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');

/** "3 verified deleted · 27 queued": the states of a set of jobs, most advanced first. */
function stateSummary(jobs: readonly DeletionJob[]): string {
  const order: DeletionJob['state'][] = ['verified-deleted', 'queued', 'unknown', 'failed', 'pending'];
  return order.map((st) => [st, jobs.filter((j) => j.state === st).length] as const).filter(([, n]) => n > 0)
    .map(([st, n]) => `${n} ${stateWord(st)}`).join(' · ');
}

export class DeletionJobsNode implements TreeNode {
  readonly id: string;
  readonly titleId: string;

  constructor(readonly parent: TitleNode, readonly jobs: readonly DeletionJob[]) {
    this.titleId = parent.titleId;
    this.id = `${parent.id}/jobs`;
  }

  /** Batches (one node each) and single deletions, newest first. */
  children(): TreeNode[] {
    const batches = new Map<string, DeletionJob[]>();
    const out: { at: string; node: TreeNode }[] = [];
    for (const j of this.jobs) {
      if (j.batchId === undefined) out.push({ at: j.requestedAt, node: new DeletionJobNode(this, j) });
      else {
        const list = batches.get(j.batchId) ?? [];
        list.push(j);
        batches.set(j.batchId, list);
      }
    }
    for (const [batchId, list] of batches) {
      const at = list.map((j) => j.requestedAt).sort()[0] ?? '';
      out.push({ at, node: new DeletionBatchNode(this, batchId, list) });
    }
    return out.sort((a, b) => b.at.localeCompare(a.at)).map((x) => x.node);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(
      vscode.l10n.t('Deletion Jobs'),
      this.jobs.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = this.id;
    item.description = this.jobs.length === 0 ? vscode.l10n.t('none') : String(this.jobs.length);
    item.tooltip = this.jobs.length === 0
      ? vscode.l10n.t('Master player account deletions requested from this machine, with their JobReceiptIds.')
      : `${vscode.l10n.t('Master player account deletions requested from this machine, with their JobReceiptIds.')}\n${stateSummary(this.jobs)}`;
    item.iconPath = new vscode.ThemeIcon('history');
    item.contextValue = flags('deletionJobs', this.jobs.length > 0 && 'hasJobs', this.jobs.some((j) => j.state === 'queued') && 'hasQueued');
    return item;
  }
}

export class DeletionBatchNode implements TreeNode {
  readonly id: string;
  readonly titleId: string;

  constructor(readonly parent: DeletionJobsNode, readonly batchId: string, readonly jobs: readonly DeletionJob[]) {
    this.titleId = parent.titleId;
    this.id = `${parent.id}/batch/${batchId}`;
  }

  children(): TreeNode[] {
    return this.jobs.map((j) => new DeletionJobNode(this, j));
  }

  getTreeItem(): vscode.TreeItem {
    const first = this.jobs[0];
    const item = new vscode.TreeItem(vscode.l10n.t('Batch of {0}', this.jobs.length), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.description = `${stateSummary(this.jobs)} · ${shortTime(first?.requestedAt ?? '')}`;
    item.tooltip = [
      vscode.l10n.t('Batch {0}', this.batchId),
      ...(first?.metaData ? [vscode.l10n.t('Ticket (MetaData): {0}', first.metaData)] : []),
      stateSummary(this.jobs),
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon('layers');
    item.contextValue = flags('deletionBatch', this.jobs.some((j) => j.state === 'queued') && 'hasQueued');
    return item;
  }
}

export class DeletionJobNode implements TreeNode {
  readonly id: string;
  readonly titleId: string;
  readonly jobReceiptId: string | undefined;

  constructor(readonly parent: DeletionJobsNode | DeletionBatchNode, readonly job: DeletionJob) {
    this.titleId = job.titleId;
    this.jobReceiptId = job.jobReceiptId;
    this.id = `${parent.id}/${job.batchId !== undefined ? job.platformId : `${job.platformId}@${job.requestedAt}`}`;
  }

  getTreeItem(): vscode.TreeItem {
    const j = this.job;
    const item = new vscode.TreeItem(j.platformId, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    const wiped = j.titleIds.join(', ') || vscode.l10n.t('(none reported)');
    item.description = `${stateWord(j.state)} · ${vscode.l10n.t('wipes {0}', wiped)}`;
    item.tooltip = [
      vscode.l10n.t('PlatformId: {0}', j.platformId),
      ...(j.input !== j.platformId ? [vscode.l10n.t('From: {0}', j.input)] : []),
      vscode.l10n.t('State: {0}', stateWord(j.state)) + (j.verifiedAt ? ` (${shortTime(j.verifiedAt)})` : ''),
      vscode.l10n.t('Titles wiped: {0}', wiped),
      vscode.l10n.t('Sent through title: {0}', j.titleId),
      vscode.l10n.t('JobReceiptId: {0}', j.jobReceiptId ?? vscode.l10n.t('none returned')),
      ...(j.metaData ? [vscode.l10n.t('Ticket (MetaData): {0}', j.metaData)] : []),
      vscode.l10n.t('Requested: {0}', j.requestedAt),
      ...(j.error ? [j.error] : []),
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon(STATE_ICONS[j.state]);
    item.contextValue = flags('deletionJob', j.state, j.jobReceiptId !== undefined && 'hasReceipt');
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

/** One of this view's own nodes (a task, link or keybinding can pass only plain JSON). */
export function isTreeNode(x: unknown): x is TreeNode {
  return x instanceof TitleNode || x instanceof AddonNode || x instanceof DeletionJobsNode || x instanceof DeletionJobNode || x instanceof ErrorNode;
}
