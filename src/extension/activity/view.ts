// The Activity view: the history newest first, a text filter, Copy as JSON, and re-run for
// operations that change nothing (never for a delete).
import * as vscode from 'vscode';
import { TextFilter } from '../../core/textFilter';
import { ContextKeys, setContext } from '../contextKeys';
import { flags } from '../contextValue';
import type { TitleStore } from '../titles';
import { isRerunnable } from './recorder';
import type { ActivityEntry, ActivityStore } from './store';
import { readableDuration, readableLocal } from '../../core/time';

export class ActivityItem {
  constructor(readonly entry: ActivityEntry) {}
}

const ICONS: Record<ActivityEntry['outcome'], string> = {
  succeeded: 'pass',
  failed: 'error',
  cancelled: 'circle-slash',
  outcomeUnknown: 'question',
};

function outcomeText(e: ActivityEntry): string {
  const words: Record<ActivityEntry['outcome'], string> = {
    succeeded: vscode.l10n.t('succeeded'),
    failed: vscode.l10n.t('failed'),
    cancelled: vscode.l10n.t('cancelled'),
    outcomeUnknown: vscode.l10n.t('outcome unknown'),
  };
  if (e.note !== undefined) return e.note;
  return e.errorCode !== undefined ? `${words[e.outcome]} (${e.errorCode})` : words[e.outcome];
}

export class ActivityProvider implements vscode.TreeDataProvider<ActivityItem>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ActivityItem | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private textFilter = new TextFilter();
  private readonly subscription: vscode.Disposable;
  view: vscode.TreeView<ActivityItem> | undefined;

  constructor(private readonly store: ActivityStore, private readonly titles: TitleStore) {
    this.subscription = store.onDidChange(() => this.changed.fire(undefined));
  }

  get filter(): string {
    return this.textFilter.text;
  }

  setFilter(text: string): void {
    this.textFilter = new TextFilter(text);
    if (this.view) {
      this.view.description = this.textFilter.active ? vscode.l10n.t('filter: {0}', this.textFilter.text) : undefined;
    }
    void setContext(ContextKeys.activityFiltered, this.textFilter.active);
    this.changed.fire(undefined);
  }

  /** The entries shown, newest first: every word of the filter must match a field. */
  shown(): ActivityEntry[] {
    return this.store
      .all()
      .reverse()
      .filter((e) => this.textFilter.matches([e.summary, e.operation, ...(e.titles ?? []), e.titleId, e.titleId && this.titles.get(e.titleId)?.name, e.outcome, outcomeText(e), e.errorCode, e.jobReceiptId, e.time]));
  }

  getChildren(item?: ActivityItem): ActivityItem[] {
    return item ? [] : this.shown().map((e) => new ActivityItem(e));
  }

  getTreeItem({ entry: e }: ActivityItem): vscode.TreeItem {
    const name = e.titleId ? this.titles.get(e.titleId)?.name : undefined;
    const when = new Date(e.time);
    const label = e.summary ?? e.operation;
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    const where = e.titles && e.titles.length > 1 ? vscode.l10n.t('{0} titles', e.titles.length) : e.titleId;
    item.description = [where, outcomeText(e), readableDuration(e.durationMs), when.toLocaleTimeString()].filter(Boolean).join(' · ');
    const titleText = (id: string): string => {
      const n = this.titles.get(id)?.name;
      return n ? `${n} (${id})` : id;
    };
    item.tooltip = [
      label,
      ...(e.summary !== undefined ? [vscode.l10n.t('Operations sent: {0}', e.operation)] : []),
      e.titles && e.titles.length > 1
        ? vscode.l10n.t('Titles: {0}', e.titles.map(titleText).join(', '))
        : vscode.l10n.t('Title: {0}', e.titleId ? (name ? `${name} (${e.titleId})` : e.titleId) : '-'),
      vscode.l10n.t('Outcome: {0}', outcomeText(e)),
      vscode.l10n.t('Duration: {0}', readableDuration(e.durationMs)),
      vscode.l10n.t('Started: {0}', readableLocal(e.time)),
      ...(e.jobReceiptId ? [vscode.l10n.t('Receipt (JobReceiptId): {0}', e.jobReceiptId)] : []),
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon(ICONS[e.outcome]);
    item.contextValue = flags('activity', isRerunnable(e) && 'rerunnable', e.jobReceiptId !== undefined && 'hasReceipt');
    item.accessibilityInformation = { label: `${label}, ${item.description}` };
    return item;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
