// Saying exactly what happened (issue 17 items 8 and 10): a service that never answers is retried
// aloud ("attempt 2 of 4") and the error says how long it waited; an outcome unknown offers Verify
// Now; deleting a player already deleted is information, not an error.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import { emu, requestCount, script, useFreshExtension } from './support/harness';

const [RACER] = DEMO_TITLES;
const PLAYER = DEMO_PLAYERS.find((p) => p.playedTitles.includes(RACER.titleId))!;

describe('What happened, said', () => {
  const ctx = useFreshExtension({ emulator: true });
  const cfg = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('platformExplorer');

  afterEach(async () => {
    await emu(ctx.api, 'POST', 'faults/clear');
    await cfg().update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
  });

  it('says each retry as it starts, and the error says how long it waited over how many attempts', async () => {
    await cfg().update('requestTimeoutSeconds', 1, vscode.ConfigurationTarget.Global);
    await emu(ctx.api, 'POST', 'faults', { rules: [{ operation: 'Admin/GetPlayedTitleList', kind: 'timeout', times: -1 }] });
    const p = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.showPlayedTitles', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    const attempts = await requestCount(ctx.api, 'Admin/GetPlayedTitleList');
    assert.equal(attempts, 4);
    assert.deepEqual(p.statuses, [2, 3, 4].map((n) =>
      `Platform: GetPlayedTitleList on ${RACER.titleId}: GetPlayedTitleList: the service did not answer within 1 s. Retrying (attempt ${n} of 4)…`));
    // Said where it is seen and announced: a progress notification of its own (no command progress is open).
    assert.deepEqual(p.progressTitles, [`Platform: GetPlayedTitleList on ${RACER.titleId}`]);
    assert.deepEqual(p.progressMessages, [2, 3, 4].map((n) => `retrying (attempt ${n} of 4)… GetPlayedTitleList: the service did not answer within 1 s.`));
    assert.equal(p.errors.length, 1);
    assert.match(p.errors[0], /^GetPlayedTitleList: the service did not answer within 1 s\. Waited \d+(\.\d)? s in all over 4 attempts\./);
    const waited = Number(/Waited (\d+(?:\.\d)?) s/.exec(p.errors[0])![1]);
    assert.ok(waited >= 4, `waited ${waited} s for four attempts of 1 s`);
  });

  it('a retry during a command\'s progress is said in that progress notification', async () => {
    await cfg().update('requestTimeoutSeconds', 1, vscode.ConfigurationTarget.Global);
    await emu(ctx.api, 'POST', 'faults', { rules: [{ operation: 'Admin/GetPlayedTitleList', kind: 'timeout', times: 1 }] });
    // The ticket left empty; the typed confirmation is not answered, so nothing is sent.
    const p = script(ctx.api).typeIn('');
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccountsFromList', { titleId: RACER.titleId, text: PLAYER.platformId });
    assert.deepEqual(p.progressTitles, ['Checking 1 identifiers…'], 'no second notification');
    assert.ok(p.progressMessages.includes('retrying (attempt 2 of 4)… GetPlayedTitleList: the service did not answer within 1 s.'), JSON.stringify(p.progressMessages));
    assert.equal(await requestCount(ctx.api, 'Admin/DeleteMasterPlayerAccount'), 0);
  });

  it('a deletion whose outcome is unknown offers Verify Now first', async () => {
    await emu(ctx.api, 'POST', 'faults', { rules: [{ operation: 'Admin/DeleteMasterPlayerAccount', kind: 'reset-after' }] });
    const p = script(ctx.api).press('Delete').typeIn(PLAYER.platformId);
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    assert.equal(p.errors.length, 1);
    assert.match(p.errors[0], /may or may not have happened/);
    assert.deepEqual(p.errorActions[0], ['Verify Now', 'Show Log']);
  });

  it('deleting a player already deleted says so as information, and sends nothing', async () => {
    let p = script(ctx.api).press('Delete').typeIn(PLAYER.platformId);
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    p.assertDone();
    await emu(ctx.api, 'POST', 'clock/advance', { ms: 24 * 3600 * 1000 });
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.verifyDeletions', { titleId: RACER.titleId });
    p = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    p.assertDone();
    assert.match(p.infos[0], new RegExp(`^${RACER.name} \\(${RACER.titleId}\\): ${PLAYER.platformId} is already deleted \\(verified .+\\); nothing was sent\\.$`));
    assert.equal(await requestCount(ctx.api, 'Admin/DeleteMasterPlayerAccount'), 1);
  });

  it('Copy as JSON with nothing shown says so and leaves the clipboard as it was', async () => {
    await vscode.env.clipboard.writeText('kept');
    const p = script(ctx.api);
    assert.equal(await vscode.commands.executeCommand('platformExplorer.copyAllActivityJson'), '');
    p.assertDone();
    assert.deepEqual(p.infos, ['Nothing to copy: Activity has no entries yet.']);
    assert.equal(await vscode.env.clipboard.readText(), 'kept');
  });
});
