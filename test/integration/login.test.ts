// Test Launcher Login: the IdentityToken as a password input, CreateAccount, the
// InfoRequestParameters flags and UserDataKeys, CustomTags; the result panel; failures.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import type { TestApi } from '../../src/extension/testApi';
import { emu, script, setServiceEndpoint, useFreshExtension, waitForWebviewTab } from './support/harness';

const RACER = DEMO_TITLES[0];
// Emulator titles first offer to mint a token; these tests paste their own.
const PASTE = 'Paste an IdentityToken';
const PLAYER = DEMO_PLAYERS.find((p) => p.launcherSubject && p.playedTitles.includes(RACER.titleId) && !p.banned)!;

async function identityToken(api: TestApi, subject: string): Promise<string> {
  return (await emu<{ IdentityToken: string }>(api, 'POST', 'launcher-token', { titleId: RACER.titleId, subject })).IdentityToken;
}


describe('Test Launcher Login', () => {
  const ctx = useFreshExtension({ emulator: true });

  it('signs in with the chosen flags, shows the panel and never hands back a secret', async () => {
    const token = await identityToken(ctx.api, PLAYER.launcherSubject!);
    const p = script(ctx.api)
      .choose(PASTE)
      .typeIn(token)
      .choose('Sign in only')
      .chooseMany(['GetUserAccountInfo', 'GetUserVirtualCurrency'])
      .typeIn('build=1234, trace=abc');
    const result = await vscode.commands.executeCommand<Record<string, unknown>>('platformExplorer.testLauncherLogin', { titleId: RACER.titleId });
    p.assertDone();
    assert.equal(p.inputs[0].options.password, true, 'the IdentityToken prompt must be a password input');
    assert.ok(result);
    assert.equal(result.PlatformId, PLAYER.platformId);
    assert.equal(result.NewlyCreated, false);
    const payload = result.InfoResultPayload as Record<string, unknown>;
    assert.ok(payload.AccountInfo, 'GetUserAccountInfo was asked for');
    assert.ok(payload.UserVirtualCurrency, 'GetUserVirtualCurrency was asked for');
    assert.equal(payload.UserData, undefined, 'GetUserData was not asked for');
    const text = JSON.stringify(result);
    assert.ok(!text.includes(token), 'the identity token came back');
    assert.match(String(result.SessionTicket), /^••••/);
    await waitForWebviewTab(RACER.name);
    assert.ok(!ctx.api.logLines().some((l) => l.includes(token)), 'the identity token reached the log');
  });

  it('for an emulator title, offers to mint the IdentityToken from the emulator; a service title is asked for one', async () => {
    const p = script(ctx.api).choose('Mint a test IdentityToken').typeIn(PLAYER.launcherSubject!).choose('Sign in only').chooseMany([]).typeIn('');
    const result = await vscode.commands.executeCommand<Record<string, unknown>>('platformExplorer.testLauncherLogin', { titleId: RACER.titleId });
    p.assertDone();
    assert.equal(result?.PlatformId, PLAYER.platformId);
    assert.match(p.picks[0].items[0].detail ?? '', new RegExp(`local emulator at ${ctx.api.emulator()!.origin.replace(/\./g, '\\.')}`));
    assert.equal(p.inputs[0].options.value, 'launcher-user-0000');

    // A service title that can be used (an endpoint set, a key): the command checks both before it asks.
    await ctx.api.titles.upsert({ titleId: 'BEEF', name: 'Live Game', endpointProfile: 'service' });
    script(ctx.api).typeIn('LIVEGAMEKEY0123456789abcdefABCDEF');
    await vscode.commands.executeCommand('platformExplorer.setSecretKey', { titleId: 'BEEF' });
    await setServiceEndpoint(ctx.api.emulator()!.endpoint);
    try {
      const q = script(ctx.api).typeIn(undefined);
      await vscode.commands.executeCommand('platformExplorer.testLauncherLogin', { titleId: 'BEEF' });
      q.assertDone();
      assert.equal(q.picks.length, 0, 'no mint offer for a title of the service');
      assert.equal(q.inputs[0].options.password, true);
    } finally {
      await setServiceEndpoint(undefined);
    }
  });

  it('GetUserData asks for UserDataKeys; CreateAccount creates an unknown identity', async () => {
    const token = await identityToken(ctx.api, 'launcher-user-brand-new');
    const p = script(ctx.api).choose(PASTE).typeIn(token).choose('Create the account if needed').chooseMany(['GetUserData', 'GetPlayerProfile']).chooseMany([]).typeIn('').typeIn('');
    const result = await vscode.commands.executeCommand<Record<string, unknown>>('platformExplorer.testLauncherLogin', { titleId: RACER.titleId });
    p.assertDone();
    assert.equal(result?.NewlyCreated, true);
    // Each step counted once, of the steps the answers call for, with the title named.
    const on = `Test Launcher Login on ${RACER.name} (${RACER.titleId}), step`;
    assert.deepEqual([...p.picks.map((q) => q.options.title), ...p.inputs.map((q) => q.options.title)], [
      `${on} 1 of 4: IdentityToken`, `${on} 2 of 4: CreateAccount`, `${on} 3 of 4: InfoRequestParameters (what to return)`,
      `${on} 4 of 6: ProfileConstraints (profile members to return)`,
      `${on} 1 of 4: IdentityToken`, `${on} 5 of 6: UserDataKeys`, `${on} 6 of 6: CustomTags (optional)`,
    ]);
  });

  it('without CreateAccount an unknown identity fails with the mapped AccountNotFound message', async () => {
    const token = await identityToken(ctx.api, 'launcher-user-nobody');
    const p = script(ctx.api).choose(PASTE).typeIn(token).choose('Sign in only').chooseMany([]).typeIn('');
    assert.equal(await vscode.commands.executeCommand('platformExplorer.testLauncherLogin', { titleId: RACER.titleId }), undefined);
    assert.equal(p.errors.length, 1);
    assert.ok(!p.errors[0].includes(token));
  });

  it('a title without launcher sign-in fails with LauncherNotEnabledForTitle\'s message', async () => {
    await emu(ctx.api, 'POST', `titles/${RACER.titleId}/launcher`, { enabled: false });
    const token = await identityToken(ctx.api, PLAYER.launcherSubject!);
    const p = script(ctx.api).choose(PASTE).typeIn(token).choose('Sign in only').chooseMany([]).typeIn('');
    await vscode.commands.executeCommand('platformExplorer.testLauncherLogin', { titleId: RACER.titleId });
    assert.equal(p.errors.length, 1);
    assert.ok(ctx.api.logLines().some((l) => /LoginWithLauncher .*errorCode=1602/.test(l)), 'the log line carries the errorCode');
  });

  it('refuses a token that is not a JWT and bad CustomTags as you type', async () => {
    let p = script(ctx.api).choose(PASTE).typeIn('not a jwt');
    await vscode.commands.executeCommand('platformExplorer.testLauncherLogin', { titleId: RACER.titleId });
    assert.match(p.inputs[0].validation ?? '', /JWT/);
    const token = await identityToken(ctx.api, PLAYER.launcherSubject!);
    p = script(ctx.api).choose(PASTE).typeIn(token).choose('Sign in only').chooseMany([]).typeIn('no-equals-sign');
    await vscode.commands.executeCommand('platformExplorer.testLauncherLogin', { titleId: RACER.titleId });
    assert.match(p.inputs[1].validation ?? '', /CustomTags/);
    assert.deepEqual(p.errors, []);
  });
});
