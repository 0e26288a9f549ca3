// The journal file: replay, a crash's torn tail, damage refused without a change, formula-safe CSV.
import * as assert from 'node:assert/strict';
import { open } from 'node:fs/promises';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FolderAnchorStore, Journal, JOURNAL_VERSION, JournalError, ledgerCsv, ledgerFromJournal, ledgerJson, macKey, sealLine, splitLine, type BatchRecord, type JournalRecord,
} from '../../../src/core/deletion';

const A = 'AAAAAAAAAAAAAAA1';
const B = 'BBBBBBBBBBBBBBB2';
const KEY = 'JOURNALTESTKEY0123456789ABCDEFGH';
const batch: BatchRecord = {
  type: 'batch', version: JOURNAL_VERSION, batchId: 'b', titleId: 'F71AC', kind: 'platform-id', createdAt: '2026-01-01T00:00:00.000Z', metaData: '=HYPERLINK("x")',
  entries: [{ line: 1, input: A, status: 'delete', platformId: A, titleIds: ['F71AC'] }, { line: 2, input: B, status: 'delete', platformId: B, titleIds: [] }],
};

describe('deletion/journal', () => {
  let dir: string;
  let path: string;
  let anchors: FolderAnchorStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pe-journal-'));
    path = join(dir, 'j.jsonl');
    anchors = new FolderAnchorStore(join(dir, 'anchors'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('an intent without an outcome is unknown; an outcome settles it; a torn last line is cut off on open', async () => {
    const j = await Journal.open(path, { key: KEY, anchors, create: batch });
    await j.append({ type: 'intent', platformId: A, at: 't1' });
    await j.append({ type: 'outcome', platformId: A, state: 'queued', at: 't2' });
    await j.append({ type: 'intent', platformId: B, at: 't3' });
    await j.close();
    appendFileSync(path, '{"type":"outcome","platformId":"BBB');
    const again = await Journal.open(path, { key: KEY, anchors });
    const players = again.players();
    assert.equal(players.get(A)!.state, 'queued');
    assert.equal(players.get(B)!.state, 'unknown');
    await again.append({ type: 'outcome', platformId: B, state: 'failed', at: 't4', error: 'x' });
    await again.close();
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    assert.equal(lines.length, 5);
    assert.ok(lines.every((l) => JSON.parse(l) !== undefined), 'the torn tail is gone, every line is a record');
    const reopened = await Journal.open(path, { key: KEY, anchors });
    const entries = ledgerFromJournal(batch, reopened.players());
    await reopened.close();
    assert.deepEqual(entries.map((e) => [e.platformId, e.state, e.jobReceiptId ?? null]), [[A, 'queued', null], [B, 'failed', null]]);
  });

  it('a write that fails partway stops the journal: no later line lands after the torn bytes, and it resumes from its last whole line', async () => {
    const j = await Journal.open(path, { key: KEY, anchors, create: batch });
    await j.append({ type: 'intent', platformId: A, at: 't1' });
    const probe = await open(join(dir, 'probe'), 'w');
    type Append = (this: unknown, data: string, ...rest: unknown[]) => Promise<void>;
    const proto = Object.getPrototypeOf(probe) as { appendFile: Append };
    await probe.close();
    const original = proto.appendFile;
    let calls = 0;
    // The disk fills during the next line: half of it is written, then the write fails.
    proto.appendFile = async function (this: unknown, data: string, ...rest: unknown[]) {
      if (calls++ > 0) return original.call(this, data, ...rest);
      await original.call(this, data.slice(0, data.length >> 1), ...rest);
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    try {
      const outcome = j.append({ type: 'outcome', platformId: A, state: 'queued', at: 't2' });
      const next = j.append({ type: 'intent', platformId: B, at: 't3' });
      await assert.rejects(outcome, /ENOSPC/);
      await assert.rejects(next, (e: unknown) => e instanceof JournalError && /Nothing more is written to the journal .*ENOSPC/.test(e.message));
    } finally {
      proto.appendFile = original;
    }
    await j.close();
    assert.ok(!readFileSync(path, 'utf8').endsWith('\n'), 'the torn bytes are the last thing in the file');
    const again = await Journal.open(path, { key: KEY, anchors });
    assert.equal(again.players().get(A)!.state, 'unknown', 'A was sent or not: its outcome never reached the disk');
    assert.equal(again.records.length, 2, 'the batch and the intent are kept; the torn line is cut');
    await again.append({ type: 'outcome', platformId: A, state: 'queued', at: 't4' });
    await again.close();
    assert.equal(readFileSync(path, 'utf8').trim().split('\n').length, 3);
  });

  it('a damaged line in the middle is refused, naming the line, and the file is not changed', async () => {
    const j = await Journal.open(path, { key: KEY, anchors, create: batch });
    await j.append({ type: 'intent', platformId: A, at: 't1' });
    await j.close();
    const text = readFileSync(path, 'utf8').replace('"intent"', '"int');
    writeFileSync(path, text + '{"type":"verified","platformId":"x","at":"t"}\n');
    const before = readFileSync(path, 'utf8');
    await assert.rejects(Journal.open(path, { key: KEY, anchors }), (e: unknown) => e instanceof JournalError && /line 2/.test(e.message));
    assert.equal(readFileSync(path, 'utf8'), before);
    writeFileSync(path, '{"hello":1}\n');
    await assert.rejects(Journal.open(path, { key: KEY, anchors }), /does not start with a deletion batch record/);
  });

  it('exports CSV with formulas made inert and an empty field for a missing receipt, and JSON with null', () => {
    const entries = [{ input: '-2+3', platformId: A, titleId: 'F71AC', titleIds: ['F71AC', 'A248'], requestedAt: 't', state: 'queued' as const, metaData: '=HYPERLINK("x")' }];
    const csv = ledgerCsv(entries);
    assert.match(csv, /^Input,PlatformId,/);
    assert.ok(csv.includes('\n\'-2+3,') && csv.includes(',"\'=HYPERLINK(""x"")",') && !csv.includes('none returned'));
    assert.equal(csv.split('\r\n')[1].split(',')[4], '', 'the JobReceiptId column is empty');
    assert.equal(JSON.parse(ledgerJson(entries)).deletions[0].jobReceiptId, null);
  });

  it('one run at a time: a second open fails while the first holds the journal; a lock left by a killed process is taken over', async () => {
    const j = await Journal.open(path, { key: KEY, anchors, create: batch });
    await assert.rejects(Journal.open(path, { key: KEY, anchors }), (e: unknown) => e instanceof JournalError && /in use by process/.test(e.message));
    await j.close();
    const again = await Journal.open(path, { key: KEY, anchors });
    await again.close();
    // A process id that is not running (kill -9 leaves its lock behind).
    writeFileSync(`${path}.lock`, '999999999');
    const taken = await Journal.open(path, { key: KEY, anchors });
    assert.equal(taken.batch.batchId, 'b');
    await taken.close();
  });

  it('many opens at once, of a new journal and over a lock left by a killed process: exactly one holds it', async () => {
    const j = await Journal.open(path, { key: KEY, anchors, create: batch });
    await j.close();
    for (const stale of [undefined, '999999999', '']) {
      if (stale !== undefined) writeFileSync(`${path}.lock`, stale);
      const opened = await Promise.allSettled(Array.from({ length: 20 }, () => Journal.open(path, { key: KEY, anchors })));
      const held = opened.filter((r): r is PromiseFulfilledResult<Journal> => r.status === 'fulfilled').map((r) => r.value);
      assert.equal(held.length, 1, `lock ${JSON.stringify(stale)}: ${held.length} opens hold the journal at once`);
      for (const r of opened) if (r.status === 'rejected') assert.match(String(r.reason), /in use by process/);
      assert.match(readFileSync(`${path}.lock`, 'utf8'), new RegExp(`^${process.pid} [0-9a-f]{16}\\n$`), 'the lock holds its pid from the start');
      await held[0].close();
    }
  });

  it('the lock is the journal\'s, whatever name leads to it: a symlinked name meets the same lock; a hard-linked journal is refused', async () => {
    const j = await Journal.open(path, { key: KEY, anchors, create: batch });
    const other = join(dir, 'other-name.jsonl');
    symlinkSync(path, other);
    await assert.rejects(Journal.open(other, { key: KEY, anchors }), /in use by process/);
    await j.close();
    const { linkSync } = await import('node:fs');
    linkSync(path, join(dir, 'hard.jsonl'));
    await assert.rejects(Journal.open(path, { key: KEY, anchors }), /has 2 names \(hard links\)/);
  });

  it('a new journal is created exclusively: an existing file is refused and left as it was', async () => {
    writeFileSync(path, 'somebody else\'s one line\n');
    await assert.rejects(Journal.open(path, { key: KEY, anchors, create: batch }), /already exists; nothing was sent\. To resume the batch it holds, add --resume/);
    assert.equal(readFileSync(path, 'utf8'), 'somebody else\'s one line\n');
  });

  it('every line is authenticated: a line written without the key, with another key, changed or moved is refused, saying so', async () => {
    const j = await Journal.open(path, { key: KEY, anchors, create: batch });
    await j.append({ type: 'intent', platformId: A, at: 't1' });
    await j.append({ type: 'outcome', platformId: A, state: 'queued', at: 't2', jobReceiptId: 'R1' });
    await j.close();
    const good = readFileSync(path, 'utf8');
    const lines = good.trim().split('\n');
    const lastMac = splitLine(lines[lines.length - 1])!.mac;
    const forged = (r: JournalRecord, key = KEY, index = lines.length, prev = lastMac): string => `${sealLine(macKey(key), 'b', index, prev, r).line}\n`;
    const attacks: [string, string, number][] = [
      ['a plain line', `${good}${JSON.stringify({ type: 'outcome', platformId: B, state: 'queued', at: 't3' })}\n`, 4],
      ['another key', good + forged({ type: 'outcome', platformId: B, state: 'queued', at: 't3' }, 'SOMEONEELSESKEY0123456789ABCDEFG'), 4],
      ['a changed line', good.replace('"R1"', '"R2"'), 3],
      ['moved lines', [lines[0], lines[2], lines[1]].join('\n') + '\n', 2],
      ['a forged header', forged({ ...batch, entries: [{ line: 1, input: B, status: 'delete', platformId: B }] }, 'SOMEONEELSESKEY0123456789ABCDEFG', 0, ''), 1],
    ];
    for (const [what, text, line] of attacks) {
      writeFileSync(path, text);
      await assert.rejects(Journal.open(path, { key: KEY, anchors }), (e: unknown) => e instanceof JournalError && new RegExp(`^Line ${line} of the journal .*has no valid MAC.*Nothing was sent`).test(e.message), what);
      assert.equal(readFileSync(path, 'utf8'), text, `${what}: the file is not changed`);
    }
  });

  it('every record is checked before anything is used: an unknown state, a bad PlatformId or another batch\'s player stop the journal; an old journal says why', async () => {
    const j = await Journal.open(path, { key: KEY, anchors, create: batch });
    await j.close();
    const head = readFileSync(path, 'utf8');
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ type: 'outcome', platformId: A, state: 'exploded', at: 't' }, /state "exploded" is not a known state/],
      [{ type: 'intent', platformId: 'ZZZZ', at: 't' }, /PlatformId is not 14-16 hex/],
      [{ type: 'intent', platformId: 'CCCCCCCCCCCCCCC3', at: 't' }, /not a player of this batch/],
      [{ type: 'outcome', platformId: A, state: 'queued', at: 't', error: 'x'.repeat(5000) }, /not text of a valid length/],
    ];
    for (const [r, message] of bad) {
      writeFileSync(path, head + `${sealLine(macKey(KEY), 'b', 1, splitLine(head.trim())!.mac, r as JournalRecord).line}\n`);
      await assert.rejects(Journal.open(path, { key: KEY, anchors }), (e: unknown) => e instanceof JournalError && message.test(e.message) && /nothing was sent/.test(e.message));
    }
    for (const version of [1, 2]) {
      writeFileSync(path, `${JSON.stringify({ ...batch, version })}\n`);
      await assert.rejects(Journal.open(path, { key: KEY, anchors }), new RegExp(`earlier version of Platform Explorer \\(journal version ${version}, this one reads 3: its lines are not authenticated as one chain\\)`));
    }
  });

  it('service text is made safe before it is journaled: clipped, escape sequences inert, the key masked', async () => {
    const j = await Journal.open(path, { key: KEY, anchors, create: batch });
    await j.append({ type: 'outcome', platformId: A, state: 'failed', at: 't', jobReceiptId: `\u001b]52;c;${'A'.repeat(1_000_000)}\u0007`, error: `boom ${KEY} \u001b[2J` });
    await j.close();
    const text = readFileSync(path, 'utf8');
    assert.ok(text.length < 10_000, `the journal holds ${text.length} characters`);
    const outcome = JSON.parse(text.trim().split('\n')[1]) as { jobReceiptId: string; error: string };
    assert.ok(!text.includes(KEY), 'the key is masked');
    assert.ok(outcome.jobReceiptId.length < 400 && outcome.jobReceiptId.startsWith('\\u001b]52;c;AAAA'), outcome.jobReceiptId.slice(0, 80));
    assert.match(outcome.jobReceiptId, /… \(1000008 characters in all\)$/);
    assert.ok(![outcome.jobReceiptId, outcome.error].some((v) => /[\u0000-\u001f\u007f-\u009f]/.test(v)), 'no control character is kept');
    const again = await Journal.open(path, { key: KEY, anchors });
    assert.equal(again.players().get(A)!.state, 'failed');
    // A well-formed receipt is kept exactly, even one the redactor would take for a token.
    const receipt = 'AB12CD34EF56GH78IJ90KL12MN34OP56QR78ST90';
    await again.append({ type: 'outcome', platformId: B, state: 'queued', at: 't', jobReceiptId: receipt });
    assert.equal(again.players().get(B)!.jobReceiptId, receipt);
    await again.close();
  });
});
