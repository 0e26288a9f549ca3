// The Titles view as a user works it: several items selected at once (copy IDs, export or verify
// several jobs, remove several titles), F2 and Delete on the selection, Copy Title ID, and a
// filter for many titles and jobs.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import type { TreeNode } from '../../src/extension/tree/nodes';
import { children, documentText, emu, EXTENSION_ID, openText, requestCount, resultsOpenedDuring, script, titleChild, titleItem, useFreshExtension, type ShownItem } from './support/harness';

const [RACER, ARENA, KART] = DEMO_TITLES;
const IDS = DEMO_PLAYERS.slice(0, 3).map((p) => p.platformId);
const PLAYED = 'Admin/GetPlayedTitleList';

/** Selects `node` in the Titles view as a click would, and waits until the extension sees it. */
async function select(api: { tree: { view?: vscode.TreeView<TreeNode> } }, node: TreeNode): Promise<void> {
  const view = api.tree.view!;
  await view.reveal(node, { select: true, focus: true });
  for (let i = 0; i < 250 && view.selection.map((n) => n.id).join() !== node.id; i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.deepEqual(view.selection.map((n) => n.id), [node.id], 'the view did not select the node');
}

describe('Titles view: selection, keys and filter', () => {
  const ctx = useFreshExtension({ emulator: true });

  /** Three deletions of the demo racer, in one batch, queued on the emulator; its job nodes. */
  async function threeJobs(): Promise<ShownItem[]> {
    const p = script(ctx.api).typeIn('T-77').typeIn('3 F71AC').press('Delete 3 Accounts');
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccountsFromList', { text: IDS.join('\n') });
    p.assertDone();
    const jobs = await titleChild(ctx.api, RACER.titleId, 'Deletion Jobs');
    const [batch] = await children(ctx.api, jobs.node);
    return children(ctx.api, batch.node);
  }

  /** Runs `label` from the real Command Palette (F1) as a person does; resolves once `done()` holds. */
  async function fromPalette(label: string, done: () => boolean): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.quickOpen', `>${label}`);
    // The palette fills its list asynchronously: accept until the command has run.
    for (let i = 0; i < 100 && !done(); i++) {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(done(), `${label} did not run from the Command Palette`);
  }

  it('Show Played Titles from the palette while the Titles view has focus asks, not the editor behind it', async () => {
    const [behind, typed] = IDS;
    const editor = await openText(`ticket: ${behind}`, { selections: [new vscode.Selection(0, 10, 0, 10)] });
    await select(ctx.api, (await titleItem(ctx.api, RACER.titleId)).node);
    const p = script(ctx.api).typeIn(typed);
    await fromPalette('Show Played Titles', () => p.infos.length + p.errors.length > 0);
    assert.equal(p.inputs.length, 1, `it did not ask: ${JSON.stringify(p.infos)}`);
    assert.match(p.infos[0], new RegExp(`PlatformId ${typed} has played`));
    assert.ok(!p.infos[0].includes(behind), 'it took the PlatformId of the editor behind the view');
    p.assertDone();

    // With the editor focused again, the palette's Show Played Titles takes its cursor's PlatformId.
    await vscode.window.showTextDocument(editor.document);
    const q = script(ctx.api);
    await fromPalette('Show Played Titles', () => q.infos.length + q.errors.length > 0);
    assert.match(q.infos[0], new RegExp(`PlatformId ${behind} has played`));
    q.assertDone();
  });

  it('Show Played Titles from the palette while a deletion job is selected in the Titles view checks that job\'s PlatformId', async () => {
    const [job] = await threeJobs();
    await openText(`ticket: ${IDS.find((id) => id !== job.label)!}`, { selections: [new vscode.Selection(0, 10, 0, 10)] });
    await select(ctx.api, job.node);
    const p = script(ctx.api);
    await fromPalette('Show Played Titles', () => p.infos.length + p.errors.length > 0);
    assert.match(p.infos[0], new RegExp(`PlatformId ${job.label} has played`));
    p.assertDone();
  });

  // The same palette split for the other commands that read the editor's PlatformId.
  it('Copy PlatformId from the palette while the Titles view has focus copies the selected job\'s PlatformId, else says what to select; never the editor behind it', async () => {
    const [job] = await threeJobs();
    const behind = IDS.find((id) => id !== job.label)!;
    await openText(`ticket: ${behind}`, { selections: [new vscode.Selection(0, 10, 0, 10)] });
    await select(ctx.api, job.node);
    await vscode.env.clipboard.writeText('before');
    let p = script(ctx.api);
    await fromPalette('Platform: Copy PlatformId', () => p.statuses.length + p.infos.length + p.errors.length > 0);
    assert.equal(await vscode.env.clipboard.readText(), job.label);
    p.assertDone();

    await select(ctx.api, (await titleItem(ctx.api, RACER.titleId)).node);
    await vscode.env.clipboard.writeText('before');
    p = script(ctx.api);
    await fromPalette('Platform: Copy PlatformId', () => p.statuses.length + p.infos.length + p.errors.length > 0);
    assert.deepEqual(p.infos, ['Select a deletion job in the Titles view to copy its PlatformId.']);
    assert.equal(await vscode.env.clipboard.readText(), 'before', 'it copied the PlatformId of the editor behind the view');
    p.assertDone();
  });

  it('Delete Master Player Account from the palette while the Titles view has focus takes the selected job\'s player, else asks; never the editor behind it', async () => {
    const [job] = await threeJobs();
    const behind = IDS.find((id) => id !== job.label)!;
    const editor = await openText(`ticket: ${behind}`, { selections: [new vscode.Selection(0, 10, 0, 10)] });
    await select(ctx.api, job.node);
    // The job is queued: the command says so and sends nothing.
    let p = script(ctx.api).press(undefined);
    await fromPalette('Platform: Delete Master Player Account', () => p.confirms.length + p.inputs.length + p.errors.length > 0);
    assert.match(p.confirms[0]?.message ?? '', new RegExp(`A deletion of ${job.label} is already queued`), JSON.stringify(p.confirms));
    p.assertDone();

    // A title selected: it asks which player (given up here), and never looks up the editor's one.
    const before = await requestCount(ctx.api, PLAYED);
    await select(ctx.api, (await titleItem(ctx.api, RACER.titleId)).node);
    p = script(ctx.api).typeIn(undefined);
    await fromPalette('Platform: Delete Master Player Account', () => p.confirms.length + p.inputs.length + p.errors.length > 0);
    assert.equal(p.inputs.length, 1, `it did not ask: ${JSON.stringify(p.confirms)}`);
    assert.equal(p.inputs[0].options.title, 'Delete Master Player Account');
    assert.deepEqual(p.confirms, []);
    assert.equal(await requestCount(ctx.api, PLAYED), before, 'it looked up the player of the editor behind the view');

    // With the editor focused again, the palette's command takes its cursor's PlatformId.
    await vscode.window.showTextDocument(editor.document);
    p = script(ctx.api).press(undefined);
    await fromPalette('Platform: Delete Master Player Account', () => p.confirms.length + p.inputs.length + p.errors.length > 0);
    // (threeJobs queued it too: the command says so, naming the editor's PlatformId.)
    assert.match(p.confirms[0]?.message ?? '', new RegExp(`A deletion of ${behind} is already queued`));
  });

  it('Look Up Account Info from the palette while a deletion job is selected in the Titles view looks up that job\'s player without asking', async () => {
    const [job] = await threeJobs();
    await openText(`ticket: ${IDS.find((id) => id !== job.label)!}`, { selections: [new vscode.Selection(0, 10, 0, 10)] });
    await select(ctx.api, job.node);
    const p = script(ctx.api);
    const { opened } = await resultsOpenedDuring(() => fromPalette('Look Up Account Info', () => p.picks.length + p.inputs.length + p.errors.length > 0
      || vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'platform-result' && d.uri.path.includes('Account info'))));
    assert.deepEqual([p.picks.length, p.inputs.length], [0, 0], 'it asked for the player');
    p.assertDone();
    const shown = JSON.parse(opened.find((d) => d.uri.path.includes('Account info'))?.getText() ?? '{}') as { lookedUpBy?: unknown };
    assert.deepEqual(shown.lookedUpBy, { PlatformId: job.label });
  });

  it('Copy Title ID copies the title, or every selected title one per line', async () => {
    const racer = await titleItem(ctx.api, RACER.titleId);
    const arena = await titleItem(ctx.api, ARENA.titleId);
    await vscode.env.clipboard.writeText('before');
    assert.equal(await vscode.commands.executeCommand('platformExplorer.copyTitleId', racer.node), RACER.titleId);
    assert.equal(await vscode.env.clipboard.readText(), RACER.titleId);
    // From the menu on a multi-selection VS Code passes the clicked node and the selection.
    await vscode.commands.executeCommand('platformExplorer.copyTitleId', arena.node, [racer.node, arena.node]);
    assert.equal(await vscode.env.clipboard.readText(), `${RACER.titleId}\n${ARENA.titleId}`);
  });

  it('Copy Title ID on an item that is no title says so in a message (announced), not only in the status bar', async () => {
    const addon = await titleChild(ctx.api, RACER.titleId, 'HandheldStore');
    await vscode.env.clipboard.writeText('before');
    const p = script(ctx.api);
    assert.equal(await vscode.commands.executeCommand('platformExplorer.copyTitleId', addon.node), undefined);
    assert.equal(p.infos.length, 1, JSON.stringify({ infos: p.infos, statuses: p.statuses }));
    assert.match(p.infos[0], /Select a title in the Platform view to copy its ID/);
    assert.deepEqual(p.statuses, []);
    assert.equal(await vscode.env.clipboard.readText(), 'before');
  });

  it('several selected jobs: Copy PlatformId and Copy JobReceiptId copy them all; Export holds just those', async () => {
    const jobs = await threeJobs();
    assert.equal(jobs.length, 3);
    const [a, b] = jobs;
    const ledger = ctx.api.jobs.all();
    const ids = [a.label, b.label];

    await vscode.commands.executeCommand('platformExplorer.copyPlatformId', a.node, [a.node, b.node]);
    assert.equal(await vscode.env.clipboard.readText(), ids.join('\n'));
    await vscode.commands.executeCommand('platformExplorer.copyJobReceiptId', b.node, [a.node, b.node]);
    const receipts = ids.map((id) => ledger.find((j) => j.platformId === id)!.jobReceiptId);
    assert.equal(await vscode.env.clipboard.readText(), receipts.join('\n'));

    script(ctx.api).choose('JSON');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('platformExplorer.exportDeletionJobs', a.node, [a.node, b.node]);
    const exported = JSON.parse(documentText(uri)) as { deletions: { platformId: string }[] };
    assert.deepEqual(exported.deletions.map((r) => r.platformId).sort(), [...ids].sort(), 'the export holds the selected jobs only');
  });

  it('Verify Deletions on several selected jobs asks the service about those only', async () => {
    const jobs = await threeJobs();
    await emu(ctx.api, 'POST', 'clock/advance', { ms: 24 * 3600 * 1000 });
    const before = await requestCount(ctx.api, PLAYED);
    script(ctx.api);
    const r = await vscode.commands.executeCommand<{ verified: string[] }>('platformExplorer.verifyDeletions', jobs[0].node, [jobs[0].node, jobs[2].node]);
    assert.equal(await requestCount(ctx.api, PLAYED) - before, 2, 'one GetPlayedTitleList per selected job');
    assert.deepEqual([...r.verified].sort(), [jobs[0].label, jobs[2].label].sort());
    const states = Object.fromEntries(ctx.api.jobs.all().map((j) => [j.platformId, j.state]));
    assert.equal(states[jobs[1].label], 'queued', 'the job not selected was left alone');
  });

  it('Mark as Production and Clear Secret Key on several selected titles act on them all', async () => {
    const racer = await titleItem(ctx.api, RACER.titleId);
    const arena = await titleItem(ctx.api, ARENA.titleId);
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.markProduction', arena.node, [racer.node, arena.node]);
    assert.deepEqual([RACER, ARENA, KART].map((t) => ctx.api.titles.get(t.titleId)?.production === true), [true, true, false], 'the two selected');
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.unmarkProduction', racer.node, [racer.node, arena.node]);
    assert.deepEqual([RACER, ARENA, KART].map((t) => ctx.api.titles.get(t.titleId)?.production === true), [false, false, false]);

    const p = script(ctx.api).press('Clear');
    await vscode.commands.executeCommand('platformExplorer.clearSecretKey', racer.node, [racer.node, arena.node]);
    p.assertDone();
    assert.equal(p.confirms.length, 1);
    assert.equal(p.confirms[0].message, `Clear the secret keys of ${RACER.name} (${RACER.titleId}), ${ARENA.name} (${ARENA.titleId})?`);
    assert.deepEqual([await ctx.api.hasSecretKey(RACER.titleId), await ctx.api.hasSecretKey(ARENA.titleId)], [false, false]);
  });

  it('the title bar acts on the whole view: it passes the focused item, so no node-taking command sits there', async () => {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { menus: Record<string, { command: string; when?: string }[]> } };
    const titleBar = manifest.contributes.menus['view/title'].filter((m) => /view == platformExplorer\.titles\b/.test(m.when ?? '')).map((m) => m.command);
    assert.ok(!titleBar.includes('platformExplorer.exportDeletionJobs'), 'Export Deletion Jobs there would export only the focused node\'s jobs');
    // The palette's Export, with no argument, exports every title's jobs.
    await threeJobs();
    script(ctx.api).choose('JSON');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('platformExplorer.exportDeletionJobs');
    assert.equal((JSON.parse(documentText(uri)) as { deletions: unknown[] }).deletions.length, 3);
  });

  it('Ctrl+C (Cmd+C) in the Titles view copies the focused item: a title\'s ID, a job\'s PlatformId, else its name', async () => {
    const keys = (JSON.parse(readFileSync(join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'package.json'), 'utf8')) as {
      contributes: { keybindings: { command: string; key: string; mac?: string; when: string; args?: unknown }[] };
    }).contributes.keybindings;
    const copy = keys.find((k) => k.key === 'ctrl+c');
    assert.equal(copy?.command, 'platformExplorer.copyItem');
    assert.equal(copy.mac, 'cmd+c');
    assert.match(copy.when, /focusedView == platformExplorer\.titles/);
    assert.match(copy.when, /!inputFocus/);
    const cases: [ShownItem, string][] = [];
    const jobs = await threeJobs();
    cases.push([await titleItem(ctx.api, ARENA.titleId), ARENA.titleId], [jobs[1], jobs[1].label], [await titleChild(ctx.api, RACER.titleId, 'HandheldStore'), 'HandheldStore']);
    for (const [item, expected] of cases) {
      await select(ctx.api, item.node);
      await vscode.env.clipboard.writeText('before');
      const p = script(ctx.api);
      await vscode.commands.executeCommand(copy.command, copy.args);
      assert.equal(await vscode.env.clipboard.readText(), expected);
      // Announced (a notification, read out by screen readers), not only a status-bar note.
      assert.deepEqual(p.infos, [`Copied ${expected}`]);
    }
  });

  it('F2 renames and Delete removes the focused title (the selection where VS Code passes no focused node); Remove on several selected titles asks once', async () => {
    const keys = (JSON.parse(readFileSync(join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'package.json'), 'utf8')) as {
      contributes: { keybindings: { command: string; key: string; when: string; args?: unknown }[] };
    }).contributes.keybindings;
    const f2 = keys.find((k) => k.key === 'f2');
    const del = keys.find((k) => k.key === 'delete');
    assert.equal(f2?.command, 'platformExplorer.renameTitle');
    assert.equal(del?.command, 'platformExplorer.removeTitle');
    for (const k of [f2!, del!]) {
      assert.match(k.when, /focusedView == platformExplorer\.titles/);
      assert.match(k.when, /!inputFocus/);
    }

    // F2 runs its binding's command with its arguments: the selected title is renamed.
    await select(ctx.api, (await titleItem(ctx.api, ARENA.titleId)).node);
    let p = script(ctx.api).typeIn('Arena Renamed');
    await vscode.commands.executeCommand(f2!.command, f2!.args);
    p.assertDone();
    assert.match(p.inputs[0].options.title ?? '', new RegExp(ARENA.titleId));
    assert.equal(ctx.api.titles.get(ARENA.titleId)?.name, 'Arena Renamed');
    assert.equal(ctx.api.titles.get(RACER.titleId)?.name, RACER.name);

    // Delete on a deletion job removes nothing and asks nothing.
    const jobs = await threeJobs();
    await select(ctx.api, jobs[0].node);
    p = script(ctx.api);
    assert.equal(await vscode.commands.executeCommand(del!.command, del!.args), false);
    assert.equal(p.confirms.length, 0);
    assert.equal(ctx.api.titles.all().length, DEMO_TITLES.length);
    // The same with the focused job as VS Code passes it: said in a message (announced), not the status bar.
    p = script(ctx.api);
    assert.equal(await vscode.commands.executeCommand(del!.command, jobs[0].node), false);
    assert.match(p.infos.join('\n'), /Only a title can be removed: move to a title in the Titles view/);
    assert.deepEqual(p.statuses, []);
    // The focused title when the focus left the selection: the focused one, never the selected one.
    await select(ctx.api, (await titleItem(ctx.api, RACER.titleId)).node);
    p = script(ctx.api).press(undefined);
    await vscode.commands.executeCommand(del!.command, (await titleItem(ctx.api, ARENA.titleId)).node);
    assert.match(p.confirms[0].message, new RegExp(`Remove title Arena Renamed \\(${ARENA.titleId}\\)\\?`));

    // Delete on a title: the usual confirmation, then it goes.
    await select(ctx.api, (await titleItem(ctx.api, ARENA.titleId)).node);
    p = script(ctx.api).press('Remove').typeIn(ARENA.titleId);
    await vscode.commands.executeCommand(del!.command, del!.args);
    p.assertDone();
    assert.equal(ctx.api.titles.get(ARENA.titleId), undefined);
    assert.equal(await ctx.api.hasSecretKey(ARENA.titleId), false);
    assert.deepEqual(p.infos, [`Removed title Arena Renamed (${ARENA.titleId}).`], 'the removal is said in a message (announced)');

    // Several selected titles: one confirmation naming them all.
    script(ctx.api).typeIn('C0FFEE').typeIn('Coffee').choose('Platform service').typeIn('');
    await vscode.commands.executeCommand('platformExplorer.addTitle');
    // The demo's third title (another publisher's) stays out of this.
    const rest = (await children(ctx.api)).filter((r) => r.id !== `title/${KART.titleId}`);
    assert.equal(rest.length, 2);
    p = script(ctx.api).press('Remove').typeIn(RACER.titleId);
    await vscode.commands.executeCommand('platformExplorer.removeTitle', rest[0].node, rest.map((r) => r.node));
    p.assertDone();
    assert.equal(p.confirms.length, 1);
    assert.equal(p.confirms[0].message, `Remove 2 titles: ${RACER.name} (${RACER.titleId}), Coffee (C0FFEE)?`);
    assert.deepEqual(p.infos, [`Removed 2 titles: ${RACER.name} (${RACER.titleId}), Coffee (C0FFEE).`]);
    assert.deepEqual(ctx.api.titles.all().map((t) => t.titleId), [KART.titleId]);
  });

  it('the filter keeps matching titles, and titles with matching jobs showing just those; no match says so', async () => {
    const jobs = await threeJobs();
    const view = ctx.api.tree.view!;
    const allRoots = (await children(ctx.api)).map((r) => r.id);
    assert.ok(allRoots.length >= 2);

    const said = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.filterTitles', 'arena');
    assert.deepEqual((await children(ctx.api)).map((r) => r.id), [`title/${ARENA.titleId}`]);
    // Said in a message (announced), not only redrawn.
    assert.deepEqual(said.infos, [`Titles filter "arena": 1 of ${allRoots.length} titles shown.`]);
    assert.equal(view.description, 'filter: arena');
    assert.equal(ctx.api.contextValue('platformExplorer.titlesFiltered'), true);

    // A PlatformId of one job: its title shows only its Deletion Jobs, with that job alone.
    const one = jobs[1].label;
    await vscode.commands.executeCommand('platformExplorer.filterTitles', one.toLowerCase());
    const roots = await children(ctx.api);
    assert.deepEqual(roots.map((r) => r.id), [`title/${RACER.titleId}`]);
    const under = await children(ctx.api, roots[0].node);
    assert.deepEqual(under.map((k) => k.label), ['Deletion Jobs']);
    assert.equal(under[0].description, '1 of 3');
    assert.equal(under[0].accessibleName, `Deletion Jobs of ${RACER.name} (${RACER.titleId}), 1 of 3 deletions shown, 1 queued`);
    const [batch] = await children(ctx.api, under[0].node);
    assert.equal(batch.label, 'Batch of 3');
    assert.match(batch.description, /^1 shown · /);
    assert.deepEqual((await children(ctx.api, batch.node)).map((j) => j.label), [one]);
    // Export from the filtered Deletion Jobs node holds what it shows.
    script(ctx.api).choose('JSON');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('platformExplorer.exportDeletionJobs', under[0].node);
    assert.ok(documentText(uri).includes(one));
    assert.match(uri.path, new RegExp(`Deletion jobs, filter ${one.toLowerCase()} `), 'the export\'s name says it is filtered');
    assert.ok(!documentText(uri).includes(jobs[0].label), 'a job the filter hides was exported');

    // The ticket of the batch matches all three.
    await vscode.commands.executeCommand('platformExplorer.filterTitles', 't-77');
    assert.equal((await children(ctx.api, (await titleChild(ctx.api, RACER.titleId, 'Deletion Jobs')).node)).length, 1);

    await vscode.commands.executeCommand('platformExplorer.filterTitles', 'no-such-thing');
    assert.deepEqual(await children(ctx.api), []);
    assert.match(view.message ?? '', /No title or deletion job matches "no-such-thing"/);

    // A title added under the filter that matches it shows, and the view no longer says nothing matches.
    script(ctx.api).typeIn('C0FFEE').typeIn('no-such-thing').choose('Platform service').typeIn('');
    await vscode.commands.executeCommand('platformExplorer.addTitle');
    assert.deepEqual((await children(ctx.api)).map((r) => r.id), ['title/C0FFEE']);
    assert.equal(view.message, undefined);
    script(ctx.api).press('Remove');
    await vscode.commands.executeCommand('platformExplorer.removeTitle', { titleId: 'C0FFEE' });
    assert.match(view.message ?? '', /No title or deletion job matches/);

    const cleared = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.clearTitlesFilter');
    assert.deepEqual((await children(ctx.api)).map((r) => r.id), allRoots);
    assert.deepEqual(cleared.infos, [`Titles filter cleared: all ${allRoots.length} titles shown.`]);
    assert.equal(view.message, undefined);
    assert.equal(view.description, undefined);
    assert.equal(ctx.api.contextValue('platformExplorer.titlesFiltered'), false);
    const racer = await titleItem(ctx.api, RACER.titleId);
    assert.ok((await children(ctx.api, racer.node)).some((k) => k.label === 'HandheldStore'), 'the add-ons came back');
  });
});
