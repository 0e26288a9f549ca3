// The journal's lock and the anchor folder's files, in this process: a lock held by a live process
// is never taken, one left by a dead one is, by one taker; a release frees only its own lock; an
// anchor that is not exactly as written is refused, and the folder lists and cleans what it holds.
import * as assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FolderAnchorStore, type Anchor } from '../../../src/core/deletion';
import { holdLock, journalIdentity, lockJournal } from '../../../src/core/deletion/lock';

const MAC = 'ab'.repeat(32);
const anchor = (o: Partial<Anchor> = {}): Anchor => ({ batchId: 'b-1', titleId: 'F71AC', lines: 3, mac: MAC, path: '/j.jsonl', at: 't', ...o });
const busy = (pid: number): string => `busy ${pid}`;

describe('deletion/lock and the anchor folder', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'pe-lock-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a lock held by another live process is never taken, and says by whom; this process\'s own lock says "this one"', async () => {
    const path = join(dir, 'j.jsonl');
    writeFileSync(`${path}.lock`, `${process.ppid} 0123456789abcdef\n`);
    await assert.rejects(lockJournal(path), { message: `The journal ${path} is in use by process ${process.ppid}; wait for that run to finish. Two runs of one batch could send a deletion twice.` });
    await assert.rejects(holdLock(`${path}.lock`, busy), { message: `busy ${process.ppid}` });
    assert.equal(readFileSync(`${path}.lock`, 'utf8'), `${process.ppid} 0123456789abcdef\n`, 'the lock is left as it was');
    rmSync(`${path}.lock`);
    const release = await lockJournal(path);
    assert.equal(statSync(`${path}.lock`).mode & 0o777, 0o600, 'the lock is the user\'s alone');
    await assert.rejects(lockJournal(path), { message: `The journal ${path} is in use by process ${process.pid} (this one); wait for that run to finish. Two runs of one batch could send a deletion twice.` });
    await release();
    assert.equal(existsSync(`${path}.lock`), false);
    assert.deepEqual(readdirSync(dir), [], 'no temp file is left');
  });

  it('a release frees only its own lock: one taken over since is left to its holder', async () => {
    const lock = join(dir, 'x.lock');
    const release = await holdLock(lock, busy);
    writeFileSync(lock, `${process.pid} fedcba9876543210\n`);
    await release();
    assert.equal(readFileSync(lock, 'utf8'), `${process.pid} fedcba9876543210\n`);
    rmSync(lock);
    await release();
    assert.equal(existsSync(lock), false);
  });

  it('locks of dead processes, an earlier version\'s ("pid" alone, or empty) included, are taken over; claims on claims are bounded', async () => {
    const lock = join(dir, 'x.lock');
    for (const left of ['999999999 0123456789abcdef\n', '999999999', '', 'garbage\n']) {
      writeFileSync(lock, left);
      const release = await holdLock(lock, busy);
      assert.match(readFileSync(lock, 'utf8'), new RegExp(`^${process.pid} [0-9a-f]{16}\\n$`), JSON.stringify(left));
      await release();
    }
    // A lock of an earlier version held by a live process is still held.
    writeFileSync(lock, `${process.ppid}`);
    await assert.rejects(holdLock(lock, busy), { message: `busy ${process.ppid}` });
    // Dead locks on the lock, on its claim and on the claim's claim: past the bound, refused, saying what to do.
    writeFileSync(lock, '999999999 1111111111111111\n');
    writeFileSync(`${lock}.stale-1111111111111111`, '999999999 2222222222222222\n');
    writeFileSync(`${lock}.stale-1111111111111111.stale-2222222222222222`, '999999999 3333333333333333\n');
    await assert.rejects(holdLock(lock, busy), { message: `Cannot take the lock ${lock}.stale-1111111111111111.stale-2222222222222222: it keeps changing hands or was left by runs that are gone; remove it if no run of this batch is going on.` });
    rmSync(`${lock}.stale-1111111111111111.stale-2222222222222222`);
    const release = await holdLock(lock, busy);
    await release();
    assert.deepEqual(readdirSync(dir), [], 'each dead claim was taken over, and released with the lock');
  });

  it('a journal is known by its real path, existing or not; a path that cannot be one is refused saying why', async () => {
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    const real = await journalIdentity(join(dir, 'real', 'j.jsonl'));
    assert.equal(await journalIdentity(join(dir, 'link', 'j.jsonl')), real);
    assert.ok(real.endsWith('/real/j.jsonl'));
    writeFileSync(join(dir, 'file'), 'x');
    await assert.rejects(lockJournal(join(dir, 'file', 'j.jsonl')), /Cannot lock the journal .*file\/j\.jsonl: ENOTDIR/);
  });

  it('an anchor is read back exactly as set; one with any field not as written is refused as damaged', async () => {
    const store = new FolderAnchorStore(join(dir, 'anchors'));
    assert.equal(await store.get('b-1'), undefined);
    await store.set(anchor());
    assert.deepEqual(await store.get('b-1'), anchor());
    const file = join(dir, 'anchors', 'b-1.json');
    const bad: unknown[] = [
      'not json', null, { ...anchor(), batchId: 'b-2' }, { ...anchor(), titleId: 7 }, { ...anchor(), lines: 0 }, { ...anchor(), lines: 1.5 }, { ...anchor(), lines: '3' },
      { ...anchor(), mac: 'AB'.repeat(32) }, { ...anchor(), mac: 'ab'.repeat(31) }, { ...anchor(), mac: `${MAC}c` }, { ...anchor(), mac: `c${MAC}` }, { ...anchor(), mac: 5 }, { ...anchor(), path: null }, { ...anchor(), at: 1 },
    ];
    for (const v of bad) {
      writeFileSync(file, typeof v === 'string' ? v : JSON.stringify(v));
      await assert.rejects(store.get('b-1'), { message: `The anchor ${file} of batch b-1 is damaged; nothing was sent. Remove it (the journal is then checked as on a new machine).` }, JSON.stringify(v));
    }
    writeFileSync(file, JSON.stringify({ ...anchor(), lines: 1, extra: 'kept out' }));
    assert.deepEqual(await store.get('b-1'), anchor({ lines: 1 }));
    await assert.rejects(store.get('../b'), { message: 'The batch ID "../b" is not one this tool writes.' });
    await assert.rejects(store.set(anchor({ batchId: 'x'.repeat(65) })), /The batch ID "x{65}" is not one this tool writes\./);
  });

  it('an anchor file that is not a plain file of this user\'s, only writable by them, is not trusted', async () => {
    const store = new FolderAnchorStore(join(dir, 'anchors'));
    await store.set(anchor());
    const file = join(dir, 'anchors', 'b-1.json');
    chmodSync(file, 0o666);
    await assert.rejects(store.get('b-1'), { message: `The anchor ${file} of batch b-1 is writable by group or others (mode 666), so it cannot be trusted; nothing was sent. Remove it (the journal is then checked as on a new machine).` });
    chmodSync(file, 0o600);
    chownSync(file, 4242, 4242);
    await assert.rejects(store.get('b-1'), /belongs to another user \(uid 4242\), who could have planted or could change it, so it cannot be trusted/);
    rmSync(file);
    mkdirSync(file);
    await assert.rejects(store.get('b-1'), /is not a regular file, so it cannot be trusted/);
  });

  it('a folder refused once is checked again on the next call; list gives every anchor in order, and nothing else', async () => {
    const where = join(dir, 'anchors');
    await new FolderAnchorStore(where).set(anchor({ batchId: 'b-2' }));
    chmodSync(where, 0o770);
    const store = new FolderAnchorStore(where);
    await assert.rejects(store.list(), { message: `The journals' anchor folder ${where} is writable by group or others (mode 770); nothing was sent. Run chmod go-w on it, or remove it so that it is made again as a folder only you can write.` });
    chmodSync(where, 0o700);
    symlinkSync(where, join(dir, 'linked'));
    await assert.rejects(new FolderAnchorStore(join(dir, 'linked')).list(), { message: `The journals' anchor folder ${join(dir, 'linked')} is a symbolic link, which could lead to another user's file; nothing was sent. Remove it so that it is made again as a folder only you can write.` });
    await store.set(anchor({ batchId: 'b-1', lines: 9 }));
    writeFileSync(join(where, 'b-1.json.lock'), '1 0123456789abcdef\n');
    writeFileSync(join(where, 'notes.txt'), 'x');
    writeFileSync(join(where, 'b_3.json'), 'x');
    assert.deepEqual(await store.list(), [anchor({ batchId: 'b-1', lines: 9 }), anchor({ batchId: 'b-2' })]);
    // In batch ID order whatever order the folder gives; a copy under another name is not listed again.
    for (const id of ['b-9', 'a-3', 'b-10', 'A-1']) await store.set(anchor({ batchId: id }));
    writeFileSync(join(where, 'old_b-2.json'), readFileSync(join(where, 'b-2.json')));
    const fsp = createRequire(__filename)('node:fs/promises') as { readdir: (p: string) => Promise<string[]> };
    const readdir = fsp.readdir;
    fsp.readdir = async (p) => (await readdir(p)).sort().reverse();
    try {
      assert.deepEqual((await store.list()).map((a) => a.batchId), ['A-1', 'a-3', 'b-1', 'b-10', 'b-2', 'b-9']);
    } finally {
      fsp.readdir = readdir;
    }
    await assert.rejects(store.get('y'.repeat(100)), { message: `The batch ID "${'y'.repeat(80)}" is not one this tool writes.` });
  });

  it('an anchor that cannot be looked at says why; temp files gone by the time a hold clears them are no error', async () => {
    const where = join(dir, 'anchors');
    const store = new FolderAnchorStore(where);
    await store.set(anchor());
    const fsp = createRequire(__filename)('node:fs/promises') as { lstat: (p: string) => Promise<unknown>; readdir: (p: string) => Promise<string[]> };
    const { lstat, readdir } = fsp;
    fsp.lstat = async (p) => {
      if (p.endsWith('b-1.json')) throw Object.assign(new Error('EIO: i/o error, lstat'), { code: 'EIO' });
      return lstat(p);
    };
    fsp.readdir = async (p) => {
      const names = await readdir(p);
      // Another cleaner got there first.
      for (const n of names) if (n.endsWith('.tmp')) rmSync(join(where, n));
      return names;
    };
    try {
      await assert.rejects(store.get('b-1'), { message: `Cannot read the anchor ${join(where, 'b-1.json')}: EIO` });
      writeFileSync(join(where, '.b-1.json.0a0a0a.tmp'), 'x');
      const release = await store.hold('b-1', '/j.jsonl');
      await release();
    } finally {
      Object.assign(fsp, { lstat, readdir });
    }
    assert.deepEqual(readdirSync(where), ['b-1.json']);
  });

  it('holding a batch clears the temp files its killed writers left, and only those; a second hold is refused', async () => {
    const where = join(dir, 'anchors');
    const store = new FolderAnchorStore(where);
    await store.set(anchor());
    for (const name of ['.b-1.json.0a0a0a.tmp', '.b-10.json.0a0a0a.tmp', '.b-1.json.0a0a0a.keep', 'b-1.json.0a0a0a.tmp']) writeFileSync(join(where, name), 'x');
    const release = await store.hold('b-1', '/j.jsonl');
    assert.deepEqual(readdirSync(where).sort(), ['.b-1.json.0a0a0a.keep', '.b-10.json.0a0a0a.tmp', 'b-1.json', 'b-1.json.0a0a0a.tmp', 'b-1.json.lock']);
    await assert.rejects(store.hold('b-1', '/other.jsonl'), {
      message: `Batch b-1 (journal /other.jsonl) is in use by process ${process.pid} (this one), under another copy or name of its journal; wait for that run to finish. Two runs of one batch could send a deletion twice.`,
    });
    await release();
    writeFileSync(join(where, 'b-1.json.lock'), `${process.ppid} 0123456789abcdef\n`);
    await assert.rejects(store.hold('b-1', '/j.jsonl'), { message: `Batch b-1 (journal /j.jsonl) is in use by process ${process.ppid}, under another copy or name of its journal; wait for that run to finish. Two runs of one batch could send a deletion twice.` });
  });
});
