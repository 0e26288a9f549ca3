// Security inside the real VS Code: secrets never reach any sink (settings, state, log, documents,
// webviews, messages, the tree); workspace settings cannot redirect the service endpoint; titles,
// keys and deletion receipts survive service failures.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as net from 'node:net';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { defaultAddon, DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import type { TestApi } from '../../src/extension/testApi';
import type { TreeNode } from '../../src/extension/tree/nodes';
import type { PanelTraffic } from '../../src/extension/views/panel';
import { hostileTemplates, hostileTitleIds } from '../unit/security/hostileEndpoints';
import { emu, getApi, requestCount, ScriptedPrompts, startEmulatorWithDemoTitles, startFresh } from './support/harness';

const RACER = DEMO_TITLES[0];
const ARENA = DEMO_TITLES[1];
const WRONG_KEY = 'WRONGKEYsecurityTest0123456789ABCDEFGH';
const players = DEMO_PLAYERS.filter((p) => p.launcherSubject !== undefined && p.playedTitles.includes(RACER.titleId) && !p.banned);
const LOGIN_PLAYER = players[0];
const DELETE_PLAYER = DEMO_PLAYERS.filter((p) => !p.banned && p !== LOGIN_PLAYER)[0];
const UNKNOWN_PLAYER = DEMO_PLAYERS.filter((p) => !p.banned && p !== LOGIN_PLAYER && p !== DELETE_PLAYER)[0];
const STOREFRONT = 'Server/GetPlatformIDsFromStorefrontNames';

/** Something that must never be found: an exact value or a pattern every such secret matches. */
interface Secret {
  name: string;
  test: (text: string) => boolean;
}

function exact(name: string, value: string): Secret {
  return { name, test: (t) => t.includes(value) };
}

/** Every string ClientSecret in the seed's HandheldStore configuration of a title. */
function clientSecrets(titleId: string): string[] {
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

/** A loopback listener that records every connection made to it. */
async function startTrap(): Promise<{ endpoint: string; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    connections++;
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as net.AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/{titleId}`,
    connections: () => connections,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

async function until<T>(what: string, get: () => T | undefined, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('Security inside VS Code', function () {
  this.timeout(120_000);
  let api: TestApi;
  const traffic: PanelTraffic[] = [];
  const prompts: ScriptedPrompts[] = [];
  const returned: unknown[] = [];
  let observer: vscode.Disposable;

  function script(): ScriptedPrompts {
    const p = new ScriptedPrompts();
    prompts.push(p);
    api.setPrompts(p);
    return p;
  }

  async function run(p: ScriptedPrompts, command: string, arg?: unknown): Promise<unknown> {
    api.setPrompts(p);
    const r = await vscode.commands.executeCommand(command, arg);
    returned.push(r);
    return r;
  }

  async function faults(rules: unknown[]): Promise<void> {
    await emu(api, 'POST', 'faults', { rules });
  }

  function renderFor(kind: string, titleId: string): PanelTraffic | undefined {
    return [...traffic].reverse().find((t) => t.kind === kind && t.titleId === titleId && 'message' in t && t.message.type === 'render');
  }

  /**
   * Every place a secret could end up, as [sink, text]. Each must exist and hold something,
   * so the search cannot pass by looking at nothing.
   */
  async function sinks(): Promise<[string, string][]> {
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

  function search(all: [string, string][], secrets: Secret[]): string[] {
    const hits: string[] = [];
    for (const [sink, text] of all) {
      for (const s of secrets) if (s.test(text)) hits.push(`${s.name} in ${sink}`);
    }
    return hits;
  }

  before(async () => {
    api = await getApi();
    // Per-request lines are at debug level: write them to the log file too, so it is searched for secrets.
    await vscode.commands.executeCommand('_extensionTests.setLogLevel', 'debug');
    observer = api.observePanels((t) => traffic.push(t));
    await startFresh(api);
    await startEmulatorWithDemoTitles(api);
  });

  after(async () => {
    observer.dispose();
    await vscode.commands.executeCommand('_extensionTests.setLogLevel', 'info');
    await emu(api, 'POST', 'faults/clear').catch(() => undefined);
    const cfg = vscode.workspace.getConfiguration('platformExplorer');
    await cfg.update('serviceEndpoint', undefined, vscode.ConfigurationTarget.Global);
    await cfg.update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    await startFresh(api);
  });

  it('secret keys, tokens, tickets and ClientSecrets reach no sink, through success and failure', async () => {
    const identityTokens: string[] = [];
    const mint = async (o: Record<string, unknown>): Promise<string> => {
      const t = (await emu<{ IdentityToken: string }>(api, 'POST', 'launcher-token', { titleId: RACER.titleId, ...o })).IdentityToken;
      identityTokens.push(t);
      return t;
    };

    // The recognisable keys, typed in as a user would.
    let p = script();
    await run(p.typeIn(RACER.secretKey), 'platformExplorer.setSecretKey', { titleId: RACER.titleId });
    p = script();
    await run(p.typeIn(WRONG_KEY), 'platformExplorer.setSecretKey', { titleId: ARENA.titleId });
    // A wrong key: the service refuses it.
    p = script();
    await run(p, 'platformExplorer.lookUpStorefrontNames', { titleId: ARENA.titleId, names: [DELETE_PLAYER.storefrontNames[0] ?? 'someone'] });
    assert.equal(p.errors.length, 1, 'the wrong key was not refused');
    p = script();
    await run(p.typeIn(ARENA.secretKey), 'platformExplorer.setSecretKey', { titleId: ARENA.titleId });

    // Entity tokens and the HandheldStore configuration (ClientSecret stays on the service side).
    p = script();
    await run(p, 'platformExplorer.showHandheldStore', { titleId: RACER.titleId });
    await until('the HandheldStore panel to render', () => renderFor('handheldStore', RACER.titleId));
    // An expired token is refreshed; then the panel reloads.
    await emu(api, 'POST', 'tokens/expire');
    const rendersBefore = traffic.length;
    await run(script(), 'platformExplorer.showHandheldStore', { titleId: ARENA.titleId });
    await until('the second HandheldStore panel', () => (traffic.length > rendersBefore ? renderFor('handheldStore', ARENA.titleId) : undefined));

    // Launcher login: a session ticket and a player entity token come back.
    const token = await mint({ subject: LOGIN_PLAYER.launcherSubject });
    p = script();
    await run(p.choose('Paste an IdentityToken').typeIn(token).choose('Sign in only').chooseMany(['GetUserAccountInfo', 'GetUserData']).typeIn('').typeIn('build=1'), 'platformExplorer.testLauncherLogin', { titleId: RACER.titleId });
    assert.deepEqual(p.errors, []);
    await until('the Login panel to render', () => renderFor('loginResult', RACER.titleId));
    // A token with a bad signature, and one for an unknown account: errors quoting nothing secret.
    for (const bad of [await mint({ subject: LOGIN_PLAYER.launcherSubject, wrongKey: true }), await mint({ subject: 'nobody-at-all' })]) {
      p = script();
      await run(p.choose('Paste an IdentityToken').typeIn(bad).choose('Sign in only').chooseMany([]).typeIn(''), 'platformExplorer.testLauncherLogin', { titleId: RACER.titleId });
      assert.equal(p.errors.length, 1);
    }

    // Service failures: throttled beyond the allowed wait, garbage, a proxy page, 500s on the add-on.
    await faults([{ operation: STOREFRONT, kind: '429', retryAfterSeconds: 120 }]);
    p = script();
    await run(p, 'platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId, names: ['someone'] });
    assert.equal(p.errors.length, 1, 'the 429 was not reported');
    await faults([{ operation: 'Admin/GetPlayedTitleList', kind: 'garbage', times: -1 }]);
    p = script();
    await run(p, 'platformExplorer.showPlayedTitles', { titleId: RACER.titleId, platformId: DELETE_PLAYER.platformId });
    assert.equal(p.errors.length, 1, 'the garbage answer was not reported');
    await emu(api, 'POST', 'tokens/expire');
    await faults([{ operation: 'Authentication/GetEntityToken', kind: 'html', times: -1 }, { operation: 'Addon/GetHandheldStore', kind: '500', times: -1 }]);
    const errorsBefore = traffic.filter((t) => 'message' in t && t.message.type === 'error').length;
    await run(script(), 'platformExplorer.showHandheldStore', { titleId: RACER.titleId });
    await run(script(), 'platformExplorer.showHandheldStore', { titleId: ARENA.titleId });
    const panelErrors = (): number => traffic.filter((t) => 'message' in t && t.message.type === 'error').length;
    await until('a HandheldStore panel to show the failure', () => (panelErrors() > errorsBefore ? true : undefined));
    await emu(api, 'POST', 'faults/clear');

    // The sweep.
    const secrets: Secret[] = [
      exact(`${RACER.titleId} secret key`, RACER.secretKey),
      exact(`${ARENA.titleId} secret key`, ARENA.secretKey),
      exact('wrong secret key', WRONG_KEY),
      ...identityTokens.map((t, i) => exact(`identity token #${i}`, t)),
      // Every emulator entity token (title or player) starts with base64url('{"t":"').
      { name: 'an entity token', test: (t) => /eyJ0Ijoi[A-Za-z0-9_-]{16,}/.test(t) },
      { name: 'the session ticket', test: (t) => new RegExp(`${LOGIN_PLAYER.platformId}-[A-Za-z0-9_-]{32}`).test(t) },
      ...[RACER.titleId, ARENA.titleId].flatMap((id) => clientSecrets(id).map((s, i) => exact(`${id} ClientSecret #${i}`, s))),
    ];
    const all = await sinks();
    assert.deepEqual(search(all, secrets), []);

    // The sweep looked at real content: panels, log, messages and settings were all there.
    const panelMessages = traffic.filter((t) => 'message' in t);
    assert.ok(panelMessages.some((t) => t.kind === 'loginResult'), 'no Login panel message seen');
    assert.ok(traffic.some((t) => 'html' in t), 'no panel HTML seen');
    assert.ok(all.some(([sink, text]) => sink.startsWith('log file') && text.includes('GetEntityToken')), 'the log channel\'s file was not searched');
    assert.ok(all.some(([sink, text]) => sink.startsWith('log file') && /\[debug\] GetEntityToken title=/.test(text)), 'the log file lacks the debug request lines');
    assert.ok(api.logLines().some((l) => /GetEntityToken/.test(l)) && api.logLines().some((l) => /LoginWithLauncher/.test(l)), 'the log is missing requests');
    assert.ok(prompts.reduce((n, x) => n + x.errors.length, 0) >= 5, 'too few error messages recorded');
    // And the search does find a secret where there is one.
    assert.deepEqual(search([['planted', `x${RACER.secretKey}x ${identityTokens[0]}`]], secrets.slice(0, 4)).length, 2);
  });

  it('workspace settings cannot redirect the service endpoint: keys go only to the user-level endpoint', async () => {
    const trap = await startTrap();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the test host opened no workspace folder');
    const settingsFile = vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json');
    const cfg = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('platformExplorer');
    try {
      // ARENA as a "Platform service" title: its requests follow platformExplorer.serviceEndpoint.
      await api.titles.remove(ARENA.titleId);
      let p = script();
      await run(p.typeIn(ARENA.titleId).typeIn('Arena (service)').choose('Platform service').typeIn(ARENA.secretKey), 'platformExplorer.addTitle');
      assert.equal(api.titles.get(ARENA.titleId)?.endpointProfile, 'service');
      const emulatorEndpoint = api.emulator()!.endpoint;
      await cfg().update('serviceEndpoint', emulatorEndpoint, vscode.ConfigurationTarget.Global);

      // A workspace that tries to send the key elsewhere, through the API and through the file.
      for (const target of [vscode.ConfigurationTarget.Workspace, vscode.ConfigurationTarget.WorkspaceFolder]) {
        await Promise.resolve(cfg().update('serviceEndpoint', trap.endpoint, target)).catch(() => undefined);
      }
      await vscode.workspace.fs.writeFile(settingsFile, Buffer.from(JSON.stringify({ 'platformExplorer.serviceEndpoint': trap.endpoint }, null, 2)));
      // Give the workbench time to read the file (it would fire a change if it applied it).
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(cfg().inspect<string>('serviceEndpoint')?.globalValue, emulatorEndpoint);

      const before = await requestCount(api, STOREFRONT);
      const name = DEMO_PLAYERS.find((x) => x.storefrontNames.length > 0 && x.playedTitles.includes(ARENA.titleId))?.storefrontNames[0] ?? 'someone';
      p = script();
      await run(p, 'platformExplorer.lookUpStorefrontNames', { titleId: ARENA.titleId, names: [name] });
      assert.deepEqual(p.errors, [], 'the lookup failed');
      assert.equal(await requestCount(api, STOREFRONT), before + 1, 'the request did not reach the user-level endpoint');
      assert.equal(trap.connections(), 0, 'a request went to the workspace-level endpoint');
      // With no user-level endpoint, the workspace value is still not used: the command refuses.
      await cfg().update('serviceEndpoint', undefined, vscode.ConfigurationTarget.Global);
      p = script();
      await run(p, 'platformExplorer.lookUpStorefrontNames', { titleId: ARENA.titleId, names: [name] });
      assert.equal(p.errors.length, 1);
      assert.match(p.errors[0], /endpoint/i);
      assert.equal(trap.connections(), 0, 'a request went to the workspace-level endpoint');
    } finally {
      await cfg().update('serviceEndpoint', undefined, vscode.ConfigurationTarget.Global);
      // The workbench reads the deleted file later and then fires a change, which replaces the
      // title clients: wait for it here (bounded), or it lands in the next test's commands.
      const read = new Promise<void>((resolve) => {
        const done = (): void => { clearTimeout(timer); sub.dispose(); resolve(); };
        const sub = vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('platformExplorer.serviceEndpoint')) done(); });
        const timer = setTimeout(done, 5000);
      });
      await vscode.workspace.fs.delete(settingsFile).then(undefined, () => undefined);
      await read;
      await trap.close();
    }
  });

  it('Add Title and command arguments refuse every hostile title ID and endpoint of the corpus, sending nothing', async () => {
    await startFresh(api);
    await startEmulatorWithDemoTitles(api);
    const titlesBefore = JSON.stringify(api.titles.all());
    const statsBefore = (await emu<{ total: number }>(api, 'GET', 'stats')).total;
    const trapHost = '127.0.0.1:9';
    for (const h of hostileTitleIds(trapHost)) {
      const p = script();
      await run(p.typeIn(h.value), 'platformExplorer.addTitle');
      assert.match(p.inputs[0]?.validation ?? '', /^Title ID\b/, `Add Title accepted ${h.why}`);
    }
    for (const h of hostileTemplates(trapHost, api.emulator()!.origin.replace('http://', ''))) {
      const p = script();
      await run(p.typeIn('C0DE').typeIn('Hostile').choose('Local emulator').typeIn(h.value), 'platformExplorer.addTitle');
      assert.match(p.inputs[2]?.validation ?? '', /endpoint/i, `Add Title accepted the emulator endpoint ${h.why}`);
    }
    assert.equal((await emu<{ total: number }>(api, 'GET', 'stats')).total, statsBefore, 'a request was sent');
    // As a command argument (a link, another extension): refused before any request, unless it
    // is a configured title ID with spaces around it, which goes to that title's own endpoint.
    let legitimate = 0;
    for (const h of hostileTitleIds(trapHost)) {
      // An empty one names no title: the command asks which (unanswered here).
      if (h.value.trim() === '') continue;
      const q = script();
      const sentBefore = await requestCount(api, STOREFRONT);
      await run(q, 'platformExplorer.lookUpStorefrontNames', { titleId: h.value, names: ['someone'] });
      if (api.titles.get(h.value.trim()) !== undefined) {
        // The lookup went to that title: exactly one request, counted once the command has its answer.
        legitimate++;
        assert.equal(await requestCount(api, STOREFRONT), sentBefore + 1, `lookup with ${h.why}: ${[...q.errors, ...q.infos].join(' | ')}`);
        continue;
      }
      assert.equal(q.errors.length, 1, `lookup with ${h.why}`);
      assert.doesNotMatch(q.errors[0], /[\u0000-\u001f\u200b-\u200f\u202a-\u202e]/, `the error for ${h.why} carries the raw value`);
    }
    // Lookup entries with control characters or too long: kept apart as invalid, never sent, never shown raw.
    for (const bad of ['racer\r\nX-SecretKey: x', 'a\u0000b', `${'n'.repeat(200)}\n`]) {
      const q = script();
      const summary = (await run(q, 'platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId, names: [bad] })) as { invalid: number; document: vscode.Uri } | undefined;
      assert.deepEqual(q.errors, [], JSON.stringify(bad));
      assert.equal(summary?.invalid, 1, JSON.stringify(bad));
      const shown = vscode.workspace.textDocuments.find((d) => d.uri.toString() === summary.document.toString())?.getText() ?? '';
      assert.doesNotMatch(shown + q.infos.join(''), /[\u0000-\u0009\u000b-\u001f]/, `${JSON.stringify(bad)} is shown raw`);
    }
    assert.equal((await emu<{ total: number }>(api, 'GET', 'stats')).total, statsBefore + legitimate, 'a request was sent');
    assert.equal(JSON.stringify(api.titles.all()), titlesBefore, 'a hostile title was added');
  });

  it('titles, keys and deletion receipts are intact after time-outs, resets, 429s, 5xx, garbage and a slow drip', async () => {
    await startFresh(api);
    await startEmulatorWithDemoTitles(api);
    await vscode.workspace.getConfiguration('platformExplorer').update('requestTimeoutSeconds', 1, vscode.ConfigurationTarget.Global);
    // A receipt from before the failures.
    let p = script();
    await run(p.press('Delete').typeIn(DELETE_PLAYER.platformId), 'platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: DELETE_PLAYER.platformId });
    assert.deepEqual(p.errors, []);
    const titlesBefore = JSON.stringify(api.titles.all());
    const receiptsBefore = api.jobs.all().map((j) => j.jobReceiptId).filter((r): r is string => r !== undefined);
    assert.equal(receiptsBefore.length, 1);

    // Lookups: each fault once is retried to success; forever fails with a message.
    const name = DEMO_PLAYERS.find((x) => x.storefrontNames.length > 0)!.storefrontNames[0];
    for (const kind of ['timeout', 'reset-before', 'reset-after', '429', '500', '503', 'garbage', 'html', 'drip']) {
      await faults([{ operation: STOREFRONT, kind, retryAfterSeconds: 0 }]);
      p = script();
      await run(p, 'platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId, names: [name] });
      assert.deepEqual(p.errors, [], `${kind} once`);
      await faults([{ operation: STOREFRONT, kind, times: -1, retryAfterSeconds: 0 }]);
      p = script();
      await run(p, 'platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId, names: [name] });
      assert.equal(p.errors.length, 1, `${kind} forever`);
    }
    // Deletes: sent once, the user told the outcome is unknown.
    await faults([{ operation: 'Admin/DeleteMasterPlayerAccount', kind: 'reset-after' }]);
    const deletesBefore = await requestCount(api, 'Admin/DeleteMasterPlayerAccount');
    p = script();
    await run(p.press('Delete').typeIn(UNKNOWN_PLAYER.platformId), 'platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: UNKNOWN_PLAYER.platformId });
    assert.equal(p.errors.length, 1);
    assert.match(p.errors[0], /may or may not have happened/);
    assert.equal(await requestCount(api, 'Admin/DeleteMasterPlayerAccount'), deletesBefore + 1);
    await faults([{ operation: 'Addon/DeleteMobileStore', kind: 'drip' }]);
    p = script();
    await run(p.press('Delete'), 'platformExplorer.deleteMobileStore', { titleId: RACER.titleId });
    assert.equal(p.errors.length, 1);
    assert.match(p.errors[0], /may or may not have happened/);
    assert.equal(await requestCount(api, 'Addon/DeleteMobileStore'), 1);
    await emu(api, 'POST', 'faults/clear');

    // Everything the user had is still there, and the extension still works.
    assert.equal(JSON.stringify(api.titles.all()), titlesBefore);
    assert.equal(await api.hasSecretKey(RACER.titleId), true);
    assert.equal(await api.hasSecretKey(ARENA.titleId), true);
    for (const r of receiptsBefore) assert.ok(r !== undefined && api.jobs.get(r), `receipt ${r} lost`);
    p = script();
    await run(p, 'platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId, names: [name] });
    assert.deepEqual(p.errors, []);
    // And no secret surfaced in what the failures showed.
    const hits = search(await sinks(), [exact('secret key', RACER.secretKey), exact('secret key', ARENA.secretKey), { name: 'an entity token', test: (t) => /eyJ0Ijoi[A-Za-z0-9_-]{16,}/.test(t) }]);
    assert.deepEqual(hits, []);
  });
});
