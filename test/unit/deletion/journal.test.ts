// The journal file: replay, a crash's torn tail, damage refused without a change, formula-safe CSV.
import * as assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { csvField, Journal, JournalError, ledgerCsv, ledgerFromJournal, ledgerJson, type BatchRecord } from '../../../src/core/deletion';

const A = 'AAAAAAAAAAAAAAA1';
const B = 'BBBBBBBBBBBBBBB2';
const batch: BatchRecord = {
  type: 'batch', version: 1, batchId: 'b', titleId: 'F71AC', kind: 'platform-id', createdAt: '2026-01-01T00:00:00.000Z', metaData: '=HYPERLINK("x")',
  entries: [{ line: 1, input: A, status: 'delete', platformId: A, titleIds: ['F71AC'] }, { line: 2, input: B, status: 'delete', platformId: B, titleIds: [] }],
};

describe('deletion/journal', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pe-journal-'));
    path = join(dir, 'j.jsonl');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('an intent without an outcome is unknown; an outcome settles it; a torn last line is cut off on open', async () => {
    const j = await Journal.open(path, batch);
    await j.append({ type: 'intent', platformId: A, at: 't1' });
    await j.append({ type: 'outcome', platformId: A, state: 'queued', at: 't2' });
    await j.append({ type: 'intent', platformId: B, at: 't3' });
    await j.close();
    appendFileSync(path, '{"type":"outcome","platformId":"BBB');
    const again = await Journal.open(path);
    const players = again.players();
    assert.equal(players.get(A)!.state, 'queued');
    assert.equal(players.get(B)!.state, 'unknown');
    await again.append({ type: 'outcome', platformId: B, state: 'failed', at: 't4', error: 'x' });
    await again.close();
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    assert.equal(lines.length, 5);
    assert.ok(lines.every((l) => JSON.parse(l) !== undefined), 'the torn tail is gone, every line is a record');
    const reopened = await Journal.open(path);
    const entries = ledgerFromJournal(batch, reopened.players());
    await reopened.close();
    assert.deepEqual(entries.map((e) => [e.platformId, e.state, e.jobReceiptId ?? null]), [[A, 'queued', null], [B, 'failed', null]]);
  });

  it('a damaged line in the middle is refused, naming the line, and the file is not changed', async () => {
    const j = await Journal.open(path, batch);
    await j.append({ type: 'intent', platformId: A, at: 't1' });
    await j.close();
    const text = readFileSync(path, 'utf8').replace('"intent"', '"int');
    writeFileSync(path, text + '{"type":"verified","platformId":"x","at":"t"}\n');
    const before = readFileSync(path, 'utf8');
    await assert.rejects(Journal.open(path), (e: unknown) => e instanceof JournalError && /line 2/.test(e.message));
    assert.equal(readFileSync(path, 'utf8'), before);
    writeFileSync(path, '{"hello":1}\n');
    await assert.rejects(Journal.open(path), /not a deletion journal record/);
  });

  it('exports CSV with formulas made inert and "none returned" for a missing receipt, and JSON', () => {
    assert.equal(csvField('=1+1'), '"\'=1+1"');
    assert.equal(csvField('@SUM(A1)'), '"\'@SUM(A1)"');
    assert.equal(csvField('a"b'), '"a""b"');
    const entries = [{ input: '-2+3', platformId: A, titleId: 'F71AC', titleIds: ['F71AC', 'A248'], requestedAt: 't', state: 'queued' as const, metaData: '=HYPERLINK("x")' }];
    const csv = ledgerCsv(entries);
    assert.match(csv, /^Input,PlatformId,/);
    assert.ok(csv.includes('"\'-2+3"') && csv.includes('"\'=HYPERLINK(""x"")"') && csv.includes('"none returned"'));
    assert.equal(JSON.parse(ledgerJson(entries)).deletions[0].jobReceiptId, 'none returned');
  });

  it('one run at a time: a second open fails while the first holds the journal; a lock left by a killed process is taken over', async () => {
    const j = await Journal.open(path, batch);
    await assert.rejects(Journal.open(path), (e: unknown) => e instanceof JournalError && /in use by process/.test(e.message));
    await j.close();
    const again = await Journal.open(path);
    await again.close();
    // A process id that is not running (kill -9 leaves its lock behind).
    writeFileSync(`${path}.lock`, '999999999');
    const taken = await Journal.open(path);
    assert.equal(taken.batch.batchId, 'b');
    await taken.close();
  });
});
