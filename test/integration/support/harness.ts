// Shared by the extension's integration tests: the test API, the in-host emulator's controls
// over HTTP, tree, editor and document helpers. The scripted prompt layer is in prompts.ts.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/extension/testApi';
import type { TreeNode } from '../../../src/extension/tree/nodes';
import { script } from './prompts';

export { type RecordedInput, script, ScriptedPrompts } from './prompts';

export const EXTENSION_ID = 'platform-explorer.platform-explorer';

export async function getApi(): Promise<TestApi> {
  const ext = vscode.extensions.getExtension<TestApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed in the test host`);
  const api = await ext.activate();
  assert.ok(api, 'activate() returned no test API');
  return api;
}

/** Calls a test control of the emulator running in the extension host. */
export async function emu<T = Record<string, unknown>>(api: TestApi, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const e = api.emulator();
  assert.ok(e, 'the local emulator is not running');
  const res = await fetch(`${e.origin}/_emulator/${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${e.controlToken}` },
    body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
  });
  const json = (await res.json()) as T;
  assert.equal(res.status, 200, `emulator control ${path} failed: ${JSON.stringify(json)}`);
  return json;
}

/** How many requests of one operation (`Area/Operation`) the emulator has served since the last reset. */
export async function requestCount(api: TestApi, operation: string): Promise<number> {
  const stats = await emu<{ requests: Record<string, number> }>(api, 'GET', 'stats');
  return stats.requests[operation] ?? 0;
}

/**
 * The usual mocha hooks of a suite: the test API before all, a clean extension (and, with
 * `emulator`, the in-host emulator with its demo titles) before each, clean again after all.
 */
export function useFreshExtension(opts: { emulator: boolean }): { readonly api: TestApi } {
  const box = {} as { api: TestApi };
  before(async () => {
    box.api = await getApi();
  });
  beforeEach(async () => {
    await startFresh(box.api);
    if (opts.emulator) {
      await startEmulatorWithDemoTitles(box.api);
    }
  });
  after(async () => {
    await startFresh(box.api);
  });
  return box;
}

/** A clean extension and emulator: no titles, keys or receipts; the emulator back to its demo seed. */
export async function startFresh(api: TestApi): Promise<void> {
  api.setPrompts(undefined);
  api.setTrusted(undefined);
  await api.reset();
  await closeAllEditors();
  if (api.emulator()) {
    await emu(api, 'POST', 'reset');
  }
}

/** Closes every editor, discarding any edited text instead of asking to save it. */
export async function closeAllEditors(): Promise<void> {
  const open = (): number => vscode.window.tabGroups.all.reduce((n, g) => n + g.tabs.length, 0);
  for (let i = 0; i < 50 && open() > 0; i++) {
    await vscode.commands.executeCommand(
      vscode.window.activeTextEditor ? 'workbench.action.revertAndCloseActiveEditor' : 'workbench.action.closeActiveEditor',
    );
  }
  // The editor state reaches the extension host after the command returns.
  const deadline = Date.now() + 5000;
  while (vscode.window.activeTextEditor && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.equal(vscode.window.activeTextEditor, undefined, 'an editor stayed open');
}

/**
 * Starts the in-host emulator through the extension's command (adds the demo titles with keys),
 * agreeing when it asks to re-point titles left from an earlier emulator.
 */
export async function startEmulatorWithDemoTitles(api: TestApi): Promise<void> {
  const p = script(api).press('Re-point');
  await vscode.commands.executeCommand('platformExplorer.startEmulator');
  assert.deepEqual(p.errors, []);
  assert.ok(api.emulator(), 'Start Local Emulator did not start the emulator');
  await emu(api, 'POST', 'reset');
}

export interface ShownItem {
  node: TreeNode;
  label: string;
  description: string;
  contextValue: string;
  id: string;
  /** What a screen reader reads for the row. */
  accessibleName: string | undefined;
}

function labelOf(item: vscode.TreeItem): string {
  const l = item.label;
  return typeof l === 'string' ? l : l?.label ?? '';
}

/** The children of `node` (the roots when undefined) as the view would show them. */
export async function children(api: TestApi, node?: TreeNode): Promise<ShownItem[]> {
  const nodes = await api.tree.getChildren(node);
  return nodes.map((n) => {
    const item = api.tree.getTreeItem(n) as vscode.TreeItem;
    return {
      node: n,
      label: labelOf(item),
      description: typeof item.description === 'string' ? item.description : '',
      contextValue: item.contextValue ?? '',
      id: item.id ?? '',
      accessibleName: item.accessibilityInformation?.label,
    };
  });
}

export async function titleItem(api: TestApi, titleId: string): Promise<ShownItem> {
  const roots = await children(api);
  const found = roots.find((r) => r.id === `title/${titleId}`);
  assert.ok(found, `title ${titleId} is not in the tree (have: ${roots.map((r) => r.id).join(', ')})`);
  return found;
}

export async function titleChild(api: TestApi, titleId: string, label: string): Promise<ShownItem> {
  const kids = await children(api, (await titleItem(api, titleId)).node);
  const found = kids.find((k) => k.label === label);
  assert.ok(found, `${label} is not under title ${titleId}`);
  return found;
}

/** The text of a document a command opened and returned the URI of. */
export function documentText(uri: vscode.Uri | undefined): string {
  assert.ok(uri, 'the command returned no document');
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  assert.ok(doc, `document ${uri.toString()} is not open`);
  return doc.getText();
}

/** Runs `fn` and returns it with the result documents opened meanwhile. */
export async function resultsOpenedDuring<T>(fn: () => Thenable<T>): Promise<{ result: T; opened: vscode.TextDocument[] }> {
  const opened: vscode.TextDocument[] = [];
  const sub = vscode.workspace.onDidOpenTextDocument((d) => {
    if (d.uri.scheme === 'platform-result') opened.push(d); // RESULT_SCHEME in src/extension/documents.ts
  });
  try {
    return { result: await fn(), opened };
  } finally {
    sub.dispose();
  }
}

/** Waits for a webview tab whose label contains `text` (tab groups update after a command returns). */
export async function waitForWebviewTab(text: string): Promise<vscode.Tab> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const tab = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .find((t) => t.input instanceof vscode.TabInputWebview && t.label.includes(text));
    if (tab) return tab;
    await new Promise((r) => setTimeout(r, 50));
  }
  const labels = vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
  assert.fail(`no webview tab with "${text}" opened (tabs: ${labels.join(', ')})`);
}

/** Sets the user-level endpoint and waits until the configuration reads it back (the write lands asynchronously). */
export async function setServiceEndpoint(value: string | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('platformExplorer').update('serviceEndpoint', value, vscode.ConfigurationTarget.Global);
  const deadline = Date.now() + 5000;
  while (vscode.workspace.getConfiguration('platformExplorer').inspect('serviceEndpoint')?.globalValue !== value) {
    assert.ok(Date.now() < deadline, 'the endpoint setting did not change');
    await new Promise((r) => setTimeout(r, 25));
  }
}

let openedTexts = 0;

/**
 * Opens `content` in an editor under a URI of its own (an Untitled-N one may still be an earlier
 * test's closed document in this host, with that test's text) and sets `selections` (default: all
 * of it) until the extension host sees them on the active editor.
 */
export async function openText(content: string, opts: { selections?: vscode.Selection[]; language?: string } = {}): Promise<vscode.TextEditor> {
  let doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'untitled', path: `test-text-${++openedTexts}.txt` }));
  if (opts.language) doc = await vscode.languages.setTextDocumentLanguage(doc, opts.language);
  const editor = await vscode.window.showTextDocument(doc);
  await editor.edit((b) => b.insert(new vscode.Position(0, 0), content));
  assert.equal(doc.getText(), content);
  const end = doc.positionAt(content.length);
  const wanted = opts.selections ?? [new vscode.Selection(0, 0, end.line, end.character)];
  // The workbench may report the new editor's first (empty) selection after ours: set it until it holds.
  const holds = (): boolean => vscode.window.activeTextEditor?.document === doc
    && editor.selections.length === wanted.length && editor.selections.every((sel, i) => sel.isEqual(wanted[i]));
  for (let i = 0; i < 200 && !holds(); i++) {
    editor.selections = wanted;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.ok(holds(), 'the selection did not hold');
  return editor;
}

/**
 * A loopback server answering like the service, for answers the emulator never gives: `answer`
 * maps an operation (`Area/Name`) to the `data` of an OK answer (undefined: 404 InvalidRequest).
 * Before each test a title of the local-emulator profile pointing at it is added, with `key`.
 * `seen` lists the operations requested, in order, since that test began.
 */
export function useLoopbackService(
  ctx: { readonly api: TestApi },
  title: { titleId: string; name: string; key: string },
  answer: (operation: string) => unknown,
): { readonly seen: string[] } {
  let server: http.Server;
  let endpoint = '';
  const seen: string[] = [];
  before(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const operation = (req.url ?? '').split('/').slice(-2).join('/');
        seen.push(operation);
        const data = answer(operation);
        res.writeHead(data ? 200 : 404, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(data ? { code: 200, status: 'OK', data } : { code: 404, status: 'NotFound', error: 'InvalidRequest', errorCode: 1071 }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/{titleId}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(async () => {
    seen.length = 0;
    script(ctx.api).typeIn(title.titleId).typeIn(title.name).choose('Local emulator').typeIn(endpoint).typeIn(title.key);
    await vscode.commands.executeCommand('platformExplorer.addTitle');
    assert.ok(ctx.api.titles.get(title.titleId), `title ${title.titleId} was not added`);
  });
  return { seen };
}

/** Sets the data requests folder setting (undefined: the default) and waits until VS Code reads it back. */
export async function setDataRequestsFolder(value: string | undefined): Promise<void> {
  const cfg = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('platformExplorer');
  await cfg().update('dataRequests.folder', value, vscode.ConfigurationTarget.Global);
  const deadline = Date.now() + 5000;
  while (cfg().inspect('dataRequests.folder')?.globalValue !== value) {
    assert.ok(Date.now() < deadline, 'the folder setting did not change');
    await new Promise((r) => setTimeout(r, 25));
  }
}
