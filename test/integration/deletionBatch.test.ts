// Delete Master Player Accounts from List… in the real VS Code: a selection of 30 PlatformIds
// through the dry run, the modal, the typed count and title ID, progress, and the Deletion Jobs
// tree to verified; Cancel mid-batch; a .csv from the explorer context menu.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { FolderAnchorStore, Journal } from '../../src/core/deletion/journal';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import { children, emu, requestCount, script, titleChild, useFreshExtension, openText } from './support/harness';

const RACER = DEMO_TITLES[0];
const DELETE = 'Admin/DeleteMasterPlayerAccount';
const COMMAND = 'platformExplorer.deleteMasterPlayerAccountsFromList';
const IDS = DEMO_PLAYERS.slice(0, 30).map((p) => p.platformId);

interface Outcome {
  batchId?: string;
  dryRun?: vscode.Uri;
  plan?: { entries: { line: number; status: string }[] };
  result?: { queued: number; total: number; cancelled: boolean; sent: number };
}

interface EmuJob {
  PlatformId: string;
  MetaData?: string;
  status: 'queued' | 'completed';
}

async function selectAll(content: string): Promise<void> {
  await openText(content);
}

describe('Delete Master Player Accounts from List', () => {
  const ctx = useFreshExtension({ emulator: true });

  it('a selection of 30 PlatformIds: dry run, "30 F71AC" typed, one modal, progress, then the tree to verified', async () => {
    await selectAll([...IDS, 'not-an-id', IDS[3].toLowerCase()].join('\n') + '\n');
    const p = script(ctx.api).choose('PlatformIds').typeIn('SUPPORT-1234').typeIn('30 F71AC').press('Delete 30 Accounts');
    const out = await vscode.commands.executeCommand<Outcome>(COMMAND);
    p.assertDone();
    assert.equal(out.result?.queued, 30);

    // The dry run opened first, with every classification.
    const dry = vscode.workspace.textDocuments.find((d) => d.uri.toString() === out.dryRun?.toString());
    assert.ok(dry, 'the dry-run document was not opened');
    assert.match(dry.uri.path, /\/Demo Racer \(F71AC\) Deletion plan \(dry run\) .* UTC\.md$/, 'its tab says what it is');
    assert.equal(dry.isDirty, false, 'a result is never unsaved');
    assert.match(dry.getText(), /To delete: 30 · .*Duplicate: 1 · Invalid format: 1/);
    assert.match(dry.getText(), /wipes F71AC \(/);
    // Issue 30: its header's time in the reader's zone, the zone named once; never a raw ISO time.
    assert.match(dry.getText(), /\nMade \d{4}-\d\d-\d\d \d\d:\d\d [^ .]+\. Nothing has been deleted\.\n/, dry.getText().slice(0, 300));
    assert.doesNotMatch(dry.getText(), /\d{4}-\d\d-\d\dT\d\d:\d\d/);
    // Asked first in a step that is not modal (the dry run stays readable), the counts in the question itself; the modal last.
    const question = 'Delete 30 master player accounts through Demo Racer (F71AC)? Not sent: 1 duplicate, 1 invalid.';
    assert.equal(p.inputs[1].options.title, question);
    assert.equal(p.inputs[1].options.ignoreFocusOut, true, 'the question stays while the dry run is read');
    assert.equal(p.confirms[0].message, question);
    const typed = p.inputs[p.inputs.length - 1].options.validateInput!;
    assert.equal(await typed('30 f71ac'), undefined);
    assert.ok(await typed('30 A248'), 'the wrong title ID is refused');
    assert.ok(await typed('29 F71AC'), 'the wrong count is refused');
    // Issue 30: the run's notification has no title (VS Code would put it first); its message starts
    // with the number and is short, from 0 to 30, said once per change.
    assert.ok(p.progressTitles.includes(''), JSON.stringify(p.progressTitles));
    const run = p.progressMessages.filter((m) => / · Deleting master player accounts$/.test(m));
    assert.equal(run[0], '0 of 30 sent · Deleting master player accounts', p.progressMessages.join(' | '));
    assert.equal(run.at(-1), '30 of 30 sent · Deleting master player accounts');
    assert.ok(run.every((m, i) => /^\d+ of 30 sent · /.test(m) && m !== run[i - 1]), run.join(' | '));

    assert.equal(await requestCount(ctx.api, DELETE), 30);
    const jobs = (await emu<{ jobs: EmuJob[] }>(ctx.api, 'GET', 'jobs')).jobs;
    assert.deepEqual(jobs.map((j) => j.PlatformId).sort(), [...IDS].sort());
    assert.ok(jobs.every((j) => j.MetaData === 'SUPPORT-1234'), 'the ticket reference goes in MetaData');

    // The tree: one batch, each job labelled by PlatformId with the titles it wiped.
    const jobsNode = await titleChild(ctx.api, RACER.titleId, 'Deletion Jobs');
    assert.equal(jobsNode.description, '30');
    assert.match(jobsNode.contextValue, /\bhasQueued\b/);
    const [batch, ...others] = await children(ctx.api, jobsNode.node);
    assert.deepEqual(others, []);
    assert.equal(batch.label, 'Batch of 30');
    assert.match(batch.description, /^30 queued · /);
    const rows = await children(ctx.api, batch.node);
    assert.deepEqual(rows.map((r) => r.label).sort(), [...IDS].sort());
    for (const r of rows) {
      const played = DEMO_PLAYERS.find((x) => x.platformId === r.label)!.playedTitles;
      assert.equal(r.description, `queued · wipes ${played.join(', ')}`);
    }

    // Verification: still queued (the emulator completes a deletion 5 s after it was queued, and on a
    // loaded machine the first ones may already have completed), then (the jobs completed) verified deleted.
    await vscode.commands.executeCommand('platformExplorer.verifyDeletions', jobsNode.node);
    const completed = new Set((await emu<{ jobs: EmuJob[] }>(ctx.api, 'GET', 'jobs')).jobs.filter((j) => j.status === 'completed').map((j) => j.PlatformId));
    const early = ctx.api.jobs.all().filter((j) => j.state !== 'queued');
    assert.ok(early.every((j) => j.state === 'verified-deleted' && completed.has(j.platformId)), 'only completed deletions are verified');
    assert.equal(ctx.api.jobs.all().filter((j) => j.state === 'queued').length, 30 - early.length);
    await emu(ctx.api, 'POST', 'clock/advance', { ms: 24 * 3600 * 1000 });
    const v = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.verifyDeletions', jobsNode.node);
    assert.match(v.infos[0], new RegExp(`Demo Racer \\(F71AC\\): ${30 - early.length} verified deleted, 0 still queued`));
    const after = await children(ctx.api, (await children(ctx.api, (await titleChild(ctx.api, RACER.titleId, 'Deletion Jobs')).node))[0].node);
    assert.ok(after.every((r) => r.description.startsWith('verified deleted · ')), after.map((r) => r.description).join('; '));
    assert.equal(await requestCount(ctx.api, DELETE), 30, 'nothing sent twice');
  });

  it('Cancel stops before the next send and keeps what was sent recorded', async () => {
    await emu(ctx.api, 'POST', 'faults', { latencyMs: 40 });
    const p = script(ctx.api).typeIn('').typeIn('30 F71AC').press('Delete 30 Accounts');
    // The batch is cancelled after a few sends. (The list comes as an
    // argument: what this test is about is Cancel, not where the list comes from.)
    // Progress reports every tenth of the batch: cancel in the run after the start and two more.
    p.cancelProgressIn = / · Deleting master player accounts/;
    p.cancelProgressAfterReports = 3;
    const out = await vscode.commands.executeCommand<Outcome>(COMMAND, { text: IDS.join('\n') });
    assert.ok(out, `the command returned nothing: ${JSON.stringify({ unexpected: p.unexpected, errors: p.errors, infos: p.infos, progress: p.progressTitles })}`);
    assert.equal(out.result?.cancelled, true);
    // 30 players checked: the start, every tenth and the end, not once per player; requests in
    // flight are "awaiting an answer", never "unknown".
    const checked = p.progressMessages.filter((m) => / players checked$/.test(m));
    assert.ok(checked.length <= 12, `${checked.length} plan reports: ${checked.join(' | ')}`);
    assert.deepEqual(p.progressMessages.filter((m) => /unknown/.test(m)), []);
    // Activity: a cancelled batch says how far it got, under a readable name.
    const entry = ctx.api.activity.all().at(-1);
    assert.equal(entry?.outcome, 'cancelled');
    assert.match(entry?.note ?? '', /^cancelled \(\d+ of 30 queued\)$/);
    assert.equal(entry?.operation, 'DeleteMasterPlayerAccount');
    assert.ok(p.progressMessages.every((m) => /^\d+ of \d+ /.test(m)), 'the changing number first');
    const sent = await requestCount(ctx.api, DELETE);
    assert.ok(sent > 0 && sent < 30, `${sent} sent`);
    const recorded = ctx.api.jobs.all();
    const queued = recorded.filter((j) => j.state === 'queued');
    assert.equal(queued.length, sent, 'every sent deletion is in the ledger');
    assert.ok(queued.every((j) => j.jobReceiptId !== undefined));
    // The players not sent are there too, as "not sent" (not unknown, not left out), with no receipt.
    const unsent = recorded.filter((j) => j.state !== 'queued');
    assert.equal(unsent.length, 30 - sent, JSON.stringify(recorded.map((j) => j.state)));
    assert.ok(unsent.every((j) => j.state === 'pending' && j.jobReceiptId === undefined));
    const batch = (await children(ctx.api, (await titleChild(ctx.api, RACER.titleId, 'Deletion Jobs')).node))[0];
    assert.equal(batch.label, 'Batch of 30');
    assert.match(batch.description, new RegExp(`^${sent} queued · ${30 - sent} not sent · `));
    const rows = await children(ctx.api, batch.node);
    assert.equal(rows.filter((r) => /^not sent · /.test(r.description)).length, 30 - sent);
    const said = p.infos.concat(p.errors).join('\n');
    assert.match(said, new RegExp(`Cancelled before the rest were sent: ${30 - sent} not sent, shown as "not sent" under Deletion Jobs; Resume sends them\\.`));
    assert.deepEqual(p.infoActions.concat(p.errorActions).filter((a) => a.length > 0), [['Resume']], 'the cancelled report offers Resume');
  });

  it('from a .csv file in the explorer: the first column, a header line shown as invalid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pe-list-'));
    try {
      const file = join(dir, 'tickets.csv');
      writeFileSync(file, `PlatformId,Ticket\n${IDS[0]},T-1\n${IDS[1]},T-2\n`);
      const p = script(ctx.api).choose('PlatformIds').typeIn('T-1/T-2').typeIn('2 F71AC').press('Delete 2 Accounts');
      const out = await vscode.commands.executeCommand<Outcome>(COMMAND, vscode.Uri.file(file));
      p.assertDone();
      assert.equal(out.result?.queued, 2);
      // The plan the dry run showed: the header line invalid, the two IDs to delete.
      const statuses = out.plan!.entries.map((e) => [e.line, e.status]).sort((x, y) => Number(x[0]) - Number(y[0]));
      assert.deepEqual(statuses, [[1, 'invalid'], [2, 'delete'], [3, 'delete']], JSON.stringify(statuses));
      // The document itself, while VS Code still holds it (found by its URI, not among earlier tests' dry runs).
      const shown = vscode.workspace.textDocuments.find((d) => d.uri.toString() === out.dryRun?.toString());
      assert.ok(out.dryRun, 'no dry-run document was shown');
      if (shown) assert.match(shown.getText(), /^Deletion plan \(dry run\)[^]*To delete: 2 · .*Invalid format: 1/);
      assert.equal(await requestCount(ctx.api, DELETE), 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a batch stopped mid-way is resumed after confirmation; a player sent without a recorded answer is not deleted twice', async () => {
    const journals = join(ctx.api.storagePaths().globalStorage, 'deletion-journals');
    rmSync(journals, { recursive: true, force: true });
    await emu(ctx.api, 'POST', 'faults', { latencyMs: 40 });
    const p = script(ctx.api).typeIn('T-9').typeIn('30 F71AC').press('Delete 30 Accounts');
    // Progress reports every tenth of the batch: cancel in the run after the start and two more.
    p.cancelProgressIn = / · Deleting master player accounts/;
    p.cancelProgressAfterReports = 3;
    const out = await vscode.commands.executeCommand<Outcome>(COMMAND, { text: IDS.join('\n') });
    assert.equal(out.result?.cancelled, true);
    await emu(ctx.api, 'POST', 'faults/clear');
    // As if the window closed right after a send: an intent on disk, the request served, no outcome recorded.
    const [file] = readdirSync(journals);
    const done = new Set(ctx.api.jobs.all().filter((j) => j.state !== 'pending').map((j) => j.platformId));
    const orphan = IDS.find((id) => !done.has(id))!;
    // Written as the editor writes it: every journal line carries its MAC, keyed from the title's key.
    const anchors = new FolderAnchorStore(join(ctx.api.storagePaths().globalStorage, 'deletion-anchors'));
    const journal = await Journal.open(join(journals, file), { key: RACER.secretKey, anchors });
    await journal.append({ type: 'intent', platformId: orphan, at: new Date().toISOString() });
    await journal.close();
    const direct = await fetch(`${ctx.api.emulator()!.origin}/${RACER.titleId}/${DELETE}`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-secretkey': RACER.secretKey }, body: JSON.stringify({ PlatformId: orphan, MetaData: 'T-9' }),
    });
    const receipt = ((await direct.json()) as { data: { JobReceiptId: string } }).data.JobReceiptId;

    const r = script(ctx.api).press('Resume');
    assert.equal(await vscode.commands.executeCommand('platformExplorer.resumeDeletionBatches'), 1);
    r.assertDone();
    assert.match(r.confirms[0].detail, /1 were sent without an answer/);
    // Issue 30: the resume's progress counts this run's sends against what this run sends (the players
    // not answered before it), not against the batch's 30.
    const left = 30 - done.size;
    // Each message: the count, what runs, then what else there is to say (the unknown player, on the first).
    const resumed = r.progressMessages.filter((m) => /^\d+ of \d+ sent · Deleting master player accounts( · |$)/.test(m)).map((m) => m.split(' · ').slice(0, 2).join(' · '));
    assert.equal(resumed[0], `0 of ${left} sent · Deleting master player accounts`, r.progressMessages.join(' | '));
    assert.equal(resumed.at(-1), `${left} of ${left} sent · Deleting master player accounts`, r.progressMessages.join(' | '));
    // The prompt tells this batch from another: its ticket, when it started, how far it got.
    assert.match(r.confirms[0].message, /^A deletion batch for title F71AC \(ticket T-9, started \d{4}-\d\d-\d\d \d\d:\d\d UTC\) stopped with \d+ of 30 players answered\.$/);
    const jobs = (await emu<{ jobs: EmuJob[] }>(ctx.api, 'GET', 'jobs')).jobs;
    assert.deepEqual(jobs.map((j) => j.PlatformId).sort(), [...IDS].sort(), 'every player deleted exactly once');
    const ledger = ctx.api.jobs.all();
    assert.equal(ledger.length, 30);
    assert.ok(ledger.every((j) => j.state === 'queued'));
    assert.equal(ledger.find((j) => j.platformId === orphan)!.jobReceiptId, receipt, 'the refusal of a second deletion is recorded as queued, with its receipt');
    // One final summary over the whole batch (not only this run's sends), superseding the "Cancelled…" one.
    assert.match(p.infos.join('\n'), /Cancelled before the rest were sent/);
    assert.deepEqual(r.infos, ['Demo Racer (F71AC): resumed batch, in all (this replaces the earlier report): 30 of 30 deletions queued, 0 failed, 0 unknown.']);
    const none = script(ctx.api);
    assert.equal(await vscode.commands.executeCommand('platformExplorer.resumeDeletionBatches'), 0, 'nothing left to resume');
    assert.deepEqual(none.infos, ['No interrupted deletion batch to resume: every batch has been sent in full.'], 'Resume with nothing to do says so');

    // Cut back to its first records (as an older copy put back): refused and shown, nothing sent.
    const path = join(journals, file);
    writeFileSync(path, `${readFileSync(path, 'utf8').split('\n').slice(0, 5).join('\n')}\n`);
    const before = await requestCount(ctx.api, DELETE);
    const cut = script(ctx.api);
    assert.equal(await vscode.commands.executeCommand('platformExplorer.resumeDeletionBatches'), 0);
    assert.match(cut.errors.join(' | '), /is behind its anchor: it holds 5 records, but batch [0-9a-f-]{36} reached \d+ on this machine/);
    assert.equal(await requestCount(ctx.api, DELETE), before, 'nothing sent from a cut journal');
    // Its anchor lost too: as on a new machine, a modal names the risk first (issue 29); accepted, it is
    // resumed, and the ledger's record keeps every queued player from being sent again.
    rmSync(join(ctx.api.storagePaths().globalStorage, 'deletion-anchors'), { recursive: true, force: true });
    const declined = script(ctx.api).press(undefined);
    assert.equal(await vscode.commands.executeCommand('platformExplorer.resumeDeletionBatches'), 0, 'not resumed unless the user accepts the missing anchor');
    declined.assertDone();
    assert.equal(declined.confirms[0].message, 'Resume this deletion batch without its anchor?');
    assert.match(declined.confirms[0].detail, /has no anchor in .*If it is not the newest copy .*would be sent again\./);
    assert.equal(await requestCount(ctx.api, DELETE), before);
    const fresh = script(ctx.api).press('Use Without Anchor').press('Resume');
    assert.equal(await vscode.commands.executeCommand('platformExplorer.resumeDeletionBatches'), 1);
    fresh.assertDone();
    assert.equal(await requestCount(ctx.api, DELETE), before, 'the ledger holds them: nothing sent again');
  });

  it('verifies queued deletions in the background while the editor is open', async () => {
    script(ctx.api).typeIn('').typeIn('3 F71AC').press('Delete 3 Accounts');
    await selectAll(IDS.slice(0, 3).join('\n'));
    const out = await vscode.commands.executeCommand<Outcome>(COMMAND);
    assert.equal(out.result?.queued, 3);
    const played = await requestCount(ctx.api, 'Admin/GetPlayedTitleList');
    await emu(ctx.api, 'POST', 'clock/advance', { ms: 24 * 3600 * 1000 });
    const p = script(ctx.api);
    ctx.api.setVerifyDelay(200);
    try {
      const deadline = Date.now() + 15_000;
      while (ctx.api.jobs.all().some((j) => j.state !== 'verified-deleted') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(ctx.api.jobs.all().map((j) => j.state), ['verified-deleted', 'verified-deleted', 'verified-deleted']);
      assert.ok(ctx.api.jobs.all().every((j) => j.verifiedAt !== undefined));
      assert.ok(await requestCount(ctx.api, 'Admin/GetPlayedTitleList') >= played + 3, 'verified by asking the service');
      // Said in a message (announced), each PlatformId once, however many passes it took.
      const said = (): string[] => p.infos.filter((m) => m.includes('checked in the background'));
      while (IDS.slice(0, 3).some((id) => !said().join(' ').includes(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      for (const id of IDS.slice(0, 3)) assert.equal(said().filter((m) => m.includes(id)).length, 1, `${id} in ${JSON.stringify(p.infos)}`);
      assert.match(said()[0], /^Demo Racer \(F71AC\): /);
    } finally {
      ctx.api.setVerifyDelay(30_000);
    }
  });
});
