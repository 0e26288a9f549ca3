// The journal's anchor (core/deletion/anchor.ts), in-process: every earlier prefix refused, a journal
// ahead of its anchor (a kill between the two writes) accepted, a copy that went another way refused,
// a missing anchor said, the anchor folder's files checked, two copies of one batch never open at once.
import * as assert from 'node:assert/strict';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FolderAnchorStore, Journal, JOURNAL_VERSION, JournalNoAnchor, JournalRolledBack, type BatchRecord } from '../../../src/core/deletion';

const A = 'AAAAAAAAAAAAAAA1';
const B = 'BBBBBBBBBBBBBBB2';
const KEY = 'ANCHORTESTKEY0123456789ABCDEFGHIJ';
const batch: BatchRecord = {
  type: 'batch', version: JOURNAL_VERSION, batchId: 'b-anchor', titleId: 'F71AC', kind: 'platform-id', createdAt: '2026-01-01T00:00:00.000Z',
  entries: [{ line: 1, input: A, status: 'delete', platformId: A }, { line: 2, input: B, status: 'delete', platformId: B }],
};

describe('deletion/anchor', () => {
  let dir: string;
  let path: string;
  let anchors: FolderAnchorStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pe-anchor-'));
    path = join(dir, 'j.jsonl');
    anchors = new FolderAnchorStore(join(dir, 'anchors'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function written(n = 4): Promise<string> {
    const j = await Journal.open(path, { key: KEY, anchors, create: batch });
    const steps = [
      { type: 'intent', platformId: A, at: 't1' }, { type: 'outcome', platformId: A, state: 'queued', at: 't2' },
      { type: 'intent', platformId: B, at: 't3' }, { type: 'outcome', platformId: B, state: 'queued', at: 't4' },
    ] as const;
    for (const r of steps.slice(0, n)) await j.append(r);
    await j.close();
    return readFileSync(path, 'utf8');
  }

  it('every earlier prefix is refused by open and read, naming the file, what was found and what to do; the file is left as it was', async () => {
    const full = await written();
    const lines = full.split('\n').slice(0, -1);
    for (let k = 1; k < lines.length; k++) {
      const cut = `${lines.slice(0, k).join('\n')}\n`;
      writeFileSync(path, cut);
      const behind = (e: unknown): boolean => e instanceof JournalRolledBack
        && e.message.includes(`The journal ${path} is behind its anchor: it holds ${k} records, but batch b-anchor reached ${lines.length} on this machine`)
        && /Nothing was sent and the file was not changed\. Resume the newest copy of this journal \(5 records or more\)/.test(e.message);
      await assert.rejects(Journal.open(path, { key: KEY, anchors }), behind, `prefix of ${k}`);
      await assert.rejects(Journal.read(path, KEY, anchors), behind, `prefix of ${k} (read)`);
      assert.equal(readFileSync(path, 'utf8'), cut);
    }
    writeFileSync(path, full);
    const j = await Journal.open(path, { key: KEY, anchors });
    assert.equal(j.notice, undefined);
    assert.equal(j.players().get(B)!.state, 'queued');
    await j.close();
  });

  it('a journal ahead of its anchor (killed between its line and the anchor) is opened and anchored again', async () => {
    await written(1);
    const older = readFileSync(join(dir, 'anchors', 'b-anchor.json'), 'utf8');
    const j = await Journal.open(path, { key: KEY, anchors });
    await j.append({ type: 'outcome', platformId: A, state: 'queued', at: 't2' });
    await j.close();
    writeFileSync(join(dir, 'anchors', 'b-anchor.json'), older);
    const again = await Journal.open(path, { key: KEY, anchors });
    assert.equal(again.notice, undefined);
    await again.close();
    assert.equal((await anchors.get('b-anchor'))!.lines, 3);
  });

  it('a copy that went on elsewhere (another machine\'s anchors) and came back is not the copy anchored here: refused', async () => {
    await written(2);
    const copy = join(dir, 'copy.jsonl');
    copyFileSync(path, copy);
    const j = await Journal.open(path, { key: KEY, anchors });
    await j.append({ type: 'intent', platformId: B, at: 'here' });
    await j.close();
    const elsewhere = new FolderAnchorStore(join(dir, 'other-machine'));
    // With no anchor there, it is resumed only when the user says it is the newest copy (--no-anchor).
    await assert.rejects(Journal.open(copy, { key: KEY, anchors: elsewhere }), (e: unknown) => e instanceof JournalNoAnchor
      && /^The journal .*copy\.jsonl \(batch b-anchor\) has no anchor in .*other-machine \(no batch was ever anchored there: a new machine, another HOME or XDG_STATE_HOME \(sudo\), or its anchors were removed\), so it cannot be checked .*Nothing was sent and the file was not changed\. If it is the newest copy, resume it with --no-anchor/.test(e.message));
    const c = await Journal.open(copy, { key: KEY, anchors: elsewhere, noAnchor: true });
    assert.match(c.notice ?? '', /Batch b-anchor has no anchor in .*other-machine \(the journal .*copy\.jsonl was never opened on this machine, or its anchors were removed\), so it could not be checked for being cut back or replaced by an older copy; it holds 3 records, and is anchored from now on\./);
    await c.append({ type: 'intent', platformId: B, at: 'there' });
    await c.close();
    await assert.rejects(Journal.open(copy, { key: KEY, anchors }), (e: unknown) => e instanceof JournalRolledBack
      && /The journal .*copy\.jsonl is not the copy of batch b-anchor this machine last wrote: its record 4 differs from the anchored one.*last written as .*j\.jsonl/.test(e.message));
  });

  it('two copies of one batch are never open at once (the batch is held, whatever the path)', async () => {
    await written(2);
    const copy = join(dir, 'copy.jsonl');
    copyFileSync(path, copy);
    const j = await Journal.open(path, { key: KEY, anchors });
    await assert.rejects(Journal.open(copy, { key: KEY, anchors }), /Batch b-anchor \(journal .*copy\.jsonl\) is in use by process \d+ \(this one\), under another copy or name of its journal/);
    await j.close();
    const c = await Journal.open(copy, { key: KEY, anchors });
    await c.close();
  });

  it('anchors that cannot be trusted are refused, saying which and what to do: a symlink, damage, a folder others can write or a linked folder', async () => {
    await written(2);
    const file = join(dir, 'anchors', 'b-anchor.json');
    const kept = readFileSync(file, 'utf8');
    const elsewhere = join(dir, 'elsewhere.json');
    writeFileSync(elsewhere, kept);
    rmSync(file);
    symlinkSync(elsewhere, file);
    await assert.rejects(Journal.open(path, { key: KEY, anchors }), /The anchor .*b-anchor\.json of batch b-anchor is a symbolic link, which could lead to another user's file, so it cannot be trusted; nothing was sent\. Remove it/);
    rmSync(file);
    writeFileSync(file, '{"batchId":"b-anchor","lines":"many"}\n');
    await assert.rejects(Journal.open(path, { key: KEY, anchors }), /The anchor .*b-anchor\.json of batch b-anchor is damaged; nothing was sent\. Remove it/);
    writeFileSync(file, kept);
    chmodSync(join(dir, 'anchors'), 0o777);
    await assert.rejects(Journal.open(path, { key: KEY, anchors: new FolderAnchorStore(join(dir, 'anchors')) }), /The journals' anchor folder .*anchors is writable by group or others \(mode 777\); nothing was sent\. Run chmod go-w on it/);
    chmodSync(join(dir, 'anchors'), 0o700);
    mkdirSync(join(dir, 'state'));
    symlinkSync(join(dir, 'anchors'), join(dir, 'state', 'anchors'));
    await assert.rejects(Journal.open(path, { key: KEY, anchors: new FolderAnchorStore(join(dir, 'state', 'anchors')) }), /anchor folder .* is a symbolic link/);
    const j = await Journal.open(path, { key: KEY, anchors });
    await j.close();
  });
  it('a journal read while a run appends to it is never taken for one cut back (the anchor may move on after the file is read)', async () => {
    await written(0);
    const j = await Journal.open(path, { key: KEY, anchors });
    let appending = true;
    const appends = (async () => {
      for (let k = 0; k < 150; k++) await j.append(k % 2 === 0 ? { type: 'intent', platformId: A, at: `t${k}` } : { type: 'outcome', platformId: A, state: 'queued', at: `t${k}` });
      appending = false;
    })();
    let reads = 0;
    const refused: string[] = [];
    while (appending) {
      // The key as the editor gets it: asynchronously (its secret storage), while the run goes on.
      const slowKey = (): Promise<string> => new Promise((r) => setTimeout(() => r(KEY), 3));
      await Journal.read(path, slowKey, anchors).catch((e: Error) => refused.push(e.message));
      reads++;
    }
    await appends;
    await j.close();
    assert.deepEqual(refused.slice(0, 1), [], `${refused.length} of ${reads} reads refused`);
    assert.ok(reads > 10, `only ${reads} reads overlapped the appends`);
  });
});
