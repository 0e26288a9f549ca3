// The context every command call gets: a command checks that it can send the title's key
// (key set, workspace trusted, endpoint set) before its first question; a dismissed question
// stops it silently; a title's client follows its key without any command dropping it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import { requestCount, script, ScriptedPrompts, useFreshExtension } from './support/harness';

const RACER = DEMO_TITLES[0];
const PLAYER = DEMO_PLAYERS[0];

describe('Command context', () => {
  const ctx = useFreshExtension({ emulator: true });

  it('Look Up with no key set asks nothing and says what to do', async () => {
    script(ctx.api).press('Clear');
    await vscode.commands.executeCommand('platformExplorer.clearSecretKey', { titleId: RACER.titleId });
    assert.equal(await ctx.api.hasSecretKey(RACER.titleId), false);
    const p = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId });
    assert.deepEqual(p.unexpected, [], 'the command asked a question before it knew it could run');
    assert.equal(p.inputs.length, 0);
    assert.equal(p.errors.length, 1);
    assert.match(p.errors[0], /No secret key is set for .*\(F71AC\)\. Set it with "Platform: Set Secret Key"/);
  });

  it('an untrusted workspace and a missing key stop a command before its first question, and send nothing', async () => {
    ctx.api.setTrusted(false);
    let p = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.showPlayedTitles', { titleId: RACER.titleId });
    await vscode.commands.executeCommand('platformExplorer.testLauncherLogin', { titleId: RACER.titleId });
    assert.deepEqual(p.unexpected, []);
    assert.equal(p.errors.length, 2);
    p.errors.forEach((e) => assert.match(e, /not trusted/));
    ctx.api.setTrusted(undefined);

    script(ctx.api).press('Clear');
    await vscode.commands.executeCommand('platformExplorer.clearSecretKey', { titleId: RACER.titleId });
    p = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId });
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccountsFromList', { titleId: RACER.titleId, text: PLAYER.platformId });
    assert.deepEqual(p.unexpected, []);
    assert.equal(p.errors.length, 2);
    p.errors.forEach((e) => assert.match(e, /No secret key is set/));
    assert.equal(await requestCount(ctx.api, 'Admin/GetPlayedTitleList'), 0);
  });

  it('each failure offers the action that fixes it, before Show Log', async () => {
    const offered = async (command: string, arg: unknown): Promise<string[]> => {
      const p = script(ctx.api);
      await vscode.commands.executeCommand(command, arg);
      assert.equal(p.errors.length, 1, `${command}: ${JSON.stringify(p.errors)}`);
      return p.errorActions[0];
    };
    ctx.api.setTrusted(false);
    assert.deepEqual(await offered('platformExplorer.showPlayedTitles', { titleId: RACER.titleId }), ['Manage Workspace Trust', 'Show Log']);
    ctx.api.setTrusted(undefined);
    assert.deepEqual(await offered('platformExplorer.showPlayedTitles', { titleId: 'ABCD9' }), ['Add Title', 'Show Log']);
    // A key the service refuses (SecretKeyNotFound): replace it.
    script(ctx.api).typeIn('WRONGKEY0123456789ABCDEFGHIJKL');
    await vscode.commands.executeCommand('platformExplorer.setSecretKey', { titleId: RACER.titleId });
    assert.deepEqual(await offered('platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId, names: ['someone'] }), ['Replace Secret Key', 'Show Log']);
    script(ctx.api).press('Clear');
    await vscode.commands.executeCommand('platformExplorer.clearSecretKey', { titleId: RACER.titleId });
    assert.deepEqual(await offered('platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId, names: ['someone'] }), ['Set Secret Key', 'Show Log']);
    // The local emulator stopped: start it.
    script(ctx.api).typeIn(RACER.secretKey);
    await vscode.commands.executeCommand('platformExplorer.setSecretKey', { titleId: RACER.titleId });
    await vscode.commands.executeCommand('platformExplorer.stopEmulator');
    assert.deepEqual(await offered('platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId, names: ['someone'] }), ['Start Local Emulator', 'Show Log']);
  });

  it('a dismissed question stops the command silently, and the log says it was cancelled', async () => {
    const p = script(ctx.api).typeIn(undefined);
    const result = await vscode.commands.executeCommand('platformExplorer.renameTitle', { titleId: RACER.titleId });
    p.assertDone();
    assert.equal(result, undefined);
    assert.deepEqual(p.errors, []);
    assert.equal(ctx.api.titles.get(RACER.titleId)?.name, RACER.name);
    assert.ok(ctx.api.logLines().some((l) => l === 'platformExplorer.renameTitle: cancelled'), 'no cancelled line in the log');
  });

  it('a replaced key is used by the next call: the title\'s client and its entity token go with the old key', async () => {
    const first = await ctx.api.readHandheldStore(RACER.titleId);
    assert.equal(first.Created, true, JSON.stringify(first));
    assert.equal(await requestCount(ctx.api, 'Authentication/GetEntityToken'), 1);

    // A wrong key: were the old client (and its cached entity token) kept, this call would still succeed.
    script(ctx.api).typeIn('WRONGKEYwrongkey0123456789ABCDEF');
    await vscode.commands.executeCommand('platformExplorer.setSecretKey', { titleId: RACER.titleId });
    const refused = await ctx.api.readHandheldStore(RACER.titleId);
    assert.match(String(refused.error), /key/i, JSON.stringify(refused));
    assert.equal(await requestCount(ctx.api, 'Authentication/GetEntityToken'), 2);

    script(ctx.api).typeIn(RACER.secretKey);
    await vscode.commands.executeCommand('platformExplorer.setSecretKey', { titleId: RACER.titleId });
    const again = await ctx.api.readHandheldStore(RACER.titleId);
    assert.equal(again.Created, true, JSON.stringify(again));
  });

  it('a setting changed while a command asks its question does not stop it: the lookup is sent once', async () => {
    const cfg = vscode.workspace.getConfiguration('platformExplorer');
    // The client is got before the first question; a settings change then drops every client.
    class ChangeSettingWhileAsked extends ScriptedPrompts {
      override async input(options: vscode.InputBoxOptions): Promise<string | undefined> {
        const applied = new Promise<void>((resolve) => {
          const sub = vscode.workspace.onDidChangeConfiguration((e) => {
            if (e.affectsConfiguration('platformExplorer.requestTimeoutSeconds')) { sub.dispose(); resolve(); }
          });
        });
        await cfg.update('requestTimeoutSeconds', 29, vscode.ConfigurationTarget.Global);
        await applied;
        return super.input(options);
      }
    }
    const p = new ChangeSettingWhileAsked().typeIn(PLAYER.storefrontNames[0] ?? 'someone');
    ctx.api.setPrompts(p);
    const before = await requestCount(ctx.api, 'Server/GetPlatformIDsFromStorefrontNames');
    try {
      await vscode.commands.executeCommand('platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId });
    } finally {
      await cfg.update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
    p.assertDone();
    assert.equal(await requestCount(ctx.api, 'Server/GetPlatformIDsFromStorefrontNames'), before + 1, 'the lookup was not sent');
  });
});
