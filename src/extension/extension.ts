// Activation only wires the services together; nothing here touches the network (the
// client and the emulator are loaded on first use).
import type { CommandId } from './commandIds';
import * as vscode from 'vscode';
import { ActiveTitle } from './activeTitle';
import { ActivityStore } from './activity/store';
import { ActivityProvider } from './activity/view';
import { AddonStates } from './addonStates';
import { Clients } from './clients';
import { registerCommands } from './commands';
import { ContextKeys, setContext, trackSetupState } from './contextKeys';
import { registerEditorFeatures } from './editor';
import { registerResultDocuments } from './documents';
import { registerEmulatorRequests } from './commands/emulatorRequests';
import { registerDataRequests } from './commands/dataRequests';
import { DataRequests } from './dataRequests/service';
import { DataRequestsView } from './dataRequests/view';
import { EmulatorHost } from './emulatorHost';
import { EmulatorProbe } from './emulatorProbe';
import { registerMcpServer } from './mcp';
import { DeletionJobStore } from './jobs';
import { Log } from './log';
import { windowPrompts } from './prompts';
import { RetryNotices } from './retryNotices';
import { SecretKeys } from './secrets';
import type { Services } from './services';
import { DEMO_ENV, onDidChangeSettings } from './settings';
import { TitleStatusBar } from './statusBar';
import { createTestApi, type TestApi } from './testApi';
import { TitleStore } from './titles';
import { TitlesTreeProvider } from './tree/provider';
import { BackgroundVerifier } from './verifier';

let shutdown: (() => Promise<void>) | undefined;

/** Milliseconds the last activate() took; read by the activation benchmark (scripts/bench). */
export let lastActivationMs: number | undefined;

export function activate(ctx: vscode.ExtensionContext): TestApi | undefined {
  const started = performance.now();
  const secrets = new SecretKeys(ctx.secrets);
  const log = new Log(() => secrets.known());
  const titles = new TitleStore(ctx.globalState);
  const activeTitle = new ActiveTitle(ctx.workspaceState, titles);
  const jobs = new DeletionJobStore(ctx.globalState);
  const activity = new ActivityStore(ctx.globalState);
  const activityView = new ActivityProvider(activity, titles);
  const clients = new Clients(titles, secrets, log, () => vscode.workspace.isTrusted);
  const addonStates = new AddonStates((id) => {
    const t = titles.get(id);
    return t && clients.endpointFor(t);
  });
  const tree = new TitlesTreeProvider({ titles, secrets, clients, jobs, addonStates, log });
  const emulator = new EmulatorHost(ctx.extensionMode === vscode.ExtensionMode.Test);
  const emulatorProbe = new EmulatorProbe(titles);
  const statusBar = new TitleStatusBar(activeTitle, titles, clients);
  const dataRequests = new DataRequests({ ctx });
  const dataRequestsView = new DataRequestsView(dataRequests, (problem) => log.warn(`Data requests: ${problem}`));
  const s: Services = {
    ctx, titles, activeTitle, statusBar, jobs, activity, activityView, secrets, log, clients, addonStates, tree, emulator, emulatorProbe, dataRequests, dataRequestsView,
    prompts: windowPrompts,
    retryNotices: new RetryNotices(() => s.prompts),
    get verifier() { return verifier; },
  };
  const verifier = new BackgroundVerifier({
    jobs, titles, secrets, log,
    verify: async (titleId) => (await import('./lazy/deletion')).verifyTitle(s, titleId, undefined),
    announce: (message) => void s.prompts.info(message),
  });
  // A service that does not answer is never silent: each retry is said as it starts, in the
  // progress notification (announced), the status bar and the log.
  clients.onRetry = (titleId, n) => {
    const text = vscode.l10n.t('Platform: {0} on {1}: {2} Retrying (attempt {3} of {4})…', n.operation, titleId, n.reason, n.attempt, n.of);
    log.warn(text);
    s.prompts.status(text);
    s.retryNotices.say(titleId, n);
  };

  ctx.subscriptions.push(
    secrets, log, titles, clients, activeTitle, statusBar, jobs, activity, activityView, addonStates, tree, verifier, dataRequests, dataRequestsView,
    (tree.view = vscode.window.createTreeView('platformExplorer.titles', { treeDataProvider: tree, showCollapseAll: true, canSelectMany: true })),
    (activityView.view = vscode.window.createTreeView('platformExplorer.activity', { treeDataProvider: activityView })),
    onDidChangeSettings(() => {
      void clients.forgetAll();
      tree.refresh();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => tree.refresh()),
    titles.onDidChange(() => void emulatorProbe.refresh()),
    trackSetupState(titles, secrets, activity),
    registerEditorFeatures(jobs),
    registerResultDocuments(),
  );
  registerCommands(s);
  const mcp = registerMcpServer(s);
  ctx.subscriptions.push(...mcp.disposables);
  ctx.subscriptions.push(...registerEmulatorRequests(s));
  ctx.subscriptions.push(...registerDataRequests(s));
  statusBar.update();
  void setContext(ContextKeys.emulatorRunning, false);
  void emulatorProbe.refresh();
  // `npm run demo` only: seed the demo emulator's titles and keys from its 0600 hand-over file (demo.ts).
  // Not under test: tests start their own emulators.
  const demo = process.env[DEMO_ENV];
  if (ctx.extensionMode !== vscode.ExtensionMode.Test && demo) {
    void import('./lazy/emulatorCommands').then((m) => m.seedDemoTitles(s, demo));
  }

  verifier.kick();
  // A batch a crash or a closed window stopped: offer to resume it (after activation, off its path).
  setTimeout(() => {
    void import('./lazy/deletion').then((m) => m.findInterrupted(s)).then((found) => {
      if (found.length > 0) void vscode.commands.executeCommand('platformExplorer.resumeDeletionBatches' satisfies CommandId);
    });
  }, 2000);

  shutdown = async () => {
    await Promise.allSettled([emulator.stop(), clients.closeAll()]);
  };
  lastActivationMs = performance.now() - started;
  // The test API sets trust and answers prompts: only for the test runner, never to other extensions in development.
  return ctx.extensionMode === vscode.ExtensionMode.Test ? createTestApi(s, mcp.provider) : undefined;
}

export async function deactivate(): Promise<void> {
  await shutdown?.();
  shutdown = undefined;
}
