// Delete Master Player Account and Show Played Titles: the impact shown first, a modal and
// a typed confirmation, one request only, the receipt recorded under Deletion Jobs with
// copy and export.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import { children, documentText, emu, requestCount, script, titleChild, useFreshExtension, openText } from './support/harness';

const RACER = DEMO_TITLES[0];
// Played both demo titles (see the seed), so the impact lists two titles.
const PLAYER = DEMO_PLAYERS.find((p) => p.playedTitles.length === 2 && !p.banned)!;
const OTHER = DEMO_PLAYERS.find((p) => p !== PLAYER && p.playedTitles.includes(RACER.titleId) && !p.banned)!;
const DELETE = 'Admin/DeleteMasterPlayerAccount';

interface Receipt {
  JobReceiptId: string;
  TitleIds: string[];
}

describe('Delete Master Player Account', () => {
  const ctx = useFreshExtension({ emulator: true });

  it('shows the played titles, asks twice, sends once and records the receipt under Deletion Jobs', async () => {
    const p = script(ctx.api).press('Delete').typeIn(PLAYER.platformId);
    const receipt = await vscode.commands.executeCommand<Receipt>('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    p.assertDone();
    assert.ok(receipt, 'the command returned no receipt');
    assert.deepEqual([...receipt.TitleIds].sort(), [...PLAYER.playedTitles].sort());
    assert.equal(p.confirms[0].buttons[0], 'Delete');
    for (const t of PLAYER.playedTitles) assert.ok(p.confirms[0].detail.includes(t), `the warning should name ${t}`);
    assert.ok(p.infos[0].includes(receipt.JobReceiptId));
    assert.equal(await requestCount(ctx.api, DELETE), 1);

    // The service really queued it: completing the job sends the e-mail with this receipt.
    await emu(ctx.api, 'POST', 'clock/advance', { ms: 24 * 3600 * 1000 });
    const outbox = await emu<{ messages: { JobReceiptId: string }[] }>(ctx.api, 'GET', 'outbox');
    assert.ok(outbox.messages.some((m) => m.JobReceiptId === receipt.JobReceiptId));

    const jobs = await titleChild(ctx.api, RACER.titleId, 'Deletion Jobs');
    assert.equal(jobs.description, '1');
    assert.match(jobs.contextValue, /\bhasJobs\b/);
    const [job] = await children(ctx.api, jobs.node);
    // Labelled by the player; the job says which titles it wiped.
    assert.equal(job.label, PLAYER.platformId);
    assert.match(job.description, /^queued · wipes /);
    for (const t of PLAYER.playedTitles) assert.ok(job.description.includes(t));
    assert.equal(job.contextValue, 'deletionJob;hasReceipt;queued');
    assert.equal(ctx.api.tree.getParent(job.node), jobs.node);
    assert.deepEqual(ctx.api.jobs.all().map((j) => [j.jobReceiptId, j.platformId, j.titleId]), [[receipt.JobReceiptId, PLAYER.platformId, RACER.titleId]]);

    // Copy and export from the tree nodes.
    await vscode.commands.executeCommand('platformExplorer.copyJobReceiptId', job.node);
    assert.equal(await vscode.env.clipboard.readText(), receipt.JobReceiptId);
    // Export asks its own format (not the lookups' setting), the CSV's receipt column is the receipt or empty.
    await vscode.workspace.getConfiguration('platformExplorer').update('lookupResultFormat', 'csv', vscode.ConfigurationTarget.Global);
    const pick = script(ctx.api).choose('JSON');
    const exportedUri = await vscode.commands.executeCommand<vscode.Uri>('platformExplorer.exportDeletionJobs', jobs.node);
    await vscode.workspace.getConfiguration('platformExplorer').update('lookupResultFormat', undefined, vscode.ConfigurationTarget.Global);
    pick.assertDone();
    assert.deepEqual(pick.picks.map((q) => q.items.map((i) => i.label)), [['JSON', 'CSV']]);
    const exported = JSON.parse(documentText(exportedUri)) as { deletions: { jobReceiptId: string; platformId: string; state: string }[] };
    assert.deepEqual(exported.deletions.map((j) => [j.jobReceiptId, j.platformId, j.state]), [[receipt.JobReceiptId, PLAYER.platformId, 'queued']]);
    const csvUri = await vscode.commands.executeCommand<vscode.Uri>('platformExplorer.exportDeletionJobs', { titleId: RACER.titleId, format: 'csv' });
    // RFC 4180: fields are quoted only when they hold a comma, a quote or a line break.
    assert.match(documentText(csvUri), new RegExp(`^[^\\n]*,${PLAYER.platformId},${RACER.titleId},[^\\n]*,${receipt.JobReceiptId},`, 'm'));
  });

  it('a wrong typed confirmation or a dismissed warning sends nothing', async () => {
    let p = script(ctx.api).press('Delete').typeIn(OTHER.platformId);
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    assert.match(p.inputs[0].validation ?? '', new RegExp(`Type ${PLAYER.platformId}`));
    p = script(ctx.api).press(undefined);
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    assert.deepEqual(p.errors, []);
    assert.equal(await requestCount(ctx.api, DELETE), 0);
    assert.deepEqual(ctx.api.jobs.all(), []);
  });

  it('a second deletion while the ledger holds a queued one warns first and sends nothing', async () => {
    script(ctx.api).press('Delete').typeIn(PLAYER.platformId);
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    const p = script(ctx.api).press(undefined);
    const again = await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    p.assertDone();
    assert.equal(again, undefined);
    assert.match(p.confirms[0].message, /already queued/);
    assert.ok(p.confirms[0].detail.includes(ctx.api.jobs.all()[0].jobReceiptId!), 'the warning names the queued receipt');
    assert.equal(await requestCount(ctx.api, DELETE), 1, 'nothing sent the second time');
    assert.equal(ctx.api.activity.all().at(-1)?.note, 'nothing sent', 'Activity says nothing was sent');
    assert.equal(ctx.api.jobs.all().length, 1);
    // Once the job completed, Verify Now marks it verified deleted.
    await emu(ctx.api, 'POST', 'clock/advance', { ms: 24 * 3600 * 1000 });
    script(ctx.api).press('Verify Now');
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    assert.equal(ctx.api.jobs.all()[0].state, 'verified-deleted');
    assert.equal(await requestCount(ctx.api, DELETE), 1);
  });

  it('an ambiguous failure is reported as unknown and the delete is not sent again', async () => {
    await emu(ctx.api, 'POST', 'faults', { rules: [{ operation: DELETE, kind: 'reset-after', times: 1 }] });
    const p = script(ctx.api).press('Delete').typeIn(PLAYER.platformId);
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    assert.equal(p.errors.length, 1);
    assert.match(p.errors[0], /may or may not/);
    assert.equal(await requestCount(ctx.api, DELETE), 1, 'the delete was re-sent');
    // Recorded as unknown, with a way to check: Verify Deletions.
    assert.deepEqual(ctx.api.jobs.all().map((j) => [j.platformId, j.state]), [[PLAYER.platformId, 'unknown']]);
    assert.match(p.errors[0], /recorded under Deletion Jobs as "outcome unknown"; Verify Deletions checks/);
    // The request had reached the emulator: once its job completes, verification finds the player gone.
    await emu(ctx.api, 'POST', 'clock/advance', { ms: 24 * 3600 * 1000 });
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.verifyDeletions', { titleId: RACER.titleId });
    assert.deepEqual(ctx.api.jobs.all().map((j) => [j.platformId, j.state]), [[PLAYER.platformId, 'verified-deleted']]);
  });

  it('an invalid PlatformId argument is refused before any request', async () => {
    const p = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: 'not-an-id' });
    assert.equal(p.errors.length, 1);
    assert.match(p.errors[0], /PlatformId "not-an-id" is not valid/);
    assert.equal(await requestCount(ctx.api, 'Admin/GetPlayedTitleList'), 0);
  });

  it('Show Played Titles takes the PlatformId under the cursor', async () => {
    await openText(`player: ${OTHER.platformId} reported\n`, { selections: [new vscode.Selection(0, 10, 0, 10)] });
    const p = script(ctx.api);
    const played = await vscode.commands.executeCommand<string[]>('platformExplorer.showPlayedTitles', { titleId: RACER.titleId });
    p.assertDone();
    assert.deepEqual(played, OTHER.playedTitles);
    assert.ok(p.infos[0].includes(OTHER.platformId));
  });

  it('from a title of the Platform view, Show Played Titles asks for the PlatformId instead of taking the active editor\'s', async () => {
    await openText(`player: ${OTHER.platformId} reported\n`, { selections: [new vscode.Selection(0, 10, 0, 10)] });
    const titleNode = (await children(ctx.api)).find((c) => c.label === RACER.name)!.node;
    const p = script(ctx.api).typeIn(PLAYER.platformId);
    const played = await vscode.commands.executeCommand<string[]>('platformExplorer.showPlayedTitles', titleNode);
    p.assertDone();
    assert.equal(p.inputs.length, 1, 'it asked');
    assert.deepEqual(played, PLAYER.playedTitles, 'the typed player, not the one under the editor\'s cursor');
  });

  it('Show Played Titles for an unknown PlatformId shows the service\'s error', async () => {
    const p = script(ctx.api).typeIn('ABCDEF0123456789');
    await vscode.commands.executeCommand('platformExplorer.showPlayedTitles', { titleId: RACER.titleId });
    assert.equal(p.errors.length, 1);
    assert.equal(p.remaining, 0);
  });

  it('with no receipts, Export says so; from the palette, Copy JobReceiptId offers the recorded ones', async () => {
    let p = script(ctx.api);
    assert.equal(await vscode.commands.executeCommand('platformExplorer.exportDeletionJobs'), undefined);
    assert.match(p.infos[0], /No deletion jobs/);
    await vscode.commands.executeCommand('platformExplorer.copyJobReceiptId');
    assert.match(p.errors[0], /No deletion jobs/);

    script(ctx.api).press('Delete').typeIn(PLAYER.platformId);
    const receipt = await vscode.commands.executeCommand<Receipt>('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    p = script(ctx.api).choose(receipt!.JobReceiptId);
    assert.equal(await vscode.commands.executeCommand('platformExplorer.copyJobReceiptId'), receipt!.JobReceiptId);
    p.assertDone();
    assert.equal(await vscode.env.clipboard.readText(), receipt!.JobReceiptId);
  });
});
