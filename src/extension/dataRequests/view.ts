// The Data Requests view: each request with its state and due date (overdue ones in the warning
// colour: a coloured icon, and a file decoration that colours the label and counts in the view's
// badge), its accounts and their actions as children. The view's description says how many are
// due this week. The requests are read from their folder (the CLI writes the same folders): on a
// change made here, a change of their files, and once an hour (a request turns overdue at midnight).
import * as vscode from 'vscode';
// The model only (not the ../../core/requests barrel): the workflow loads with the commands (../lazy).
import { daysLeft, isDueThisWeek, isOverdue, nextStep, requestState } from '../../core/requests/model';
import type { Action, Account, DataRequest, Identifier, RequestState } from '../../core/requests/types';
import { KIND_LABELS } from '../../core/requests/ticketContext';
import { dueSummary } from '../../core/requests/words';
import { shownReceiptId } from '../../core/serviceText';
import { describeFailure } from '../errors';
import { Disposable } from '../lifecycle';
import { flags } from '../contextValue';
import { clip } from '../labelText';
import { showLog } from '../tree/nodes';
import type { DataRequests } from './service';
import { readableLocal } from '../../core/time';

const DECORATION_SCHEME = 'platform-data-request';
const HOUR_MS = 3_600_000;

/** The commands of this view clip their texts with the views' one clip. */
export { clip };

export function stateWord(state: RequestState): string {
  const words: Record<RequestState, () => string> = {
    received: () => vscode.l10n.t('received'),
    resolved: () => vscode.l10n.t('resolved'),
    'actions-queued': () => vscode.l10n.t('actions queued'),
    completed: () => vscode.l10n.t('completed'),
    withdrawn: () => vscode.l10n.t('withdrawn'),
    closed: () => vscode.l10n.t('closed'),
  };
  return words[state]();
}

const STATE_ICONS: Record<RequestState, string> = {
  received: 'inbox', resolved: 'search', 'actions-queued': 'watch', completed: 'pass', withdrawn: 'circle-slash', closed: 'archive',
};

function actionWord(a: Action): string {
  const kinds = { export: vscode.l10n.t('Export'), erasure: vscode.l10n.t('Erasure'), events: vscode.l10n.t('Events-only erasure') };
  return kinds[a.kind];
}

function statusWord(a: Action): string {
  const words: Record<Action['status'], () => string> = {
    planned: () => vscode.l10n.t('not sent'),
    waiting: () => vscode.l10n.t('waits for the export'),
    queued: () => (a.kind === 'export' ? vscode.l10n.t('queued, awaiting its download link') : vscode.l10n.t('queued')),
    unknown: () => vscode.l10n.t('outcome unknown'),
    failed: () => vscode.l10n.t('failed'),
    completed: () => vscode.l10n.t('completed'),
    accepted: () => vscode.l10n.t('accepted (no completion signal)'),
  };
  return words[a.status]();
}

/** What the request's menus offer now (its contextValue flags). */
export function requestFlags(r: DataRequest): { runnable: boolean; verifiable: boolean; closable: boolean; awaitingLink: boolean; closed: boolean; withdrawable: boolean; shreddable: boolean } {
  const state = requestState(r);
  const exportDone = (pid: string): boolean => r.actions.every((x) => x.kind !== 'export' || x.platformId !== pid || x.status === 'completed');
  const open = state !== 'closed' && state !== 'withdrawn';
  const inFlight = r.actions.some((a) => a.status === 'queued' || a.status === 'unknown');
  return {
    runnable: open && (state === 'received' || r.actions.some((a) => a.status === 'planned' || a.status === 'failed' || (a.status === 'waiting' && exportDone(a.platformId)))),
    verifiable: (state === 'actions-queued' || state === 'withdrawn') && inFlight,
    closable: state === 'completed' || (state === 'withdrawn' && !inFlight),
    withdrawable: open,
    awaitingLink: open && r.actions.some(awaitsLink),
    closed: state === 'closed',
    // Closed with its pseudonymisation key still held: Shred Data Request Key.
    shreddable: state === 'closed' && r.shreddedAt === undefined,
  };
}

/** "Erasures held until …" while the hold lasts, "Erasure hold ended …" after. */
export function heldText(r: DataRequest, now = new Date()): string {
  if (r.holdUntil === undefined) return '';
  return now.toISOString() < r.holdUntil
    ? vscode.l10n.t('Erasures held until {0} (a hold of {1} days): they stay planned until then.', readableLocal(r.holdUntil), r.holdDays ?? 0)
    : vscode.l10n.t('Erasure hold ended {0}.', readableLocal(r.holdUntil));
}

export const awaitsLink = (a: Action): boolean => a.kind === 'export' && a.status === 'queued' && a.jobReceiptId !== undefined;

/** "overdue by 3 days" / "due today" / "12 days left". */
export function dueText(r: DataRequest, now = new Date()): string {
  if (r.closedAt !== undefined) return vscode.l10n.t('due {0}', r.due);
  const left = daysLeft(r, now);
  if (isOverdue(r, now)) return vscode.l10n.t('due {0}, overdue by {1} days', r.due, -left);
  if (left === 0) return vscode.l10n.t('due today ({0})', r.due);
  return vscode.l10n.t('due {0}, {1} days left', r.due, left);
}

export abstract class RequestTreeNode {
  abstract readonly id: string;
  abstract readonly parent: RequestTreeNode | undefined;
  abstract getTreeItem(): vscode.TreeItem;
  getChildren(): RequestTreeNode[] {
    return [];
  }
}

class RequestNode extends RequestTreeNode {
  readonly parent = undefined;
  readonly id: string;

  constructor(readonly request: DataRequest, private readonly now: Date) {
    super();
    this.id = `request/${request.id}`;
  }

  get requestId(): string {
    return this.request.id;
  }

  getTreeItem(): vscode.TreeItem {
    const r = this.request;
    const state = requestState(r);
    const overdue = isOverdue(r, this.now);
    const item = new vscode.TreeItem(clip(r.reference), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.description = `${stateWord(state)} · ${dueText(r, this.now)}`;
    item.iconPath = overdue ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')) : new vscode.ThemeIcon(STATE_ICONS[state]);
    // The decoration provider colours an overdue request's label and gives it a badge.
    item.resourceUri = vscode.Uri.from({ scheme: DECORATION_SCHEME, path: `/${r.id}` });
    const f = requestFlags(r);
    item.contextValue = flags('dataRequest', state, overdue && 'overdue', f.runnable && 'runnable', f.verifiable && 'verifiable', f.closable && 'closable', f.awaitingLink && 'awaitingLink', f.closed && 'hasEvidence', f.withdrawable && 'withdrawable', f.shreddable && 'shreddable');
    item.tooltip = requestTooltip(r, state, overdue, this.now);
    item.accessibilityInformation = { label: `${clip(r.reference)}, ${stateWord(state)}, ${dueText(r, this.now)}` };
    return item;
  }

  override getChildren(): RequestTreeNode[] {
    const r = this.request;
    if (r.resolution === undefined) return r.identifiers.map((x, i) => new IdentifierNode(this, x, i));
    const acted = r.resolution.accounts.filter((a) => r.actions.some((x) => x.platformId === a.platformId));
    const nodes: RequestTreeNode[] = acted.map((a) => new AccountNode(this, a));
    const found = new Set(r.resolution.findings.filter((f) => f.platformId !== null).map((f) => f.identifier));
    r.identifiers.forEach((x, i) => {
      if (!found.has(i)) nodes.push(new IdentifierNode(this, x, i, vscode.l10n.t('found in no title')));
    });
    return nodes;
  }
}

/** A request's tooltip: its reference and ID, state, dates, asks and titles, hold, withdrawal, retention, and what is next. */
function requestTooltip(r: DataRequest, state: ReturnType<typeof requestState>, overdue: boolean, now: Date): vscode.MarkdownString {
  const tip = new vscode.MarkdownString(undefined, false);
  tip.appendText(`${clip(r.reference, 200)} (${r.id})\n\n`);
  tip.appendText(`${vscode.l10n.t('State: {0}', stateWord(state))}${overdue ? ` · ${vscode.l10n.t('OVERDUE')}` : ''}\n\n`);
  tip.appendText(`${vscode.l10n.t('Received {0}; {1}', r.received, dueText(r, now))}\n\n`);
  tip.appendText(`${vscode.l10n.t('Asks: {0}', r.asks.join(', '))} · ${vscode.l10n.t('Titles: {0}', r.titles.join(', '))}\n\n`);
  if (r.holdUntil !== undefined && state !== 'closed' && state !== 'withdrawn') tip.appendText(`${heldText(r, now)}\n\n`);
  if (r.withdrawn !== undefined) tip.appendText(`${vscode.l10n.t('Withdrawn {0}: {1}', readableLocal(r.withdrawn.at), clip(r.withdrawn.reason, 200))}\n\n`);
  if (r.shreddedAt !== undefined) tip.appendText(`${vscode.l10n.t('Key shredded {0}: the identifiers are anonymised (their hashes can no longer be linked to the person).', readableLocal(r.shreddedAt))}\n\n`);
  else if (r.identifiersHashedAt !== undefined) tip.appendText(`${vscode.l10n.t('Identifiers pseudonymised {0}: replaced by their hashes under the request\'s key (Shred Data Request Key makes them anonymous).', readableLocal(r.identifiersHashedAt))}\n\n`);
  tip.appendText(r.closedAt !== undefined ? vscode.l10n.t('Closed {0}; its evidence opens with Open Data Request Evidence.', readableLocal(r.closedAt)) : vscode.l10n.t('Next: {0}', nextStep(r)));
  return tip;
}

function identifierText(x: Identifier): string {
  return `${KIND_LABELS[x.kind]}: ${clip(x.value, 60)}${x.sandbox ? ` (${clip(x.sandbox, 20)})` : ''}`;
}

class IdentifierNode extends RequestTreeNode {
  readonly id: string;

  constructor(readonly parent: RequestNode, private readonly identifier: Identifier, index: number, private readonly note?: string) {
    super();
    this.id = `${parent.id}/identifier/${index}`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(identifierText(this.identifier));
    item.id = this.id;
    item.description = this.note ?? vscode.l10n.t('not resolved yet');
    item.iconPath = new vscode.ThemeIcon(this.note ? 'circle-slash' : 'person');
    item.contextValue = flags('dataRequestIdentifier');
    return item;
  }
}

class AccountNode extends RequestTreeNode {
  readonly id: string;

  constructor(readonly parent: RequestNode, readonly account: Account) {
    super();
    this.id = `${parent.id}/account/${account.platformId}`;
  }

  get requestId(): string {
    return this.parent.requestId;
  }

  getTreeItem(): vscode.TreeItem {
    const r = this.parent.request;
    const a = this.account;
    const item = new vscode.TreeItem(a.platformId, vscode.TreeItemCollapsibleState.Expanded);
    item.id = this.id;
    const by = a.identifiers.map((i) => r.identifiers[i]).filter((x): x is Identifier => x !== undefined).map((x) => x.kind);
    item.description = [
      vscode.l10n.t('found by {0}', [...new Set(by)].join(', ') || '—'),
      a.titleIds.length > 0 ? vscode.l10n.t('played {0}', a.titleIds.join(', ')) : a.error ? clip(a.error, 60) : vscode.l10n.t('no played titles'),
    ].join(' · ');
    item.tooltip = [
      vscode.l10n.t('Master account {0}', a.platformId),
      vscode.l10n.t('Found in: {0}', a.foundIn.join(', ')),
      vscode.l10n.t('Found by: {0}', a.identifiers.map((i) => r.identifiers[i]).filter((x): x is Identifier => x !== undefined).map(identifierText).join(', ')),
      vscode.l10n.t('Titles played: {0}', a.titleIds.join(', ') || '—'),
      vscode.l10n.t('Actions sent with the key of {0}', a.senderTitleId),
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon('account');
    item.contextValue = flags('dataRequestAccount');
    return item;
  }

  override getChildren(): RequestTreeNode[] {
    return this.parent.request.actions.filter((x) => x.platformId === this.account.platformId).map((x) => new ActionNode(this, x));
  }
}

const ACTION_ICONS: Record<Action['status'], string> = {
  planned: 'circle-outline', waiting: 'clock', queued: 'watch', unknown: 'question', failed: 'error', completed: 'pass', accepted: 'check',
};

export class ActionNode extends RequestTreeNode {
  readonly id: string;

  constructor(readonly parent: AccountNode, readonly action: Action) {
    super();
    this.id = `${parent.id}/${action.kind}`;
  }

  get requestId(): string {
    return this.parent.requestId;
  }

  getTreeItem(): vscode.TreeItem {
    const a = this.action;
    const item = new vscode.TreeItem(actionWord(a));
    item.id = this.id;
    const receipt = a.jobReceiptId ? shownReceiptId(a.jobReceiptId) : undefined;
    item.description = [statusWord(a), receipt && vscode.l10n.t('JobReceiptId {0}', clip(receipt, 40)), a.completedAt && a.completedAt.slice(0, 10), a.error && clip(a.error, 60)].filter(Boolean).join(' · ');
    item.tooltip = [
      `${actionWord(a)}: ${statusWord(a)}`,
      vscode.l10n.t('Sent with the key of {0}', a.titleId),
      ...(a.requestedAt ? [vscode.l10n.t('Requested {0}', readableLocal(a.requestedAt))] : []),
      ...(receipt ? [vscode.l10n.t('JobReceiptId {0}', receipt)] : []),
      ...(a.completedAt ? [vscode.l10n.t('Completed {0} ({1})', readableLocal(a.completedAt), a.completedBy ?? '')] : []),
      ...(a.error ? [clip(a.error, 300)] : []),
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon(ACTION_ICONS[a.status]);
    item.contextValue = flags('dataRequestAction', a.kind, a.status, awaitsLink(a) && 'awaitingLink');
    return item;
  }
}

class ProblemNode extends RequestTreeNode {
  readonly parent = undefined;

  constructor(readonly id: string, private readonly message: string) {
    super();
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(clip(this.message, 200));
    item.id = this.id;
    item.tooltip = this.message;
    item.iconPath = new vscode.ThemeIcon('error');
    item.contextValue = flags('error');
    item.command = showLog();
    return item;
  }
}

export class DataRequestsView extends Disposable implements vscode.TreeDataProvider<RequestTreeNode>, vscode.FileDecorationProvider {
  private readonly changed = this._register(new vscode.EventEmitter<RequestTreeNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly decorationsChanged = this._register(new vscode.EventEmitter<vscode.Uri[] | undefined>());
  readonly onDidChangeFileDecorations = this.decorationsChanged.event;
  view: vscode.TreeView<RequestTreeNode> | undefined;
  private roots: RequestTreeNode[] = [];
  private overdue = new Set<string>();
  private watcher: vscode.Disposable | undefined;
  private watched: string | undefined;
  private pending: NodeJS.Timeout | undefined;

  constructor(private readonly requests: DataRequests, private readonly onError: (message: string) => void) {
    super();
    this._register(requests.onDidChange(() => this.schedule(0)));
    const hourly = setInterval(() => this.schedule(0), HOUR_MS);
    this._register({ dispose: () => clearInterval(hourly) });
    this._register({ dispose: () => { this.watcher?.dispose(); clearTimeout(this.pending); } });
  }

  /** Re-reads the folder after `ms` (a burst of file changes reads it once). */
  private schedule(ms: number): void {
    clearTimeout(this.pending);
    this.pending = setTimeout(() => void this.reload(), ms);
  }

  /** Reads the requests again and redraws the view, its badge and description; returns the requests read. */
  async reload(): Promise<DataRequest[]> {
    const now = new Date();
    let requests: DataRequest[] = [];
    const problems: RequestTreeNode[] = [];
    try {
      const list = await this.requests.list();
      requests = list.requests;
      list.problems.forEach((p, i) => problems.push(new ProblemNode(`problem/${i}`, p)));
      list.problems.forEach((p) => this.onError(p));
      this.watch(list.folder);
    } catch (e) {
      const { message, hint } = describeFailure(e, []);
      problems.push(new ProblemNode('problem/folder', `${message}${hint ? ` ${hint}` : ''}`));
      this.onError(message);
    }
    // Open requests first, by due date; closed ones after, newest first.
    const open = requests.filter((r) => r.closedAt === undefined).sort((a, b) => a.due.localeCompare(b.due) || a.createdAt.localeCompare(b.createdAt));
    const closed = requests.filter((r) => r.closedAt !== undefined).sort((a, b) => (b.closedAt ?? '').localeCompare(a.closedAt ?? ''));
    this.roots = [...[...open, ...closed].map((r) => new RequestNode(r, now)), ...problems];
    this.overdue = new Set(requests.filter((r) => isOverdue(r, now)).map((r) => r.id));
    // Overdue ones are counted apart: a request 8 days late is "1 overdue", not "due this week".
    const dueThisWeek = requests.filter((r) => isDueThisWeek(r, now) && !isOverdue(r, now)).length;
    if (this.view) {
      this.view.badge = this.overdue.size > 0
        ? { value: this.overdue.size, tooltip: vscode.l10n.t('{0} overdue data requests', this.overdue.size) }
        : undefined;
      this.view.description = dueSummary(this.overdue.size, dueThisWeek);
    }
    this.changed.fire(undefined);
    this.decorationsChanged.fire(undefined);
    return requests;
  }

  /** Follows the folder's request files, so a request the command line changed shows at once. */
  private watch(folder: string): void {
    if (folder === this.watched) return;
    this.watcher?.dispose();
    this.watched = folder;
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder), '*/request.json'));
    const again = (): void => this.schedule(300);
    this.watcher = vscode.Disposable.from(w, w.onDidChange(again), w.onDidCreate(again), w.onDidDelete(again));
  }

  /** The request nodes shown now. */
  requestNodes(): RequestNode[] {
    return this.roots.filter((n): n is RequestNode => n instanceof RequestNode);
  }

  getChildren(node?: RequestTreeNode): RequestTreeNode[] {
    return node ? node.getChildren() : this.roots;
  }

  getTreeItem(node: RequestTreeNode): vscode.TreeItem {
    return node.getTreeItem();
  }

  getParent(node: RequestTreeNode): RequestTreeNode | undefined {
    return node.parent;
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if (uri.scheme !== DECORATION_SCHEME || !this.overdue.has(uri.path.slice(1))) return undefined;
    return { badge: '!', tooltip: vscode.l10n.t('Overdue'), color: new vscode.ThemeColor('list.warningForeground') };
  }
}
