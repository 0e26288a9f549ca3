// A title's node and its add-on nodes. A title node lives as long as the title is shown, so
// it refreshes itself (or just its add-on or Deletion Jobs node) when what it shows changes; it
// reads the readable add-on (HandheldStore) only while that state is unknown.
import * as vscode from 'vscode';
import type { TextFilter } from '../../core/textFilter';
import { ADDONS, READABLE_ADDON, type AddonKind } from '../addons';
import type { AddonState } from '../addonStates';
import { describeFailure } from '../errors';
import { agentTitleIds } from '../settings';
import type { TitleRecord } from '../titles';
import { DeletionJobsNode } from './jobNodes';
import { flags } from '../contextValue';
import { showLog, TreeNode, type TreeContext } from './nodes';

export type AddonNodeState = AddonState | 'error';

/** A title the view's filter lets through by itself: by name, title ID, or its marks (emulator, production). */
export function titleMatches(f: TextFilter, t: TitleRecord): boolean {
  return f.matches([t.name, t.titleId, t.endpointProfile === 'emulator' && vscode.l10n.t('emulator'), t.production && vscode.l10n.t('production')]);
}

export class TitleNode extends TreeNode {
  readonly id: string;
  readonly parent = undefined;
  readonly titleId: string;
  readonly addons: readonly AddonNode[];
  readonly jobsNode: DeletionJobsNode;
  /** Why HandheldStore could not be read; kept until this title or its key changes, or Refresh. */
  private handheldError: string | undefined;
  private loading: Promise<void> | undefined;
  /** The ledger entries its Deletion Jobs node last showed (undefined: its children were never read). */
  private shownJobs: string | undefined;

  constructor(public title: TitleRecord, public hasKey: boolean, public endpoint: string, private readonly ctx: TreeContext) {
    super();
    this.titleId = title.titleId;
    this.id = `title/${title.titleId}`;
    this.addons = ADDONS.map((a) => new AddonNode(this, a, ctx));
    this.jobsNode = new DeletionJobsNode(this, ctx);
  }

  /** Takes what is now stored for this title; the next read of its children may go to the service. */
  update(title: TitleRecord, hasKey: boolean, endpoint: string): void {
    this.title = title;
    this.hasKey = hasKey;
    this.endpoint = endpoint;
  }

  /** Forgets a failed HandheldStore read, so the next expansion tries again. */
  forgetError(): void {
    this.handheldError = undefined;
  }

  refresh(): void {
    this.ctx.changed(this);
  }

  /** The stored record or its endpoint changed: redrawn (and read again) if that is not what it shows. */
  titleChanged(title: TitleRecord, endpoint: string): void {
    if (JSON.stringify(this.title) === JSON.stringify(title) && this.endpoint === endpoint) return;
    this.update(title, this.hasKey, endpoint);
    this.forgetError();
    this.refresh();
  }

  /** Its key was set, replaced or cleared: redrawn, and HandheldStore read again when expanded. */
  keyChanged(hasKey: boolean): void {
    this.update(this.title, hasKey, this.endpoint);
    this.forgetError();
    this.refresh();
  }

  /** An add-on state changed: unknown again, the title (if expanded) reads it; else its add-on nodes redraw from the cache. */
  addonsChanged(): void {
    if (this.ctx.addonStates.get(this.titleId, READABLE_ADDON) === 'unknown') this.refresh();
    else for (const a of this.addons) a.refresh();
  }

  /** The ledger changed: its Deletion Jobs node redraws if its entries did; from none to some, the title does (it becomes expandable). */
  jobsChanged(): void {
    const now = this.jobsSignature();
    const before = this.shownJobs;
    if (before === now) return;
    this.shownJobs = now;
    if (before === undefined || before === '[]' || now === '[]') this.refresh();
    else this.jobsNode.refresh();
  }

  private jobsSignature(): string {
    return JSON.stringify(this.ctx.jobs.forTitle(this.titleId));
  }

  /** Whether the view's filter lets this title through by itself (else only its matching deletion jobs show). */
  matchesFilter(): boolean {
    return titleMatches(this.ctx.filter(), this.title);
  }

  override async getChildren(): Promise<TreeNode[]> {
    this.shownJobs = this.jobsSignature();
    if (!this.matchesFilter()) return [this.jobsNode];
    await this.loadHandheldStore();
    return [...this.addons, this.jobsNode];
  }

  /** The state an add-on node shows, and why when not obvious (no key, load failure). */
  addonView(addon: AddonKind): { state: AddonNodeState; detail?: string } {
    if (addon.name === READABLE_ADDON) {
      if (!this.hasKey) return { state: 'unknown', detail: vscode.l10n.t('no secret key') };
      if (!this.ctx.clients.isTrusted()) return { state: 'unknown', detail: vscode.l10n.t('workspace not trusted') };
      if (this.handheldError !== undefined) return { state: 'error', detail: this.handheldError };
    }
    return { state: this.ctx.addonStates.get(this.titleId, addon.name) };
  }

  /** One GetHandheldStore when the state is unknown; concurrent expansions share it. */
  private loadHandheldStore(): Promise<void> {
    if (this.ctx.addonStates.get(this.titleId, READABLE_ADDON) !== 'unknown' || this.handheldError !== undefined || !this.hasKey || !this.ctx.clients.isTrusted()) {
      return Promise.resolve();
    }
    this.loading ??= this.readHandheldStore().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async readHandheldStore(): Promise<void> {
    const { clients, addonStates, secrets, log } = this.ctx;
    try {
      const config = await (await clients.get(this.titleId)).getHandheldStore();
      this.handheldError = undefined;
      addonStates.set(this.titleId, READABLE_ADDON, config.Created ? 'present' : 'absent');
    } catch (e) {
      const { message, hint } = describeFailure(e, secrets.known());
      log.warn(`HandheldStore of ${this.titleId} could not be loaded: ${message}`);
      this.handheldError = hint ? `${message} ${hint}` : message;
    }
  }

  getTreeItem(): vscode.TreeItem {
    const t = this.title;
    const item = new vscode.TreeItem(t.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    const agents = this.hasKey && agentTitleIds().has(t.titleId);
    // Production leads: a narrow view cuts the end of the description.
    item.description = [
      t.production && vscode.l10n.t('PRODUCTION'),
      t.titleId,
      this.hasKey ? vscode.l10n.t('key set') : vscode.l10n.t('no key'),
      t.endpointProfile === 'emulator' && vscode.l10n.t('emulator'),
      agents && vscode.l10n.t('agents can read'),
    ].filter(Boolean).join(' · ');
    item.tooltip = [
      vscode.l10n.t('{0} (title ID {1})', t.name, t.titleId),
      vscode.l10n.t('Endpoint: {0}', this.endpoint),
      this.hasKey ? vscode.l10n.t('Secret key: set (stored in SecretStorage)') : vscode.l10n.t('Secret key: not set'),
      ...(t.production ? [vscode.l10n.t('Marked production: deletions also need the title ID typed.')] : []),
      agents
        ? vscode.l10n.t('Agents can read this title through the Platform Explorer MCP server (read-only tools; setting platformExplorer.agentTitles).')
        : vscode.l10n.t('Agents cannot read this title (add it to the setting platformExplorer.agentTitles to allow read-only tools).'),
    ].join('\n');
    item.iconPath = t.production
      ? new vscode.ThemeIcon('shield', new vscode.ThemeColor('list.warningForeground'))
      : new vscode.ThemeIcon(t.endpointProfile === 'emulator' ? 'vm' : 'cloud');
    item.contextValue = flags('title', this.hasKey ? 'keySet' : 'noKey', t.endpointProfile, t.production ? 'production' : 'notProduction');
    return item;
  }
}

class AddonNode extends TreeNode {
  readonly id: string;
  readonly titleId: string;

  constructor(readonly parent: TitleNode, readonly kind: AddonKind, private readonly ctx: TreeContext) {
    super();
    this.titleId = parent.titleId;
    this.id = `${parent.id}/addon/${kind.name}`;
  }

  /** The add-on's name as the service spells it. */
  get addon(): AddonKind['name'] {
    return this.kind.name;
  }

  refresh(): void {
    this.ctx.changed(this);
  }

  /** What the node shows now (read from the shared add-on states on each call). */
  get state(): AddonNodeState {
    return this.parent.addonView(this.kind).state;
  }

  getTreeItem(): vscode.TreeItem {
    const { state, detail } = this.parent.addonView(this.kind);
    const item = new vscode.TreeItem(this.addon, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    const live = this.kind.show !== undefined;
    const words: Record<AddonNodeState, string> = {
      present: live ? vscode.l10n.t('created') : vscode.l10n.t('present'),
      absent: live ? vscode.l10n.t('not created') : vscode.l10n.t('absent'),
      unknown: live ? vscode.l10n.t('not loaded') : vscode.l10n.t('state unknown'),
      error: vscode.l10n.t('could not load'),
    };
    item.description = detail && state !== 'error' ? `${words[state]} (${detail})` : words[state];
    item.tooltip = [
      live
        ? vscode.l10n.t('HandheldStore add-on: {0}. Read live with GetHandheldStore.', words[state])
        : vscode.l10n.t('{0} add-on: {1}. Learned from this session\'s actions; there is no read operation.', this.addon, words[state]),
      ...(detail ? [detail] : []),
      ...(state === 'error' ? [vscode.l10n.t('Click to open the Platform Explorer log.')] : []),
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon(state === 'error' ? 'error' : state === 'absent' ? 'circle-slash' : 'extensions');
    item.contextValue = flags(
      'addon',
      this.kind.flag,
      state,
      !live && state !== 'absent' && 'deletable',
    );
    if (state === 'error') {
      item.command = showLog();
    } else if (this.kind.show !== undefined) {
      item.command = { command: this.kind.show, title: vscode.l10n.t('Show {0} Configuration', this.addon), arguments: [{ titleId: this.titleId }] };
    }
    return item;
  }
}

