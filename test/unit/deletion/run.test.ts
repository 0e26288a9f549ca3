// The runner against the real emulator: journal before and after each send, throttling with
// Retry-After, cancel, unknown outcomes, and verification of queued jobs.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildPlan, FolderAnchorStore, Journal, JOURNAL_VERSION, ledgerFromJournal, readIdentifiers, runBatch, verifyQueued, type BatchRecord, type JournalRecord,
} from '../../../src/core/deletion';
import { Pacer } from '../../../src/core/pacing/pacer';
import { PLAYERS, TestEmulator, TITLE } from './support';

describe('deletion/run: sending a batch from its journal', () => {
  let emu: TestEmulator;
  let dir: string;
  let anchors: FolderAnchorStore;
  before(async () => { emu = await TestEmulator.start(); });
  after(async () => { await emu.close(); });
  beforeEach(async () => {
    await emu.control('reset', {});
    dir = mkdtempSync(join(tmpdir(), 'pe-run-'));
    anchors = new FolderAnchorStore(join(dir, 'anchors'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function newJournal(n: number, metaData = 'TICKET-42'): Promise<Journal> {
    const client = emu.client();
    const plan = await buildPlan(client, { titleId: TITLE.titleId, kind: 'platform-id', lines: readIdentifiers(PLAYERS.slice(0, n).map((p) => p.platformId).join('\n'), 'platform-id') });
    await client.close();
    const batch: BatchRecord = { type: 'batch', version: JOURNAL_VERSION, batchId: 'b1', titleId: TITLE.titleId, kind: 'platform-id', metaData, createdAt: plan.createdAt, entries: plan.entries };
    return Journal.open(join(dir, 'journal.jsonl'), { key: TITLE.secretKey, anchors, create: batch });
  }

  function records(): JournalRecord[] {
    return readFileSync(join(dir, 'journal.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as JournalRecord);
  }

  it('writes an intent before and an outcome after each send; MetaData carries the ticket; receipts and titles recorded', async () => {
    const journal = await newJournal(6);
    const client = emu.client({ maxRetries: 0 });
    const r = await runBatch(client, journal, { resendUnknown: false });
    await client.close();
    await journal.close();
    assert.equal(r.queued, 6);
    const jobs = await emu.jobs();
    assert.equal(jobs.length, 6);
    assert.ok(jobs.every((j) => j.MetaData === 'TICKET-42'));
    const recs = records();
    for (const j of jobs) {
      const mine = recs.filter((x) => x.type !== 'batch' && x.platformId === j.PlatformId);
      assert.deepEqual(mine.map((x) => x.type), ['intent', 'outcome']);
      const outcome = mine[1] as Extract<JournalRecord, { type: 'outcome' }>;
      assert.equal(outcome.jobReceiptId, j.JobReceiptId);
      assert.deepEqual(outcome.titleIds, j.TitleIds);
    }
    const again = await Journal.open(join(dir, 'journal.jsonl'), { key: TITLE.secretKey, anchors });
    const second = await runBatch(emu.client({ maxRetries: 0 }), again, { resendUnknown: true });
    await again.close();
    assert.equal(second.sent, 0, 'a finished batch sends nothing when run again');
  });

  it('progress counts requests in flight as awaiting an answer, never as unknown, when every answer comes', async () => {
    await emu.control('faults', { latencyMs: 60 });
    const journal = await newJournal(8);
    const client = emu.client({ maxRetries: 0 });
    const seen: { unknown: number; awaiting: number }[] = [];
    const r = await runBatch(client, journal, { resendUnknown: false, onProgress: (p) => seen.push({ unknown: p.unknown, awaiting: p.awaiting }) });
    await client.close();
    await journal.close();
    assert.equal(r.queued, 8);
    assert.ok(seen.some((p) => p.awaiting > 0), 'some reports were made while requests were in flight');
    assert.deepEqual(seen.filter((p) => p.unknown !== 0), [], 'no report says unknown');
    assert.equal(r.awaiting, 0);
  });

  it('throttled (--rate-limit 5/1): honours Retry-After, slows down, and every player ends queued once', async () => {
    const journal = await newJournal(12);
    await emu.control('faults', { rateLimit: '5/1' });
    const client = emu.client({ maxRetries: 0 });
    const started = performance.now();
    const r = await runBatch(client, journal, { resendUnknown: false, pacer: new Pacer({ initialRate: 50 }) });
    const elapsed = performance.now() - started;
    await client.close();
    await journal.close();
    assert.equal(r.queued, 12);
    assert.ok(r.throttled >= 1, 'the limit was reached');
    assert.ok(elapsed >= 1800, `12 deletions at 5 per second take at least two windows (${Math.round(elapsed)} ms)`);
    assert.ok(r.sent <= 12 + r.throttled);
    const jobs = await emu.jobs();
    assert.deepEqual(jobs.map((j) => j.PlatformId).sort(), PLAYERS.slice(0, 12).map((p) => p.platformId).sort());
    const stats = await emu.control('stats');
    assert.equal(stats.throttled, r.throttled);
    // A throttled answer is a definite refusal: journaled as such, never as unknown.
    assert.equal(records().filter((x) => x.type === 'outcome' && x.state === 'throttled').length, r.throttled);
  });

  it('cancel stops before the next send, keeps what was sent recorded, and a later run sends the rest', async () => {
    await emu.control('faults', { latencyMs: 30 });
    const journal = await newJournal(20);
    const ac = new AbortController();
    const client = emu.client({ maxRetries: 0 });
    const r = await runBatch(client, journal, {
      resendUnknown: false, signal: ac.signal, pacer: new Pacer({ maxInFlight: 2 }),
      onOutcome: () => { if (!ac.signal.aborted) ac.abort(); },
    });
    assert.equal(r.cancelled, true);
    const jobs = await emu.jobs();
    assert.ok(jobs.length >= 1 && jobs.length <= 2, `only the requests in flight at the cancel were sent (${jobs.length})`);
    const players = journal.players();
    assert.equal([...players.values()].filter((p) => p.state === 'queued').length, jobs.length, 'every sent deletion is recorded');
    assert.equal([...players.values()].filter((p) => p.state === 'pending').length, 20 - jobs.length);
    const rest = await runBatch(client, journal, { resendUnknown: false });
    await client.close();
    await journal.close();
    assert.equal(rest.queued, 20);
    assert.equal((await emu.jobs()).length, 20);
  });

  it('an unknown outcome is not re-sent unless the resumed run is confirmed; then the refusal is recorded as queued', async () => {
    const journal = await newJournal(3);
    const [a] = PLAYERS;
    // The first delete is processed by the service, but the answer is lost.
    await emu.control('faults', { rules: [{ operation: 'Admin/DeleteMasterPlayerAccount', kind: 'reset-after', times: 1 }] });
    const client = emu.client({ maxRetries: 0 });
    const first = await runBatch(client, journal, { resendUnknown: false, pacer: new Pacer({ maxInFlight: 1 }) });
    assert.equal(first.unknown, 1);
    assert.equal(first.queued, 2);
    const unknownPid = [...journal.players()].find(([, p]) => p.state === 'unknown')![0];
    assert.equal(unknownPid, a.platformId);
    const second = await runBatch(client, journal, { resendUnknown: false });
    assert.equal(second.sent, 0, 'not re-sent without confirmation');
    const third = await runBatch(client, journal, { resendUnknown: true });
    assert.equal(third.sent, 1);
    assert.equal(third.queued, 3);
    const job = (await emu.jobs()).filter((j) => j.PlatformId === a.platformId);
    assert.equal(job.length, 1, 'the player was deleted exactly once');
    const entry = ledgerFromJournal(journal.batch, journal.players()).find((e) => e.platformId === a.platformId)!;
    assert.equal(entry.state, 'queued');
    assert.equal(entry.jobReceiptId, job[0].JobReceiptId, 'the receipt the refusal quotes is kept');
    await client.close();
    await journal.close();
  });

  it('verification: queued until the job completes, then verified deleted via AccountNotFound', async () => {
    const journal = await newJournal(4);
    const client = emu.client({ maxRetries: 0 });
    await runBatch(client, journal, { resendUnknown: false });
    const record = (platformId: string, at: string): Promise<void> => journal.append({ type: 'verified', platformId, at });
    const before = await verifyQueued(client, ledgerFromJournal(journal.batch, journal.players()), record);
    assert.equal(before.verified.length, 0);
    assert.equal(before.stillQueued.length, 4);
    await emu.control('clock/advance', { ms: 600_000 });
    const after = await verifyQueued(client, ledgerFromJournal(journal.batch, journal.players()), record);
    assert.equal(after.verified.length, 4);
    const entries = ledgerFromJournal(journal.batch, journal.players());
    assert.ok(entries.every((e) => e.state === 'verified-deleted' && e.verifiedAt !== undefined));
    await client.close();
    await journal.close();
  });

  it('a journal that cannot be written stops the batch before anything is sent', async () => {
    const journal = await newJournal(5);
    await journal.close();
    const client = emu.client({ maxRetries: 0 });
    await assert.rejects(runBatch(client, journal, { resendUnknown: false }));
    await client.close();
    assert.equal((await emu.jobs()).length, 0, 'no deletion sent without its intent on disk');
  });
  it('a player the ledger shows queued or deleted is not sent, even when the journal lost its record of it; the journal says why', async () => {
    const [p0, p1] = PLAYERS;
    const ledger = [
      { input: p0.platformId, platformId: p0.platformId, titleId: TITLE.titleId, titleIds: [], jobReceiptId: 'A101202A2CD049A0A93C9531DFB37DE8', requestedAt: '2026-01-02T00:00:00.000Z', state: 'queued' as const, batchId: 'earlier' },
      { input: p1.platformId, platformId: p1.platformId.toLowerCase(), titleId: 'A248', titleIds: [], requestedAt: '2026-01-01T00:00:00.000Z', state: 'verified-deleted' as const },
    ];
    const journal = await newJournal(4);
    const client = emu.client({ maxRetries: 0 });
    const r = await runBatch(client, journal, { resendUnknown: true, ledger });
    await client.close();
    await journal.close();
    assert.deepEqual((await emu.jobs()).map((j) => j.PlatformId).sort(), PLAYERS.slice(2, 4).map((p) => p.platformId).sort(), 'only the players the ledger does not hold were sent');
    assert.equal(r.sent, 2);
    assert.equal(r.queued, 4);
    const mine = records().filter((x) => x.type !== 'batch' && x.platformId === p0.platformId);
    assert.deepEqual(mine.map((x) => x.type), ['outcome'], 'no intent: nothing was sent for it');
    assert.match(JSON.stringify(mine[0]), /"state":"queued".*"jobReceiptId":"A101202A2CD049A0A93C9531DFB37DE8".*not sent: the ledger records its deletion \(title F71AC, requested 2026-01-02T00:00:00.000Z, batch earlier\)/);
    const again = await Journal.open(join(dir, 'journal.jsonl'), { key: TITLE.secretKey, anchors });
    assert.equal(again.players().get(p1.platformId)!.state, 'verified-deleted');
    await again.close();
  });
});
