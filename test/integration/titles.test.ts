// Titles and keys: Add / Rename / Remove Title, Set / Replace / Clear Secret Key, where keys
// live (SecretStorage only), title picking, and the guards before any key is sent.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import type { TestApi } from '../../src/extension/testApi';
import { children, emu, requestCount, script, setServiceEndpoint, startEmulatorWithDemoTitles, titleChild, titleItem, useFreshExtension } from './support/harness';

const RACER = DEMO_TITLES[0];
const PLAYER = DEMO_PLAYERS[0];

/** Every place outside SecretStorage a key could leak to: extension state and our settings. */
function persistedOutsideSecretStorage(api: TestApi): string {
  const cfg = vscode.workspace.getConfiguration('platformExplorer');
  const settings = ['serviceEndpoint', 'lookupResultFormat', 'requestTimeoutSeconds', 'lookupConcurrency'].map((k) => cfg.inspect(k));
  return JSON.stringify({ state: api.stateSnapshot(), settings });
}


describe('Titles and keys', () => {
  const ctx = useFreshExtension({ emulator: false });

  it('Add Title checks the hex title ID as you type and adds nothing for an invalid one', async () => {
    const p = script(ctx.api).typeIn('F71AX');
    await vscode.commands.executeCommand('platformExplorer.addTitle');
    assert.match(p.inputs[0].validation ?? '', /not valid.*hex/);
    assert.deepEqual(ctx.api.titles.all(), []);
    assert.deepEqual(await children(ctx.api), []);
  });

  it('Add Title stores the title, and its key in SecretStorage only', async () => {
    const key = 'ADDTITLEKEY0123456789abcdefXYZ';
    const p = script(ctx.api).typeIn('c0ffee').typeIn('Coffee Racer').choose('Platform service').typeIn(key);
    await vscode.commands.executeCommand('platformExplorer.addTitle');
    p.assertDone();
    assert.deepEqual(ctx.api.titles.all(), [{ titleId: 'C0FFEE', name: 'Coffee Racer', endpointProfile: 'service' }]);
    assert.equal(await ctx.api.hasSecretKey('C0FFEE'), true);
    assert.ok(!persistedOutsideSecretStorage(ctx.api).includes(key), 'the key reached state or settings');
    const item = await titleItem(ctx.api, 'C0FFEE');
    assert.equal(item.label, 'Coffee Racer');
    assert.equal(item.description, 'C0FFEE · key set');
    assert.match(item.contextValue, /\btitle\b/);
    assert.match(item.contextValue, /\bkeySet\b/);
  });

  it('Add Title refuses a title ID that is already configured, and an emulator endpoint off this machine', async () => {
    script(ctx.api).typeIn('C0FFEE').typeIn('Coffee').choose('Platform service').typeIn('');
    await vscode.commands.executeCommand('platformExplorer.addTitle');
    assert.equal(await ctx.api.hasSecretKey('C0FFEE'), false);

    let p = script(ctx.api).typeIn('c0ffee');
    await vscode.commands.executeCommand('platformExplorer.addTitle');
    assert.match(p.inputs[0].validation ?? '', /already configured/);

    p = script(ctx.api).typeIn('BEEF').typeIn('Beef').choose('Local emulator').typeIn('https://10.1.2.3:8443/{titleId}');
    await vscode.commands.executeCommand('platformExplorer.addTitle');
    assert.match(p.inputs[2].validation ?? '', /not on this machine/);
    assert.deepEqual(ctx.api.titles.all().map((t) => t.titleId), ['C0FFEE']);
  });

  it('Add Title numbers each step once: four steps for the service, five with an emulator endpoint', async () => {
    const steps = (p: ReturnType<typeof script>): string[] => [...p.inputs.map((i) => i.options.title ?? ''), ...p.picks.map((x) => x.options.title ?? '')]
      .map((t) => /\((\d)\/(\d)\)/.exec(t)?.slice(1).join('/') ?? t).sort();
    let p = script(ctx.api).typeIn('BEEF').typeIn('Beef').choose('Platform service').typeIn('');
    await vscode.commands.executeCommand('platformExplorer.addTitle');
    p.assertDone();
    assert.deepEqual(steps(p), ['1/4', '2/4', '3/4', '4/4']);
    p = script(ctx.api).typeIn('CAFE').typeIn('Cafe').choose('Local emulator').typeIn('http://127.0.0.1:8080/{titleId}').typeIn('');
    await vscode.commands.executeCommand('platformExplorer.addTitle');
    p.assertDone();
    assert.deepEqual(steps(p), ['1/4', '2/4', '3/4', '4/5', '5/5'], 'a step number said twice, or a step without one');
  });

  it('Set, Replace and Clear Secret Key: the key works, is replaced, is removed, and never leaves SecretStorage', async () => {
    await startEmulatorWithDemoTitles(ctx.api);
    const wrong = 'WRONGKEYwrongkey0123456789ABCDEF';

    // Replace with a wrong key: the service refuses it; the title stays.
    let p = script(ctx.api).typeIn(wrong);
    await vscode.commands.executeCommand('platformExplorer.setSecretKey', { titleId: RACER.titleId });
    p.assertDone();
    p = script(ctx.api);
    const refused = await vscode.commands.executeCommand('platformExplorer.showPlayedTitles', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    assert.equal(refused, undefined);
    assert.equal(p.errors.length, 1);
    assert.match(p.errors[0], /key/i, 'the message should point at the secret key');
    assert.ok(!p.errors[0].includes(wrong), 'the error message shows the key');
    assert.ok(ctx.api.titles.get(RACER.titleId), 'the title was lost after a failing command');

    // Set the right key again: the same command now works.
    p = script(ctx.api).typeIn(RACER.secretKey);
    await vscode.commands.executeCommand('platformExplorer.setSecretKey', { titleId: RACER.titleId });
    p = script(ctx.api);
    const played = await vscode.commands.executeCommand<string[]>('platformExplorer.showPlayedTitles', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    assert.deepEqual(played, PLAYER.playedTitles);
    p.assertDone();

    const persisted = persistedOutsideSecretStorage(ctx.api);
    for (const k of [wrong, RACER.secretKey, DEMO_TITLES[1].secretKey]) {
      assert.ok(!persisted.includes(k), 'a key reached state or settings');
      assert.ok(!ctx.api.logLines().some((l) => l.includes(k)), 'a key reached the log');
    }

    // Clear: confirmation first; cancelling keeps the key.
    p = script(ctx.api).press(undefined);
    await vscode.commands.executeCommand('platformExplorer.clearSecretKey', { titleId: RACER.titleId });
    assert.equal(await ctx.api.hasSecretKey(RACER.titleId), true);
    p = script(ctx.api).press('Clear');
    await vscode.commands.executeCommand('platformExplorer.clearSecretKey', { titleId: RACER.titleId });
    p.assertDone();
    assert.equal(await ctx.api.hasSecretKey(RACER.titleId), false);
    assert.equal((await titleItem(ctx.api, RACER.titleId)).description, `${RACER.titleId} · no key · emulator`);
    const handheld = await titleChild(ctx.api, RACER.titleId, 'HandheldStore');
    assert.equal(handheld.description, 'not loaded (no secret key)');

    // Without a key, a command explains what to do and sends nothing.
    const before = await requestCount(ctx.api, 'Admin/GetPlayedTitleList');
    p = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.showPlayedTitles', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    assert.equal(p.errors.length, 1);
    assert.match(p.errors[0], /secret key/i);
    assert.equal(await requestCount(ctx.api, 'Admin/GetPlayedTitleList'), before);
  });

  it('Set Secret Key refuses an empty key or one with spaces as you type', async () => {
    script(ctx.api).typeIn('C0FFEE').typeIn('Coffee').choose('Platform service').typeIn('');
    await vscode.commands.executeCommand('platformExplorer.addTitle');
    const p = script(ctx.api).typeIn('has a space');
    await vscode.commands.executeCommand('platformExplorer.setSecretKey', { titleId: 'C0FFEE' });
    assert.match(p.inputs[0].validation ?? '', /spaces/);
    assert.equal(await ctx.api.hasSecretKey('C0FFEE'), false);
  });

  it('Rename changes the display name only; an empty name is refused', async () => {
    await startEmulatorWithDemoTitles(ctx.api);
    let p = script(ctx.api).typeIn('   ');
    await vscode.commands.executeCommand('platformExplorer.renameTitle', { titleId: RACER.titleId });
    assert.match(p.inputs[0].validation ?? '', /empty/);
    assert.equal(ctx.api.titles.get(RACER.titleId)?.name, RACER.name);
    p = script(ctx.api).typeIn('Racer (staging)');
    await vscode.commands.executeCommand('platformExplorer.renameTitle', { titleId: RACER.titleId });
    p.assertDone();
    assert.equal(ctx.api.titles.get(RACER.titleId)?.name, 'Racer (staging)');
    assert.equal((await titleItem(ctx.api, RACER.titleId)).label, 'Racer (staging)');
    assert.equal(await ctx.api.hasSecretKey(RACER.titleId), true);
  });

  it('Remove Title asks first, then removes the title and its secret key', async () => {
    await startEmulatorWithDemoTitles(ctx.api);
    let p = script(ctx.api).press(undefined);
    await vscode.commands.executeCommand('platformExplorer.removeTitle', { titleId: RACER.titleId });
    assert.ok(ctx.api.titles.get(RACER.titleId));
    assert.equal(await ctx.api.hasSecretKey(RACER.titleId), true);
    p = script(ctx.api).press('Remove').typeIn(RACER.titleId);
    await vscode.commands.executeCommand('platformExplorer.removeTitle', { titleId: RACER.titleId });
    p.assertDone();
    // It had a key: its title ID typed, nothing else.
    const typed = p.inputs[0].options;
    assert.match(typed.prompt ?? '', /Type F71AC \(the title ID\) to remove Demo Racer and delete its secret key/);
    assert.equal(await typed.validateInput!('f71ac'), undefined);
    assert.ok(await typed.validateInput!(''), 'Enter alone does not remove a title with a key');
    assert.ok(await typed.validateInput!('A248'), 'another title ID is refused');
    assert.equal(ctx.api.titles.get(RACER.titleId), undefined);
    assert.equal(await ctx.api.hasSecretKey(RACER.titleId), false);
    assert.deepEqual((await children(ctx.api)).map((c) => c.id), DEMO_TITLES.slice(1).map((t) => `title/${t.titleId}`), 'the other demo titles stay');
  });

  it('with several titles a command uses the active one without asking; the status bar\'s pick offers the active one first', async () => {
    await startEmulatorWithDemoTitles(ctx.api);
    const arena = DEMO_TITLES[1];
    let p = script(ctx.api).typeIn(PLAYER.platformId);
    await vscode.commands.executeCommand('platformExplorer.showPlayedTitles');
    p.assertDone();
    assert.equal(p.picks.length, 0, 'the active title (the first one) is used without asking');
    p = script(ctx.api).choose(arena.name);
    await vscode.commands.executeCommand('platformExplorer.pickTitle');
    p.assertDone();
    assert.deepEqual(p.picks[0].items.map((i) => i.description).sort(), DEMO_TITLES.map((t) => t.titleId).sort(), 'every demo title');
    p = script(ctx.api).choose(undefined);
    await vscode.commands.executeCommand('platformExplorer.pickTitle');
    assert.equal(p.picks[0].items[0].description, arena.titleId, 'the active title should come first');
    assert.deepEqual(p.errors, [], 'dismissing the pick is silent');
  });

  it('an unknown title in the argument is a clear error that names the title', async () => {
    const p = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.showPlayedTitles', { titleId: 'BAD1', platformId: PLAYER.platformId });
    assert.equal(p.errors.length, 1);
    assert.match(p.errors[0], /BAD1 is not configured/);
  });

  it('sends no key from an untrusted workspace', async () => {
    await startEmulatorWithDemoTitles(ctx.api);
    ctx.api.setTrusted(false);
    await emu(ctx.api, 'POST', 'stats/reset');
    const p = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.showPlayedTitles', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    assert.equal(p.errors.length, 1);
    assert.match(p.errors[0], /not trusted/);
    assert.equal((await titleChild(ctx.api, RACER.titleId, 'HandheldStore')).description, 'not loaded (workspace not trusted)');
    const stats = await emu<{ total: number }>(ctx.api, 'GET', 'stats');
    assert.equal(stats.total, 0, 'a request reached the service from an untrusted workspace');
  });

  it('refuses to send a key while the service endpoint is still the placeholder', async () => {
    script(ctx.api).typeIn('C0FFEE').typeIn('Coffee').choose('Platform service').typeIn('PLACEHOLDERTESTKEY0123456789abcd');
    await vscode.commands.executeCommand('platformExplorer.addTitle');
    const p = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.showPlayedTitles', { titleId: 'C0FFEE', platformId: PLAYER.platformId });
    assert.equal(p.errors.length, 1);
    assert.match(p.errors[0], /service endpoint is not set.*platformExplorer\.serviceEndpoint/);
    const handheld = await titleChild(ctx.api, 'C0FFEE', 'HandheldStore');
    assert.equal(handheld.description, 'could not load');
    assert.match(handheld.contextValue, /\berror\b/);
  });

  it('the user-level endpoint setting decides where a service title\'s key goes; plain http to a remote host is refused', async () => {
    await startEmulatorWithDemoTitles(ctx.api);
    const endpoint = ctx.api.emulator()!.endpoint;
    const arena = DEMO_TITLES[1];
    // Turn the emulator's second title into a "service" title: its requests now follow the setting.
    script(ctx.api).press('Remove').typeIn(arena.titleId);
    await vscode.commands.executeCommand('platformExplorer.removeTitle', { titleId: arena.titleId });
    script(ctx.api).typeIn(arena.titleId).typeIn(arena.name).choose('Platform service').typeIn(arena.secretKey);
    await vscode.commands.executeCommand('platformExplorer.addTitle');
    assert.equal(ctx.api.titles.get(arena.titleId)?.endpointProfile, 'service');
    const other = DEMO_PLAYERS.find((pl) => pl.playedTitles.includes(arena.titleId))!;
    try {
      await setServiceEndpoint(endpoint);
      let p = script(ctx.api);
      const played = await vscode.commands.executeCommand<string[]>('platformExplorer.showPlayedTitles', { titleId: arena.titleId, platformId: other.platformId });
      p.assertDone();
      assert.deepEqual(played, other.playedTitles);

      await setServiceEndpoint('http://{titleId}.platform.test');
      p = script(ctx.api);
      await vscode.commands.executeCommand('platformExplorer.showPlayedTitles', { titleId: arena.titleId, platformId: other.platformId });
      assert.equal(p.errors.length, 1, `the command ran: ${p.infos.join(' | ')}`);
      assert.match(p.errors[0], /https/);
    } finally {
      await setServiceEndpoint(undefined);
    }
  });
});
