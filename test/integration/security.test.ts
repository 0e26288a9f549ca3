// Security inside the real VS Code: secrets never reach any sink (settings, state, log, documents,
// webviews, messages, the tree), through success and failure; titles, keys and deletion receipts
// survive service failures. Hostile input (title IDs, endpoints, workspace settings): hostileInput.test.ts.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import type { TestApi } from '../../src/extension/testApi';
import type { PanelTraffic } from '../../src/extension/views/panelTraffic';
import { emu, getApi, requestCount, ScriptedPrompts, startEmulatorWithDemoTitles, startFresh } from './support/harness';
import { clientSecrets, exact, search, type Secret, sinks } from './support/secretSinks';

const RACER = DEMO_TITLES[0];
const ARENA = DEMO_TITLES[1];
const WRONG_KEY = 'WRONGKEYsecurityTest0123456789ABCDEFGH';
const players = DEMO_PLAYERS.filter((p) => p.launcherSubject !== undefined && p.playedTitles.includes(RACER.titleId) && !p.banned);
const LOGIN_PLAYER = players[0];
const DELETE_PLAYER = DEMO_PLAYERS.filter((p) => !p.banned && p !== LOGIN_PLAYER)[0];
const UNKNOWN_PLAYER = DEMO_PLAYERS.filter((p) => !p.banned && p !== LOGIN_PLAYER && p !== DELETE_PLAYER)[0];
const STOREFRONT = 'Server/GetPlatformIDsFromStorefrontNames';

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
    const all = await sinks(api, { traffic, prompts, returned });
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
    const hits = search(await sinks(api, { traffic, prompts, returned }), [exact('secret key', RACER.secretKey), exact('secret key', ARENA.secretKey), { name: 'an entity token', test: (t) => /eyJ0Ijoi[A-Za-z0-9_-]{16,}/.test(t) }]);
    assert.deepEqual(hits, []);
  });
});
