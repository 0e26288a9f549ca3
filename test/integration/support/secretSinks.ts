// Where a secret could end up inside the real VS Code (settings, state, logs, storage, documents,
// tabs, webview traffic, prompts, command results, the tree), and the search of all of them.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { defaultAddon } from '../../../src/emulator/seed';
import type { TestApi } from '../../../src/extension/testApi';
import type { TreeNode } from '../../../src/extension/tree/nodes';
import type { PanelTraffic } from '../../../src/extension/views/panelTraffic';
import type { ScriptedPrompts } from './prompts';

/** What a suite recorded for the sweep: panel traffic, the prompts it scripted, what its commands returned. */
export interface Recorded {
  traffic: PanelTraffic[];
  prompts: ScriptedPrompts[];
  returned: unknown[];
}

/** Something that must never be found: an exact value or a pattern every such secret matches. */
export interface Secret {
  name: string;
  test: (text: string) => boolean;
}

export function exact(name: string, value: string): Secret {
  return { name, test: (t) => t.includes(value) };
}

/** Every string ClientSecret in the seed's HandheldStore configuration of a title. */
export function clientSecrets(titleId: string): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'ClientSecret' && typeof x === 'string') out.push(x);
        else walk(x);
      }
    }
  };
  walk(defaultAddon(titleId, 'HandheldStore'));
  return out;
}

function filesUnder(dir: string | undefined, depth = 0): string[] {
  if (dir === undefined || !existsSync(dir) || depth > 8) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) out.push(...filesUnder(p, depth + 1));
    else if (st.isFile() && st.size < 20 * 1024 * 1024) out.push(p);
  }
  return out;
}

function treeText(api: TestApi): Promise<string> {
  const lines: string[] = [];
  const walk = async (node: TreeNode | undefined, depth: number): Promise<void> => {
    if (depth > 6) return;
    for (const child of await api.tree.getChildren(node)) {
      lines.push(JSON.stringify(api.tree.getTreeItem(child)));
      await walk(child, depth + 1);
    }
  };
  return walk(undefined, 0).then(() => lines.join('\n'));
}

/**
 * Every place a secret could end up, as [sink, text]. Each must exist and hold something,
 * so the search cannot pass by looking at nothing.
 */
export async function sinks(api: TestApi, recorded: Recorded): Promise<[string, string][]> {
  const { traffic, prompts, returned } = recorded;
  const out: [string, string][] = [];
  const paths = api.storagePaths();
  const userSettings = join(dirname(dirname(paths.globalStorage)), 'settings.json');
  assert.ok(existsSync(userSettings), `user settings not found at ${userSettings}`);
  out.push(['user settings.json', readFileSync(userSettings, 'utf8')]);
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const f = join(folder.uri.fsPath, '.vscode', 'settings.json');
    if (existsSync(f)) out.push([`workspace settings ${f}`, readFileSync(f, 'utf8')]);
  }
  out.push(['workspace.getConfiguration()', JSON.stringify(vscode.workspace.getConfiguration())]);
  const cfg = vscode.workspace.getConfiguration('platformExplorer');
  out.push(['platformExplorer settings (inspect)', JSON.stringify(
    ['serviceEndpoint', 'lookupResultFormat', 'requestTimeoutSeconds', 'lookupConcurrency'].map((k) => cfg.inspect(k)),
  )]);
  out.push(['globalState and workspaceState', JSON.stringify(api.stateSnapshot())]);
  out.push(['log lines', api.logLines().join('\n')]);
  // The output channel's file and every other log of this extension host.
  for (const f of filesUnder(dirname(paths.logs))) out.push([`log file ${f}`, readFileSync(f, 'latin1')]);
  for (const f of [...filesUnder(paths.globalStorage), ...filesUnder(paths.workspaceStorage)]) out.push([`storage file ${f}`, readFileSync(f, 'latin1')]);
  for (const d of vscode.workspace.textDocuments) out.push([`document ${d.uri.toString()}`, `${d.uri.toString()}\n${d.getText()}`]);
  out.push(['tab labels', JSON.stringify(vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label)))]);
  for (const t of traffic) out.push([`webview ${t.kind}/${t.titleId} ${'html' in t ? 'html' : `message ${t.message.type}`}`, JSON.stringify(t)]);
  prompts.forEach((p, i) => out.push([`prompts #${i}`, JSON.stringify({
    infos: p.infos, errors: p.errors, confirms: p.confirms, progress: p.progressTitles,
    picks: p.picks.map((x) => ({ items: x.items, options: x.options })),
    inputs: p.inputs.map((x) => ({ ...x.options, validateInput: undefined, validation: x.validation })),
  })]));
  out.push(['command results', JSON.stringify(returned)]);
  out.push(['Titles tree', await treeText(api)]);
  return out;
}

export function search(all: [string, string][], secrets: Secret[]): string[] {
  const hits: string[] = [];
  for (const [sink, text] of all) {
    for (const s of secrets) if (s.test(text)) hits.push(`${s.name} in ${sink}`);
  }
  return hits;
}
