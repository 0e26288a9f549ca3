// The production safety rail: the status bar names the active title and whether it is a real
// title or a local emulator; a title marked production needs its title ID typed before any delete.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import { children, requestCount, script, titleChild, useFreshExtension } from './support/harness';

const [RACER, ARENA] = DEMO_TITLES;
const PLAYER = DEMO_PLAYERS.find((p) => p.playedTitles.includes(RACER.titleId) && !p.banned)!;

describe('Production safety rail', () => {
  const ctx = useFreshExtension({ emulator: true });

  it('the status bar shows the active title, emulator or real, and clicking it picks the title', async () => {
    let bar = ctx.api.statusBar();
    assert.equal(bar.command, 'platformExplorer.pickTitle');
    assert.equal(bar.visible, true);
    assert.match(bar.text, /pick a title/, 'two titles and none picked yet');

    let p = script(ctx.api).choose(ARENA.name);
    assert.equal(await vscode.commands.executeCommand(bar.command), ARENA.titleId);
    p.assertDone();
    bar = ctx.api.statusBar();
    assert.match(bar.text, new RegExp(`${ARENA.name} \\(${ARENA.titleId}\\) · local emulator`));
    assert.match(bar.tooltip, new RegExp(`local emulator: ${ctx.api.emulator()!.origin.replace(/[.]/g, '\\.')}`));
    assert.equal(bar.warning, false);

    // A title of the real service (the placeholder endpoint is not loopback), picked as any command picks it.
    await ctx.api.titles.upsert({ titleId: 'BEEF', name: 'Live Game', endpointProfile: 'service' });
    p = script(ctx.api).choose('Live Game');
    await vscode.commands.executeCommand('platformExplorer.pickTitle');
    // The picker offers the last picked title first.
    assert.equal(p.picks[0].items[0].label, ARENA.name);
    bar = ctx.api.statusBar();
    assert.match(bar.text, /Live Game \(BEEF\) · real title/);
    assert.match(bar.tooltip, /Platform service: https:\/\/\{titleId\}\.platform\.example/);

    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.markProduction', { titleId: 'BEEF' });
    bar = ctx.api.statusBar();
    assert.match(bar.text, /Live Game \(BEEF\) · PRODUCTION/);
    assert.equal(bar.warning, true);

    // No title at all: nothing to show (the welcome view says what to do).
    await ctx.api.reset();
    assert.equal(ctx.api.statusBar().visible, false);
  });

  it('Mark as Production from the tree: a master account delete then needs the title ID typed as well', async () => {
    const title = (await children(ctx.api)).find((i) => i.label === RACER.name)!;
    assert.match(title.contextValue, /\bnotProduction\b/);
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.markProduction', title.node);
    const marked = (await children(ctx.api)).find((i) => i.label === RACER.name)!;
    assert.match(marked.contextValue, /\bproduction\b/);
    assert.match(marked.description, /production/);
    assert.equal(ctx.api.titles.get(RACER.titleId)?.production, true);

    // The wrong title ID typed: nothing is sent, the PlatformId is not even asked.
    let p = script(ctx.api).press('Delete').typeIn(ARENA.titleId);
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    assert.match(p.inputs[0].options.prompt ?? '', new RegExp(`marked production. Type its title ID ${RACER.titleId}`));
    assert.match(p.inputs[0].validation ?? '', new RegExp(`Type the title ID ${RACER.titleId}`));
    assert.equal(p.inputs.length, 1);
    assert.equal(await requestCount(ctx.api, 'Admin/DeleteMasterPlayerAccount'), 0);

    p = script(ctx.api).press('Delete').typeIn(RACER.titleId.toLowerCase()).typeIn(PLAYER.platformId);
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    p.assertDone();
    assert.equal(await requestCount(ctx.api, 'Admin/DeleteMasterPlayerAccount'), 1);

    // The other title is not production: no extra question.
    p = script(ctx.api).press('Delete');
    assert.equal(await vscode.commands.executeCommand('platformExplorer.deleteMobileStore', { titleId: ARENA.titleId }), 'deleted');
    p.assertDone();
  });

  it('an add-on delete on a production title needs the title ID; Unmark removes the question', async () => {
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.markProduction', { titleId: RACER.titleId });
    let p = script(ctx.api).press('Delete').typeIn(undefined);
    await vscode.commands.executeCommand('platformExplorer.deleteConsoleNetB', { titleId: RACER.titleId });
    assert.equal(p.inputs.length, 1);
    assert.equal(await requestCount(ctx.api, 'Addon/DeleteConsoleNetB'), 0);
    assert.equal((await titleChild(ctx.api, RACER.titleId, 'ConsoleNetB')).description, 'state unknown');

    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.unmarkProduction', { titleId: RACER.titleId });
    assert.equal(ctx.api.titles.get(RACER.titleId)?.production, undefined);
    p = script(ctx.api).press('Delete');
    assert.equal(await vscode.commands.executeCommand('platformExplorer.deleteConsoleNetB', { titleId: RACER.titleId }), 'deleted');
    p.assertDone();
  });
});
