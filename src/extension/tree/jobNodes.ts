// The Deletion Jobs node of a title and what is under it: batches and single deletions,
// each job with its state. The ledger is read on use, so refreshing the node shows it as it is.
import * as vscode from 'vscode';
import type { TextFilter } from '../../core/textFilter';
import type { DeletionJob } from '../jobs';
import { named } from '../titles';
import { flags } from '../contextValue';
import { TreeNode, type TreeContext } from './nodes';
import { readableLocal } from '../../core/time';

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

/** A job the view's filter lets through: by PlatformId, input, JobReceiptId, ticket, state or the titles it wipes. */
export function jobMatches(f: TextFilter, j: DeletionJob): boolean {
  return f.matches([j.platformId, j.input, j.jobReceiptId, j.metaData, j.state, stateWord(j.state), j.batchId, j.requestedAt, ...j.titleIds]);
}

/** The jobs the given nodes stand for (a job, a batch's, a title's shown), each once, in order. */
export function jobsOfNodes(nodes: readonly unknown[]): DeletionJob[] {
  const out = new Map<string, DeletionJob>();
  for (const n of nodes) {
    const jobs = n instanceof DeletionJobNode ? [n.job] : n instanceof DeletionBatchNode || n instanceof DeletionJobsNode ? n.jobs : [];
    for (const j of jobs) out.set(`${j.titleId}/${j.platformId}/${j.requestedAt}`, j);
  }
  return [...out.values()];
}


/** "3 verified deleted · 27 queued": the states of a set of jobs, most advanced first. */
function stateSummary(jobs: readonly DeletionJob[]): string {
  const order: DeletionJob['state'][] = ['verified-deleted', 'queued', 'unknown', 'failed', 'pending'];
  return order.map((st) => [st, jobs.filter((j) => j.state === st).length] as const).filter(([, n]) => n > 0)
    .map(([st, n]) => `${n} ${stateWord(st)}`).join(' · ');
}

export class DeletionJobsNode extends TreeNode {
  readonly id: string;

  constructor(readonly parent: TreeNode & { readonly titleId: string; matchesFilter(): boolean }, private readonly ctx: TreeContext) {
    super();
    this.id = `${parent.id}/jobs`;
  }

  get titleId(): string {
    return this.parent.titleId;
  }

  refresh(): void {
    this.ctx.changed(this);
  }

  /** This title's ledger entries as stored now, those the view's filter lets through. */
  get jobs(): readonly DeletionJob[] {
    const all = this.ctx.jobs.forTitle(this.titleId);
    return this.parent.matchesFilter() ? all : all.filter((j) => jobMatches(this.ctx.filter(), j));
  }

  /** Batches (one node each) and single deletions, newest first. */
  override getChildren(): TreeNode[] {
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
    const stored = this.parent.matchesFilter() ? undefined : this.ctx.jobs.forTitle(this.titleId);
    for (const [batchId, list] of batches) {
      const at = list.map((j) => j.requestedAt).sort()[0] ?? '';
      const total = stored ? stored.filter((j) => j.batchId === batchId).length : list.length;
      out.push({ at, node: new DeletionBatchNode(this, batchId, list, total) });
    }
    return out.sort((a, b) => b.at.localeCompare(a.at)).map((x) => x.node);
  }

  getTreeItem(): vscode.TreeItem {
    const jobs = this.jobs;
    const item = new vscode.TreeItem(
      vscode.l10n.t('Deletion Jobs'),
      jobs.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = this.id;
    const stored = this.ctx.jobs.forTitle(this.titleId).length;
    item.description = jobs.length === 0 ? vscode.l10n.t('none') : jobs.length === stored ? String(jobs.length) : vscode.l10n.t('{0} of {1}', jobs.length, stored);
    item.tooltip = jobs.length === 0
      ? vscode.l10n.t('Master player account deletions requested from this machine, with their JobReceiptIds.')
      : `${vscode.l10n.t('Master player account deletions requested from this machine, with their JobReceiptIds.')}\n${stateSummary(jobs)}`;
    // "Deletion Jobs, 1" does not say whose, or 1 of what: the row's name says both (2.4.6).
    const t = this.ctx.titles.get(this.titleId);
    const whose = vscode.l10n.t('Deletion Jobs of {0}', t ? named(t) : this.titleId);
    const count = jobs.length === 0 ? vscode.l10n.t('none')
      : jobs.length === stored ? (stored === 1 ? vscode.l10n.t('1 deletion') : vscode.l10n.t('{0} deletions', stored))
      : vscode.l10n.t('{0} of {1} deletions shown', jobs.length, stored);
    item.accessibilityInformation = { label: [whose, count, ...(jobs.length > 0 ? [stateSummary(jobs).replace(/ · /g, ', ')] : [])].join(', ') };
    item.iconPath = new vscode.ThemeIcon('history');
    item.contextValue = flags('deletionJobs', jobs.length > 0 && 'hasJobs', jobs.some((j) => j.state === 'queued') && 'hasQueued');
    return item;
  }
}

export class DeletionBatchNode extends TreeNode {
  readonly id: string;
  readonly titleId: string;

  /** `jobs`: those the view's filter lets through, of `total` in the batch. */
  constructor(readonly parent: DeletionJobsNode, readonly batchId: string, readonly jobs: readonly DeletionJob[], private readonly total = jobs.length) {
    super();
    this.titleId = parent.titleId;
    this.id = `${parent.id}/batch/${batchId}`;
  }

  override getChildren(): TreeNode[] {
    return this.jobs.map((j) => new DeletionJobNode(this, j));
  }

  getTreeItem(): vscode.TreeItem {
    const first = this.jobs[0];
    const item = new vscode.TreeItem(vscode.l10n.t('Batch of {0}', this.total), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    const shown = this.jobs.length < this.total ? `${vscode.l10n.t('{0} shown', this.jobs.length)} · ` : '';
    item.description = `${shown}${stateSummary(this.jobs)} · ${readableLocal(first?.requestedAt ?? '')}`;
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

export class DeletionJobNode extends TreeNode {
  readonly id: string;
  readonly titleId: string;
  readonly jobReceiptId: string | undefined;

  constructor(readonly parent: DeletionJobsNode | DeletionBatchNode, readonly job: DeletionJob) {
    super();
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
      vscode.l10n.t('State: {0}', stateWord(j.state)) + (j.verifiedAt ? ` (${readableLocal(j.verifiedAt)})` : ''),
      vscode.l10n.t('Titles wiped: {0}', wiped),
      vscode.l10n.t('Sent through title: {0}', j.titleId),
      j.state === 'pending' ? vscode.l10n.t('Not sent: Resume Interrupted Deletion Batches sends it') : vscode.l10n.t('JobReceiptId: {0}', j.jobReceiptId ?? vscode.l10n.t('none returned')),
      ...(j.metaData ? [vscode.l10n.t('Ticket (MetaData): {0}', j.metaData)] : []),
      ...(j.state === 'pending' ? [] : [vscode.l10n.t('Requested: {0}', readableLocal(j.requestedAt))]),
      ...(j.error ? [j.error] : []),
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon(STATE_ICONS[j.state]);
    item.contextValue = flags('deletionJob', j.state, j.jobReceiptId !== undefined && 'hasReceipt');
    return item;
  }
}

