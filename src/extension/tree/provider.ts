// The Titles view's data provider: it only delegates to the nodes, turns a failed load into an
// error node (with "Show Log") instead of a notification, and redraws the root when titles come
// or go. Every other change goes to the title it concerns, whose node refreshes itself or just
// the child that changed (tree/titleNodes). A text filter keeps the titles, and the deletion
// jobs, that match (tree/titleNodes, tree/jobNodes).
import * as vscode from 'vscode';
import { TextFilter } from '../../core/textFilter';
import { READABLE_ADDON } from '../addons';
import type { TitleRecord } from '../titles';
import { ContextKeys, setContext } from '../contextKeys';
import { describeFailure } from '../errors';
import { Disposable } from '../lifecycle';
import { DeletionBatchNode, DeletionJobNode, jobMatches } from './jobNodes';
import { ErrorNode, type TreeContext, type TreeNode } from './nodes';
import { TitleNode, titleMatches } from './titleNodes';

export class TitlesTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = this._register(new vscode.EventEmitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  /** The view showing this provider (tests reveal and expand nodes through it). */
  view: vscode.TreeView<TreeNode> | undefined;
  /** The shown title nodes by title ID: a change goes to the title it concerns. */
  private readonly titleNodes = new Map<string, TitleNode>();
  private textFilter = new TextFilter();
  private readonly d: TreeContext;

  constructor(stores: Omit<TreeContext, 'filter' | 'changed'>) {
    super();
    const d = (this.d = { ...stores, filter: () => this.textFilter, changed: (node: TreeNode) => this.changed.fire(node) });
    this._register(d.titles.onDidChange(() => this.titlesChanged()));
    this._register(d.secrets.onDidChange((titleId) => void this.keyChanged(titleId)));
    this._register(d.jobs.onDidChange(() => this.jobsChanged()));
    this._register(d.addonStates.onDidChange((titleId) => this.titleNodes.get(titleId)?.addonsChanged()));
  }

  /** An explicit refresh: every title re-reads HandheldStore when shown expanded. */
  refresh(): void {
    for (const node of this.titleNodes.values()) node.forgetError();
    // Titles the filter hides too: they read it again once shown.
    for (const t of this.d.titles.all()) this.d.addonStates.forget(t.titleId, READABLE_ADDON);
    this.changed.fire(undefined);
  }

  get filter(): string {
    return this.textFilter.text;
  }

  /** Shows only the titles and deletion jobs that match `text` (every word, any field); empty shows all. */
  async setFilter(text: string): Promise<void> {
    this.textFilter = new TextFilter(text);
    const f = this.textFilter;
    await setContext(ContextKeys.titlesFiltered, f.active);
    if (this.view) this.view.description = f.active ? vscode.l10n.t('filter: {0}', f.text) : undefined;
    this.rootsChanged();
    if (f.active) await this.revealMatchingJobs();
  }

  /** How many titles the filter lets through, of how many configured. */
  shownCount(): { shown: number; total: number } {
    return { shown: this.visibleTitles().length, total: this.d.titles.all().length };
  }

  /** The whole tree redraws; under a filter the view says when nothing matches. */
  private rootsChanged(): void {
    const f = this.textFilter;
    if (this.view) {
      this.view.message = f.active && this.visibleTitles().length === 0 && this.d.titles.all().length > 0
        ? vscode.l10n.t('No title or deletion job matches "{0}". Clear the filter from the view\'s title bar.', f.text)
        : undefined;
    }
    this.changed.fire(undefined);
  }

  /** Opens the way to the first matching deletion jobs of titles shown only for them (a few; the rest are a click away). */
  private async revealMatchingJobs(): Promise<void> {
    const roots = await this.roots();
    let revealed = 0;
    for (const node of roots) {
      if (node.matchesFilter()) continue;
      for (const child of node.jobsNode.getChildren()) {
        if (revealed >= 10 || !this.view?.visible) return;
        const target = child instanceof DeletionBatchNode ? child.getChildren()[0] : child;
        if (target instanceof DeletionJobNode) {
          revealed++;
          await Promise.resolve(this.view.reveal(target, { select: false, focus: false })).catch(() => undefined);
        }
      }
    }
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const item = node.getTreeItem();
    // Without this, screen readers get the tooltip, whose last full stop runs into ", has actions".
    const label = typeof item.label === 'string' ? item.label : item.label?.label ?? '';
    item.accessibilityInformation ??= { label: [label, item.description].filter(Boolean).join(', ').replace(/[.…\s]+$/, '') };
    return item;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.getParent();
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    try {
      return await (node ? node.getChildren() : this.roots());
    } catch (e) {
      const { message } = describeFailure(e, this.d.secrets.known());
      this.d.log.error(`Titles view: ${message}`);
      return [new ErrorNode(node, vscode.l10n.t('Could not load: {0}', message))];
    }
  }

  /** The titles the filter lets through: by themselves or by some of their deletion jobs. */
  private visibleTitles(): TitleRecord[] {
    const f = this.textFilter;
    if (!f.active) return this.d.titles.all();
    return this.d.titles.all().filter((t) => titleMatches(f, t) || this.d.jobs.forTitle(t.titleId).some((j) => jobMatches(f, j)));
  }

  private async roots(): Promise<TitleNode[]> {
    const titles = this.visibleTitles();
    const keys = await Promise.all(titles.map((t) => this.d.secrets.has(t.titleId)));
    const nodes = titles.map((t, i) => {
      const endpoint = this.d.clients.endpointFor(t);
      const node = this.titleNodes.get(t.titleId);
      if (!node) return new TitleNode(t, keys[i], endpoint, this.d);
      node.update(t, keys[i], endpoint);
      return node;
    });
    this.titleNodes.clear();
    for (const n of nodes) this.titleNodes.set(n.titleId, n);
    return nodes;
  }

  private titlesChanged(): void {
    const titles = this.visibleTitles();
    if (titles.map((t) => t.titleId).join() !== [...this.titleNodes.keys()].join()) {
      this.rootsChanged();
      return;
    }
    for (const t of titles) this.titleNodes.get(t.titleId)?.titleChanged(t, this.d.clients.endpointFor(t));
  }

  /** A new or cleared key may change what HandheldStore reads: that title reads it again. */
  private async keyChanged(titleId: string): Promise<void> {
    // Also for a title the filter hides: it reads HandheldStore again once shown.
    this.d.addonStates.forget(titleId, READABLE_ADDON);
    const node = this.titleNodes.get(titleId);
    if (node) node.keyChanged(await this.d.secrets.has(titleId));
  }

  private jobsChanged(): void {
    // Under a filter a ledger change can show or hide a title.
    if (this.textFilter.active && this.visibleTitles().map((t) => t.titleId).join() !== [...this.titleNodes.keys()].join()) {
      this.rootsChanged();
      return;
    }
    for (const node of this.titleNodes.values()) node.jobsChanged();
  }
}
