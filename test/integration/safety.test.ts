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
    // Two titles and none picked yet: the first one configured is active, not "pick a title".
    assert.match(bar.text, new RegExp(`^\\$\\(vm\\) ${RACER.name} \\(${RACER.titleId}\\) · local emulator$`));
    assert.equal(bar.accessibleName, `Platform title ${RACER.name} (${RACER.titleId}), local emulator`);

    let p = script(ctx.api).choose(ARENA.name);
    assert.equal(await vscode.commands.executeCommand(bar.command), ARENA.titleId);
    p.assertDone();
    // The pick says what it sets, not "this command" (the status bar is not a command a person ran).
    assert.equal(p.picks[0].options.title, 'Which title?');
    assert.equal(p.picks[0].options.placeHolder, 'Commands run for this title until you pick another; the status bar shows it');
    bar = ctx.api.statusBar();
    assert.match(bar.text, new RegExp(`${ARENA.name} \\(${ARENA.titleId}\\) · local emulator`));
    assert.match(bar.tooltip, new RegExp(`local emulator: ${ctx.api.emulator()!.origin.replace(/[.]/g, '\\.')}`));
    assert.equal(bar.warning, false);

    // A title of the real service (the placeholder endpoint is not loopback).
    await ctx.api.titles.upsert({ titleId: 'BEEF', name: 'Live Game', endpointProfile: 'service' });
    p = script(ctx.api).choose('Live Game');
    await vscode.commands.executeCommand('platformExplorer.pickTitle');
    // The picker offers the active title first.
    assert.equal(p.picks[0].items[0].label, ARENA.name);
    bar = ctx.api.statusBar();
    assert.match(bar.text, /Live Game \(BEEF\) · real title/);
    assert.match(bar.tooltip, /Platform service: https:\/\/\{titleId\}\.platform\.example/);

    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.markProduction', { titleId: 'BEEF' });
    bar = ctx.api.statusBar();
    // PRODUCTION leads the text (a cut-off status bar still shows it) and is in the name read out, with the title ID.
    assert.match(bar.text, /^\$\(shield\) PRODUCTION · Live Game \(BEEF\) · real title$/);
    assert.equal(bar.accessibleName, 'Platform title Live Game (BEEF), PRODUCTION, real title');
    assert.equal(bar.warning, true);
    // An emulator title marked production says so too.
    await vscode.commands.executeCommand('platformExplorer.markProduction', { titleId: ARENA.titleId });
    script(ctx.api).choose(ARENA.name);
    await vscode.commands.executeCommand('platformExplorer.pickTitle');
    bar = ctx.api.statusBar();
    assert.match(bar.text, new RegExp(`^\\$\\(shield\\) PRODUCTION · ${ARENA.name} \\(${ARENA.titleId}\\) · local emulator$`));
    assert.equal(bar.warning, true);

    // No title at all: nothing to show (the welcome view says what to do).
    await ctx.api.reset();
    assert.equal(ctx.api.statusBar().visible, false);
  });

  it('commands act on the active title without asking; a title\'s node uses its own title; every confirmation and result names it', async () => {
    // The first title is active from the start: no "Which title?".
    let p = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.showPlayedTitles', { platformId: PLAYER.platformId });
    p.assertDone();
    assert.equal(p.picks.length, 0, 'no title was asked');
    assert.match(p.infos[0], new RegExp(`^${RACER.name} \\(${RACER.titleId}\\): PlatformId ${PLAYER.platformId} has played`));

    // The status bar's pick is what the palette's commands use next.
    script(ctx.api).choose(ARENA.name);
    await vscode.commands.executeCommand('platformExplorer.pickTitle');
    p = script(ctx.api).press('Delete');
    assert.equal(await vscode.commands.executeCommand('platformExplorer.deleteMobileStore'), 'deleted');
    p.assertDone();
    assert.equal(p.confirms[0].message, `Delete the MobileStore add-on of ${ARENA.name} (${ARENA.titleId})?`);
    assert.equal(p.infos[0], `Deleted the MobileStore add-on of ${ARENA.name} (${ARENA.titleId}).`);
    // From a node of the other title: that title, although Arena is active (and its add-on was not touched: 'deleted').
    const racerStore = await titleChild(ctx.api, RACER.titleId, 'MobileStore');
    p = script(ctx.api).press('Delete');
    assert.equal(await vscode.commands.executeCommand('platformExplorer.deleteMobileStore', racerStore.node), 'deleted');
    p.assertDone();
    assert.equal(p.confirms[0].message, `Delete the MobileStore add-on of ${RACER.name} (${RACER.titleId})?`);

    // A master account delete on the active production title: the confirmation and result name the title, the title ID is typed.
    await vscode.commands.executeCommand('platformExplorer.markProduction', { titleId: ARENA.titleId });
    p = script(ctx.api).press('Delete').typeIn(ARENA.titleId).typeIn(PLAYER.platformId);
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccount', { platformId: PLAYER.platformId });
    p.assertDone();
    assert.equal(p.confirms[0].message, `Delete the master player account ${PLAYER.platformId} through ${ARENA.name} (${ARENA.titleId})?`);
    assert.match(p.inputs[0].options.prompt ?? '', new RegExp(`marked production. Type its title ID ${ARENA.titleId}`));
    assert.match(p.infos.at(-1) ?? '', new RegExp(`^${ARENA.name} \\(${ARENA.titleId}\\): deletion of ${PLAYER.platformId} queued`));

    // The active title removed (two others left): none is active, and the next command asks.
    script(ctx.api);
    await ctx.api.titles.upsert({ titleId: 'BEEF', name: 'Live Game', endpointProfile: 'service' });
    await ctx.api.titles.remove(ARENA.titleId);
    assert.match(ctx.api.statusBar().text, /Platform: pick a title/);
    p = script(ctx.api).choose(RACER.name);
    await vscode.commands.executeCommand('platformExplorer.showPlayedTitles', { platformId: PLAYER.platformId });
    p.assertDone();
    assert.equal(p.picks[0].options.title, 'Which title?');
    assert.match(ctx.api.statusBar().text, new RegExp(`${RACER.name} \\(${RACER.titleId}\\)`));
  });

  it('Mark as Production from the tree: a master account delete then needs the title ID typed as well', async () => {
    const title = (await children(ctx.api)).find((i) => i.label === RACER.name)!;
    assert.match(title.contextValue, /\bnotProduction\b/);
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.markProduction', title.node);
    const marked = (await children(ctx.api)).find((i) => i.label === RACER.name)!;
    assert.match(marked.contextValue, /\bproduction\b/);
    assert.match(marked.description, new RegExp(`^PRODUCTION · ${RACER.titleId} · `), 'production leads the description, which a narrow view cuts at the end');
    assert.match(marked.accessibleName ?? '', /^Demo Racer, PRODUCTION · F71AC/);
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
