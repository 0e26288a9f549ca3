// A title's node and its add-on nodes. A title node lives as long as the title is shown, so
// it can be refreshed on its own; it reads HandheldStore only while that state is unknown.
import type { CommandId } from '../commandIds';
import * as vscode from 'vscode';
import type { TextFilter } from '../../core/textFilter';
import type { AddonName, AddonState } from '../addonStates';
import { describeFailure } from '../errors';
import { agentTitleIds } from '../mcp';
import type { TitleRecord } from '../titles';
import { DeletionJobsNode } from './jobNodes';
import { flags, showLog, TreeNode, type TreeContext } from './nodes';

export type AddonNodeState = AddonState | 'error';

const ADDONS: readonly AddonName[] = ['HandheldStore', 'MobileStore', 'ConsoleNetB'];

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

  constructor(public title: TitleRecord, public hasKey: boolean, public endpoint: string, private readonly ctx: TreeContext) {
    super();
    this.titleId = title.titleId;
    this.id = `title/${title.titleId}`;
    this.addons = ADDONS.map((a) => new AddonNode(this, a));
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

  /** Whether the view's filter lets this title through by itself (else only its matching deletion jobs show). */
  matchesFilter(): boolean {
    return titleMatches(this.ctx.filter(), this.title);
  }

  override async getChildren(): Promise<TreeNode[]> {
    if (!this.matchesFilter()) return [this.jobsNode];
    await this.loadHandheldStore();
    return [...this.addons, this.jobsNode];
  }

  /** The state an add-on node shows, and why when not obvious (no key, load failure). */
  addonView(addon: AddonName): { state: AddonNodeState; detail?: string } {
    if (addon === 'HandheldStore') {
      if (!this.hasKey) return { state: 'unknown', detail: vscode.l10n.t('no secret key') };
      if (!this.ctx.clients.isTrusted()) return { state: 'unknown', detail: vscode.l10n.t('workspace not trusted') };
      if (this.handheldError !== undefined) return { state: 'error', detail: this.handheldError };
    }
    return { state: this.ctx.addonStates.get(this.titleId, addon) };
  }

  /** One GetHandheldStore when the state is unknown; concurrent expansions share it. */
  private loadHandheldStore(): Promise<void> {
    if (this.addonView('HandheldStore').state !== 'unknown' || !this.hasKey || !this.ctx.clients.isTrusted()) {
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
      addonStates.set(this.titleId, 'HandheldStore', config.Created ? 'present' : 'absent');
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

const ADDON_FLAG: Record<AddonName, string> = {
  HandheldStore: 'handheldStore',
  MobileStore: 'mobileStore',
  ConsoleNetB: 'consoleNetB',
};

export class AddonNode extends TreeNode {
  readonly id: string;
  readonly titleId: string;

  constructor(readonly parent: TitleNode, readonly addon: AddonName) {
    super();
    this.titleId = parent.titleId;
    this.id = `${parent.id}/addon/${addon}`;
  }

  /** What the node shows now (read from the shared add-on states on each call). */
  get state(): AddonNodeState {
    return this.parent.addonView(this.addon).state;
  }

  getTreeItem(): vscode.TreeItem {
    const { state, detail } = this.parent.addonView(this.addon);
    const item = new vscode.TreeItem(this.addon, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    const live = this.addon === 'HandheldStore';
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
      ADDON_FLAG[this.addon],
      state,
      !live && state !== 'absent' && 'deletable',
    );
    if (state === 'error') {
      item.command = showLog();
    } else if (live) {
      item.command = { command: 'platformExplorer.showHandheldStore' satisfies CommandId, title: vscode.l10n.t('Show HandheldStore Configuration'), arguments: [{ titleId: this.titleId }] };
    }
    return item;
  }
}

