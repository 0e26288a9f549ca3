// What activate() returns outside production (tests, extension development): hooks to
// answer prompts and read the extension's state. It never hands out a secret value.
import type { Disposable } from 'vscode';
import type { ActivityStore } from './activity/store';
import type { ActivityProvider } from './activity/view';
import type { AddonStates } from './addonStates';
import { contextValue, type ContextKey } from './contextKeys';
import { describeFailure } from './errors';
import type { DataRequestsView } from './dataRequests/view';
import type { DeletionJobStore } from './jobs';
import type { McpProvider } from './mcp';
import { windowPrompts, type Prompts } from './prompts';
import type { Services } from './services';
import type { TitleStore } from './titles';
import type { TitlesTreeProvider } from './tree/provider';
import { observePanels, type PanelTraffic } from './views/panelTraffic';

export interface TestApi {
  /** Answer every prompt with `p` from now on; `undefined` restores the real UI. */
  setPrompts(p: Prompts | undefined): void;
  /** Pretend the workspace is (not) trusted; `undefined` restores the real check. */
  setTrusted(trusted: boolean | undefined): void;
  readonly tree: TitlesTreeProvider;
  readonly titles: TitleStore;
  readonly jobs: DeletionJobStore;
  readonly addonStates: AddonStates;
  readonly activity: ActivityStore;
  readonly activityView: ActivityProvider;
  /** The Data Requests view's provider (its TreeView as `.view`: badge, description). */
  readonly dataRequestsView: DataRequestsView;
  /** The active title's status bar item as shown: text, tooltip, the command a click runs, a warning background. */
  statusBar(): { text: string; tooltip: string; command: string | undefined; warning: boolean; visible: boolean; accessibleName: string | undefined };
  hasSecretKey(titleId: string): Promise<boolean>;
  /** The emulator this extension host runs, if any. */
  emulator(): { endpoint: string; origin: string; controlToken: string } | undefined;
  /** The value the extension last gave one of its context keys. */
  contextValue(key: ContextKey): unknown;
  /** Recent lines of the Platform Explorer log, as written (redacted). */
  logLines(): readonly string[];
  /** Everything the extension keeps in globalState and workspaceState. */
  stateSnapshot(): Record<string, unknown>;
  /** Starts background verification over with this first delay (30 s normally). */
  setVerifyDelay(ms: number): void;
  /** Removes every title, key, receipt and add-on state: a clean slate between tests. */
  reset(): Promise<void>;
  /** Calls `listener` with every HTML and message a panel gives its page, until disposed. */
  observePanels(listener: (t: PanelTraffic) => void): Disposable;
  /** Folders VS Code keeps this extension's files and logs in, for tests that search them. */
  storagePaths(): { globalStorage: string; workspaceStorage?: string; logs: string };
  /** The MCP server definition provider as registered; a resolved definition holds allowed titles' keys in env, as VS Code gets them. */
  readonly mcpProvider: McpProvider;
  /** GetHandheldStore through the title's client as every command gets it: `{ Created }`, or `{ error }` (redacted). */
  readHandheldStore(titleId: string): Promise<Record<string, unknown>>;
}

export function createTestApi(s: Services, mcpProvider: McpProvider): TestApi {
  const realTrust = s.clients.isTrusted;
  return {
    setPrompts: (p) => {
      s.prompts = p ?? windowPrompts;
    },
    setTrusted: (trusted) => {
      s.clients.isTrusted = trusted === undefined ? realTrust : () => trusted;
      s.tree.refresh();
    },
    tree: s.tree,
    titles: s.titles,
    jobs: s.jobs,
    addonStates: s.addonStates,
    activity: s.activity,
    activityView: s.activityView,
    dataRequestsView: s.dataRequestsView,
    statusBar: () => {
      const item = s.statusBar.item;
      return {
        text: item.text,
        tooltip: typeof item.tooltip === 'string' ? item.tooltip : item.tooltip?.value ?? '',
        command: typeof item.command === 'string' ? item.command : item.command?.command,
        warning: item.backgroundColor !== undefined,
        visible: s.statusBar.visible,
        accessibleName: item.accessibilityInformation?.label,
      };
    },
    hasSecretKey: (titleId) => s.secrets.has(titleId),
    emulator: () => {
      const h = s.emulator.current;
      return h ? { endpoint: h.endpoint, origin: h.origin, controlToken: h.controlToken } : undefined;
    },
    contextValue: (key) => contextValue(key),
    logLines: () => s.log.recent(),
    setVerifyDelay: (ms) => s.verifier.setFirstDelay(ms),
    observePanels: (listener) => observePanels(listener),
    mcpProvider,
    readHandheldStore: async (titleId) => {
      try {
        return { Created: (await (await s.clients.get(titleId)).getHandheldStore()).Created === true };
      } catch (e) {
        return { error: describeFailure(e, s.secrets.known()).message };
      }
    },
    storagePaths: () => ({
      globalStorage: s.ctx.globalStorageUri.fsPath,
      workspaceStorage: s.ctx.storageUri?.fsPath,
      logs: s.ctx.logUri.fsPath,
    }),
    stateSnapshot: () => {
      const out: Record<string, unknown> = {};
      for (const [scope, memento] of [['global', s.ctx.globalState], ['workspace', s.ctx.workspaceState]] as const) {
        for (const key of memento.keys()) {
          out[`${scope}:${key}`] = memento.get(key);
        }
      }
      return out;
    },
    reset: async () => {
      for (const t of s.titles.all()) {
        await s.secrets.delete(t.titleId);
        s.addonStates.forgetTitle(t.titleId);
        await s.titles.remove(t.titleId);
      }
      for (const key of s.ctx.globalState.keys()) {
        await s.ctx.globalState.update(key, undefined);
      }
      // With the ledger, the deletion journals it was built from (a plan reads them too).
      await (await import('./lazy/deletion')).forgetJournals(s);
      for (const key of s.ctx.workspaceState.keys()) {
        await s.ctx.workspaceState.update(key, undefined);
      }
      s.activityView.setFilter('');
      await s.tree.setFilter('');
      s.tree.refresh();
      s.statusBar.update();
    },
  };
}
