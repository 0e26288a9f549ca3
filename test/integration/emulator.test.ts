// Start / Stop Local Emulator: the emulator runs in the extension host, its demo titles
// arrive with their keys in one step, and the tree shows their live state.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import type { TestApi } from '../../src/extension/testApi';
import { children, getApi, script, startEmulatorWithDemoTitles, startFresh, titleChild, titleItem } from './support/harness';

describe('Local emulator', () => {
  let api: TestApi;

  before(async () => {
    api = await getApi();
  });

  beforeEach(async () => {
    await startFresh(api);
  });

  after(async () => {
    await startEmulatorWithDemoTitles(api);
    await startFresh(api);
  });

  it('Start Local Emulator adds every demo title with its key, and the tree shows them', async () => {
    const p = script(api);
    const started = await vscode.commands.executeCommand<{ endpoint: string; titleIds: string[] }>('platformExplorer.startEmulator');
    p.assertDone();
    assert.ok(started);
    assert.match(started.endpoint, /^http:\/\/127\.0\.0\.1:\d+\/\{titleId\}$/);
    assert.deepEqual([...started.titleIds].sort(), DEMO_TITLES.map((t) => t.titleId).sort());
    assert.match(p.infos[0], /127\.0\.0\.1/);

    const roots = await children(api);
    assert.deepEqual(roots.map((r) => r.id).sort(), DEMO_TITLES.map((t) => `title/${t.titleId}`).sort());
    for (const t of DEMO_TITLES) {
      assert.equal(await api.hasSecretKey(t.titleId), true);
      const item = await titleItem(api, t.titleId);
      assert.equal(item.label, t.name);
      assert.equal(item.description, `${t.titleId} · key set · emulator`);
      assert.deepEqual(
        (await children(api, item.node)).map((c) => [c.label, c.description]),
        [
          ['HandheldStore', 'created'],
          ['MobileStore', 'state unknown'],
          ['ConsoleNetB', 'state unknown'],
          ['Deletion Jobs', 'none'],
        ],
      );
    }
    assert.ok(!JSON.stringify(api.stateSnapshot()).includes(DEMO_TITLES[0].secretKey), 'a demo key reached globalState');
  });

  it('starting again keeps one emulator and one entry per title', async () => {
    await startEmulatorWithDemoTitles(api);
    const first = api.emulator()!.origin;
    const p = script(api);
    await vscode.commands.executeCommand('platformExplorer.startEmulator');
    assert.equal(api.emulator()!.origin, first);
    assert.match(p.infos[0], /already running/);
    assert.equal(api.titles.all().length, DEMO_TITLES.length);
  });

  it('two starts at once run one emulator, not two (the first would be left running, unreachable to Stop)', async () => {
    await vscode.commands.executeCommand('platformExplorer.stopEmulator');
    const p = script(api);
    await Promise.all([vscode.commands.executeCommand('platformExplorer.startEmulator'), vscode.commands.executeCommand('platformExplorer.startEmulator')]);
    const origin = api.emulator()!.origin;
    const named = p.infos.map((m) => /http:\/\/127\.0\.0\.1:\d+/.exec(m)?.[0]).filter((x) => x !== undefined);
    assert.equal(named.length, 2, JSON.stringify(p.infos));
    assert.deepEqual([...new Set(named)], [origin], `both starts report the one emulator: ${JSON.stringify(p.infos)}`);
  });

  it('after Stop the titles stay and their live node turns into an error node with Show Log; Start brings them back', async () => {
    await startEmulatorWithDemoTitles(api);
    let p = script(api);
    assert.equal(await vscode.commands.executeCommand('platformExplorer.stopEmulator'), true);
    p.assertDone();
    assert.equal(api.emulator(), undefined);
    assert.equal(api.titles.all().length, DEMO_TITLES.length);

    const handheld = await titleChild(api, DEMO_TITLES[0].titleId, 'HandheldStore');
    assert.equal(handheld.description, 'could not load');
    assert.match(handheld.contextValue, /\berror\b/);
    const item = api.tree.getTreeItem(handheld.node) as vscode.TreeItem;
    assert.equal(item.command?.command, 'platformExplorer.showLog');
    assert.ok(api.logLines().some((l) => l.includes('HandheldStore of')), 'the failure should be in the log');

    // A command against a stopped emulator fails with a message, and the title survives.
    p = script(api);
    await vscode.commands.executeCommand('platformExplorer.showPlayedTitles', { titleId: DEMO_TITLES[0].titleId, platformId: 'ABCDEF0123456789' });
    assert.equal(p.errors.length, 1);
    // It points at Start Local Emulator, not at the endpoint setting.
    assert.match(p.errors[0], /could not connect to 127\.0\.0\.1:\d+ .*The local emulator is not running: Start Local Emulator starts it\.$/);
    assert.doesNotMatch(p.errors[0], /endpoint setting/);
    assert.equal(p.errorActions[0][0], 'Start Local Emulator');
    assert.ok(api.titles.get(DEMO_TITLES[0].titleId));

    await startEmulatorWithDemoTitles(api);
    assert.equal((await titleChild(api, DEMO_TITLES[0].titleId, 'HandheldStore')).description, 'created');
  });

  it('asks once before re-pointing titles of another emulator, naming its endpoint once; never for its own emulator\'s earlier address', async () => {
    await startEmulatorWithDemoTitles(api);
    // Two titles served by another emulator (e.g. npm run demo's), at one address.
    const other = 'http://127.0.0.1:9/{titleId}';
    for (const t of DEMO_TITLES.slice(0, 2)) await api.titles.upsert({ ...api.titles.get(t.titleId)!, emulatorEndpoint: other });
    await vscode.commands.executeCommand('platformExplorer.stopEmulator');
    let p = script(api).press('Re-point');
    await vscode.commands.executeCommand('platformExplorer.startEmulator');
    p.assertDone();
    assert.equal(p.confirms.length, 1);
    assert.equal(p.confirms[0].detail, `They now use ${other}; their secret keys will be replaced by the emulator's.`);
    // Stopped and started again (a new port): its own earlier address is not asked about.
    await vscode.commands.executeCommand('platformExplorer.stopEmulator');
    p = script(api);
    await vscode.commands.executeCommand('platformExplorer.startEmulator');
    p.assertDone();
    assert.deepEqual(p.confirms, []);
    for (const t of DEMO_TITLES) assert.equal(api.titles.get(t.titleId)?.emulatorEndpoint, api.emulator()!.endpoint);
  });

  it('never points a title configured for the service at the emulator', async () => {
    const t = DEMO_TITLES[1];
    script(api).typeIn(t.titleId).typeIn('My real title').choose('Platform service').typeIn('MYREALKEY0123456789abcdefABCDEF');
    await vscode.commands.executeCommand('platformExplorer.addTitle');
    const p = script(api);
    const started = await vscode.commands.executeCommand<{ titleIds: string[] }>('platformExplorer.startEmulator');
    assert.ok(!started?.titleIds.includes(t.titleId));
    assert.match(p.infos[0], new RegExp(`Skipped ${t.titleId}`));
    assert.deepEqual(api.titles.get(t.titleId), { titleId: t.titleId, name: 'My real title', endpointProfile: 'service' });
  });

  it('Start Local Emulator does not add back a demo title the user removed, and says so; Add Title brings it back', async () => {
    await startEmulatorWithDemoTitles(api);
    const [kept, gone] = DEMO_TITLES;
    script(api).press('Remove').typeIn(gone.titleId);
    await vscode.commands.executeCommand('platformExplorer.removeTitle', { titleId: gone.titleId });
    await vscode.commands.executeCommand('platformExplorer.stopEmulator');
    let p = script(api);
    const started = await vscode.commands.executeCommand<{ titleIds: string[] }>('platformExplorer.startEmulator');
    p.assertDone();
    assert.ok(started?.titleIds.includes(kept.titleId));
    assert.ok(!started?.titleIds.includes(gone.titleId), `a removed title was added back: ${JSON.stringify(started)}`);
    assert.equal(api.titles.get(gone.titleId), undefined);
    assert.equal(await api.hasSecretKey(gone.titleId), false);
    assert.match(p.infos[0], new RegExp(`Not added back: ${gone.name} \\(${gone.titleId}\\), which you removed`));
    // Added again by the user, it is a title again: the next start gives it the emulator's key.
    script(api).typeIn(gone.titleId).typeIn(gone.name).choose('Local emulator').typeIn(api.emulator()!.endpoint).typeIn(gone.secretKey);
    await vscode.commands.executeCommand('platformExplorer.addTitle');
    p = script(api);
    const again = await vscode.commands.executeCommand<{ titleIds: string[] }>('platformExplorer.startEmulator');
    assert.ok(again?.titleIds.includes(gone.titleId));
    assert.doesNotMatch(p.infos[0], /Not added back/);
  });

  it('Add Title with the local emulator profile offers the running emulator and works against it', async () => {
    await startEmulatorWithDemoTitles(api);
    const t = DEMO_TITLES[0];
    script(api).press('Remove').typeIn(t.titleId);
    await vscode.commands.executeCommand('platformExplorer.removeTitle', { titleId: t.titleId });
    const endpoint = api.emulator()!.endpoint;
    let p = script(api).typeIn(t.titleId).typeIn('Racer via emulator').choose('Local emulator').typeIn(endpoint).typeIn(t.secretKey);
    await vscode.commands.executeCommand('platformExplorer.addTitle');
    p.assertDone();
    assert.equal(p.inputs[2].options.value, endpoint, 'the running emulator\'s endpoint should be offered');
    assert.deepEqual(api.titles.get(t.titleId), { titleId: t.titleId, name: 'Racer via emulator', endpointProfile: 'emulator', emulatorEndpoint: endpoint });
    p = script(api);
    const played = await vscode.commands.executeCommand<string[]>('platformExplorer.showPlayedTitles', { titleId: t.titleId, platformId: DEMO_PLAYERS[0].platformId });
    p.assertDone();
    assert.deepEqual(played, DEMO_PLAYERS[0].playedTitles);
  });
});
