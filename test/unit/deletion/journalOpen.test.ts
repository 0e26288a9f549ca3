// Opening and creating a journal, each refusal in this process: no key, no file, a header cut
// short, a second batch record, a batch that already has an anchor, a batch record that is not
// one; and what a journal keeps of the service's text and of a refused input.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { FolderAnchorStore, Journal, JOURNAL_VERSION, JournalError, macKey, sealLine, splitLine, type BatchRecord } from '../../../src/core/deletion';

const A = 'AAAAAAAAAAAAAAA1';
const KEY = 'OPENTESTKEY0123456789ABCDEFGHIJKL';
const batch = (o: Partial<BatchRecord> = {}): BatchRecord => ({
  type: 'batch', version: JOURNAL_VERSION, batchId: 'b-open', titleId: 'F71AC', kind: 'platform-id', createdAt: 't0',
  entries: [{ line: 1, input: A, status: 'delete', platformId: A }], ...o,
});

describe('deletion/journal: open and create', () => {
  let dir: string;
  let path: string;
  let anchors: FolderAnchorStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pe-jopen-'));
    path = join(dir, 'j.jsonl');
    anchors = new FolderAnchorStore(join(dir, 'anchors'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('without the title\'s key nothing is created or read, saying which title; the key may come from a lookup by title', async () => {
    const noKey = `No secret key is stored for title F71AC, so the journal ${path} cannot be authenticated; set the title's key first.`;
    for (const key of ['', async () => undefined, async () => '']) {
      await assert.rejects(Journal.open(path, { key, anchors, create: batch() }), { message: noKey });
    }
    assert.deepEqual(readdirSync(dir), [], 'no file, no lock left');
    const asked: string[] = [];
    const j = await Journal.open(path, { key: async (t) => { asked.push(t); return KEY; }, anchors, create: batch() });
    await j.close();
    await assert.rejects(Journal.read(path, async () => undefined, anchors), { message: noKey });
    await assert.rejects(Journal.open(path, { key: async () => undefined, anchors }), { message: noKey });
    assert.deepEqual(asked, ['F71AC']);
  });

  it('no file: read says undefined, open says there is none; a header cut short is nothing sent', async () => {
    assert.equal(await Journal.read(path, KEY, anchors), undefined);
    await assert.rejects(Journal.open(path, { key: KEY, anchors }), { message: `No journal at ${path}.` });
    writeFileSync(path, '{"type":"batch","vers');
    assert.equal(await Journal.read(path, KEY, anchors), undefined);
    await assert.rejects(Journal.open(path, { key: KEY, anchors }), { message: `The journal ${path} holds no complete batch record: nothing was sent from it. Remove it and start the batch again.` });
    rmSync(path);
    mkdirSync(path);
    await assert.rejects(Journal.read(path, KEY, anchors), (e: unknown) => e instanceof JournalError && e.message.startsWith(`Cannot read the journal ${path}: EISDIR`));
    await assert.rejects(Journal.open(path, { key: KEY, anchors }), { message: `Cannot read the journal ${path}: EISDIR: illegal operation on a directory, read` });
  });

  it('read gives the batch, its records and the torn tail\'s size, without changing the file or writing an anchor', async () => {
    const j = await Journal.open(path, { key: KEY, anchors, create: batch() });
    await j.append({ type: 'intent', platformId: A, at: 't1' });
    await j.close();
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"type":"outc`);
    const before = readFileSync(path, 'utf8');
    const anchorBefore = readFileSync(join(dir, 'anchors', 'b-open.json'), 'utf8');
    const found = (await Journal.read(path, KEY, anchors))!;
    assert.deepEqual([found.batch.batchId, found.records.map((r) => r.type), found.tornBytes, found.notice], ['b-open', ['batch', 'intent'], 13, undefined]);
    assert.equal(readFileSync(path, 'utf8'), before);
    const other = new FolderAnchorStore(join(dir, 'elsewhere'));
    assert.match((await Journal.read(path, KEY, other))!.notice ?? '', /^Batch b-open has no anchor in .*elsewhere .*it holds 2 records, and is anchored from now on\.$/);
    assert.equal(await other.get('b-open'), undefined, 'read writes no anchor');
    assert.equal(readFileSync(join(dir, 'anchors', 'b-open.json'), 'utf8'), anchorBefore);
    // Opened, the tail is cut off and the journal goes on from its last whole line.
    const again = await Journal.open(path, { key: KEY, anchors });
    await again.append({ type: 'outcome', platformId: A, state: 'queued', at: 't2' });
    await again.close();
    assert.equal(readFileSync(path, 'utf8').split('\n').length, 4);
    assert.equal((await anchors.get('b-open'))!.lines, 3);
  });

  it('a journal read while its run appends a line (its anchor moved on after the file was read) is read again, not refused as cut back', async () => {
    const j = await Journal.open(path, { key: KEY, anchors, create: batch() });
    // The module object itself: the bundled code calls readFile through it.
    const fsp = createRequire(__filename)('node:fs/promises') as { readFile: (...a: unknown[]) => Promise<unknown> };
    const readFile = fsp.readFile;
    let raced = 0;
    fsp.readFile = async (...a: unknown[]) => {
      const text = await readFile(...a);
      // The run writes its next line (and anchor) just after this read of the journal.
      if (a[0] === path && raced++ === 0) await j.append({ type: 'intent', platformId: A, at: 't1' });
      return text;
    };
    let found: Awaited<ReturnType<typeof Journal.read>>;
    try {
      found = await Journal.read(path, KEY, anchors);
    } finally {
      fsp.readFile = readFile;
      await j.close();
    }
    assert.deepEqual([found!.records.map((r) => r.type), found!.notice, raced], [['batch', 'intent'], undefined, 2]);
  });

  it('a batch that already has an anchor is not started again, under any path; a batch record that is not one is refused, and nothing is left', async () => {
    const j = await Journal.open(path, { key: KEY, anchors, create: batch() });
    await j.close();
    const second = join(dir, 'second.jsonl');
    await assert.rejects(Journal.open(second, { key: KEY, anchors, create: batch() }), {
      message: `Cannot start the journal ${second}: batch b-open already has an anchor in ${join(dir, 'anchors')}; a new batch needs a new batch ID.`,
    });
    await assert.rejects(Journal.open(second, { key: KEY, anchors, create: batch({ batchId: 'b-2', kind: 'email' as never }) }), {
      message: `Cannot start the journal ${second}: the batch record is not valid (its kind is not one of platform-id, consolelive, storefront).`,
    });
    await assert.rejects(Journal.open(second, { key: KEY, anchors, create: batch({ batchId: 'b-2', version: 2 }) }), {
      message: `Cannot start the journal ${second}: the batch record is not valid (its version).`,
    });
    assert.deepEqual(readdirSync(dir).sort(), ['anchors', 'j.jsonl']);
    // The batch is free again once refused: a valid record then starts it.
    const ok = await Journal.open(second, { key: KEY, anchors, create: batch({ batchId: 'b-2' }) });
    await ok.close();
  });

  it('a first line that is JSON but no record, and a step naming a player the batch does not delete, are refused', async () => {
    for (const head of ['null', '5', '"batch"']) {
      writeFileSync(path, `${head}\n`);
      await assert.rejects(Journal.open(path, { key: KEY, anchors }), { message: `${path} does not start with a deletion batch record; is --journal the right file? Nothing was sent.` }, head);
    }
    rmSync(path);
    // Players the plan did not send (already queued, already deleted, could not check) are not players a journal may record.
    const C = 'CCCCCCCCCCCCCCC3';
    const j = await Journal.open(path, { key: KEY, anchors, create: batch({ entries: [{ line: 1, input: A, status: 'delete', platformId: A }, { line: 2, input: C, status: 'already-queued', platformId: C }] }) });
    await j.close();
    const first = readFileSync(path, 'utf8');
    writeFileSync(path, first + `${sealLine(macKey(KEY), 'b-open', 1, splitLine(first.trim())!.mac, { type: 'intent', platformId: C, at: 't' }).line}\n`);
    await assert.rejects(Journal.open(path, { key: KEY, anchors }), { message: `Line 2 of the journal ${path} is not a valid record (it names ${C}, not a player of this batch); nothing was sent. Keep it for the audit record and start the batch with a new --journal file.` });
  });

  it('a file system without hard links: a new journal is refused saying why, not "already exists", and leaves nothing', async () => {
    const fsp = createRequire(__filename)('node:fs/promises') as { link: (a: unknown, b: unknown) => Promise<void> };
    const link = fsp.link;
    fsp.link = async (from, to) => {
      if (to === path) throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' });
      return link(from, to);
    };
    try {
      await assert.rejects(Journal.open(path, { key: KEY, anchors, create: batch() }), { message: 'EPERM: operation not permitted, link' });
    } finally {
      fsp.link = link;
    }
    assert.deepEqual(readdirSync(dir), ['anchors'], 'no journal, temp file or lock left');
  });

  it('a second batch record in a journal is refused by its line', async () => {
    const j = await Journal.open(path, { key: KEY, anchors, create: batch() });
    await j.close();
    const head = readFileSync(path, 'utf8');
    writeFileSync(path, head + `${sealLine(macKey(KEY), 'b-open', 1, splitLine(head.trim())!.mac, batch()).line}\n`);
    await assert.rejects(Journal.open(path, { key: KEY, anchors }), { message: `Line 2 of the journal ${path} is not a valid record (a second batch record); nothing was sent. Keep it for the audit record and start the batch with a new --journal file.` });
  });

  it('a refused input is kept made safe, a player\'s input exactly; the service\'s receipt is kept exactly unless it holds the key', async () => {
    const entries = [
      { line: 1, input: A.toLowerCase(), status: 'delete' as const, platformId: A, titleIds: ['F71AC\u001b[2J'], reason: `why ${KEY}` },
      { line: 2, input: `bad\u0007${KEY}`, status: 'invalid' as const, reason: 'not one' },
    ];
    const j = await Journal.open(path, { key: KEY, anchors, create: batch({ entries }) });
    await j.append({ type: 'outcome', platformId: A, state: 'queued', at: 't', jobReceiptId: `R-${KEY}` });
    await j.close();
    const text = readFileSync(path, 'utf8');
    assert.ok(!text.includes(KEY), 'the key is in no line');
    const [head, outcome] = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const kept = head.entries as { input: string; titleIds?: string[]; reason?: string }[];
    assert.equal(kept[0].input, A.toLowerCase());
    assert.ok(!/[\u0000-\u001f]/.test(JSON.stringify(kept[0].titleIds) + kept[1].input), JSON.stringify(kept));
    assert.match(kept[1].input, /^bad\\u0007/);
    assert.notEqual(outcome.jobReceiptId, `R-${KEY}`);
    assert.match(String(outcome.jobReceiptId), /^R-/);
  });
  it('a new journal\'s folders are made (700), the file is 600 and whole; a journal moved to another name is anchored under it', async () => {
    const nested = join(dir, 'a', 'b', 'j.jsonl');
    const j = await Journal.open(nested, { key: KEY, anchors, create: batch() });
    await j.append({ type: 'intent', platformId: A, at: 't1' });
    await j.close();
    assert.equal(statSync(join(dir, 'a', 'b')).mode & 0o777, 0o700);
    assert.equal(statSync(nested).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(join(dir, 'a', 'b')), ['j.jsonl'], 'no temp file or lock left');
    assert.equal((await anchors.get('b-open'))!.path, nested);
    const moved = join(dir, 'moved.jsonl');
    renameSync(nested, moved);
    const again = await Journal.open(moved, { key: KEY, anchors });
    await again.close();
    assert.deepEqual([(await anchors.get('b-open'))!.path, (await anchors.get('b-open'))!.lines], [moved, 2]);
  });

  it('what a journal keeps of long service text is clipped: a reason, a refused input, an error, a list of titles', async () => {
    const entries = [
      { line: 1, input: A, status: 'delete' as const, platformId: A, reason: 'r'.repeat(1500) },
      { line: 2, input: 'i'.repeat(1000), status: 'invalid' as const },
    ];
    const j = await Journal.open(path, { key: KEY, anchors, create: batch({ entries }) });
    const titleIds = Array.from({ length: 1500 }, (_, i) => `Title ${i} ${'ab '.repeat(30)}`);
    await j.append({ type: 'outcome', platformId: A, state: 'failed', at: 't', error: 'e'.repeat(1500), titleIds });
    await j.close();
    const [head, outcome] = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, never>);
    const kept = head.entries as { input: string; reason?: string }[];
    assert.ok(kept[0].reason!.length < 1100 && kept[0].reason!.startsWith('r'.repeat(900)), `reason ${kept[0].reason!.length}`);
    assert.ok(kept[1].input.length < 400 && kept[1].input.startsWith('i'.repeat(250)), `input ${kept[1].input.length}`);
    assert.ok((outcome.error as string).length < 1100, `error ${(outcome.error as string).length}`);
    const titles = outcome.titleIds as string[];
    assert.equal(titles.length, 1000);
    assert.equal(titles[999], `${titleIds[999].slice(0, 64)}… (${titleIds[999].length} characters in all)`, 'each title clipped to 64 characters');
  });
});
