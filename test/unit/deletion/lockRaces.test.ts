// The journal lock's races, staged in this process: between two of the lock's own file operations
// another process acts (a hook on fs.promises, which the bundled code calls through the module
// object, does what that process would do at that moment). And the lock's files that are not what
// this tool writes: a folder in its place, a symlink loop for a journal, a file system without hard
// links, a lock in an unknown format held by a live process or being taken over by one.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { holdLock, lockJournal } from '../../../src/core/deletion/lock';

// The module object itself (an import would bind a copy of its members).
const fsp = createRequire(__filename)('node:fs/promises') as typeof import('node:fs/promises');
const busy = (pid: number): string => `busy ${pid}`;
const OURS = new RegExp(`^${process.pid} [0-9a-f]{16}\\n$`);
/** A process that is running and is not this one. */
const LIVE = process.ppid;
/** The nonce a lock in an unknown format is known by (readOwner's rule). */
const nonceOf = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

type Fsp = typeof fsp;
const originals = { link: fsp.link, readFile: fsp.readFile, rm: fsp.rm };

describe('deletion/lock: races and files not of this tool', () => {
  let dir: string;
  let lock: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pe-lockrace-'));
    lock = join(dir, 'j.jsonl.lock');
  });
  afterEach(() => {
    Object.assign(fsp, originals);
    rmSync(dir, { recursive: true, force: true });
  });

  /** Replaces fs.promises.link for the test (afterEach puts it back). */
  function onLink(hook: (from: string, to: string, link: () => Promise<void>) => Promise<void>): void {
    (fsp as { link: Fsp['link'] }).link = (from, to) => hook(String(from), String(to), () => originals.link(from, to));
  }

  it('a lock released between the failed link and the read of its owner is taken on the next try', async () => {
    writeFileSync(lock, `${LIVE} 0123456789abcdef\n`);
    let tries = 0;
    onLink(async (_from, to, link) => {
      if (to !== lock) return link();
      tries++;
      try {
        await link();
      } finally {
        // Its holder releases it just after this link failed.
        if (tries === 1) rmSync(lock);
      }
    });
    const release = await holdLock(lock, busy);
    assert.equal(tries, 2);
    assert.match(readFileSync(lock, 'utf8'), OURS);
    await release();
    assert.deepEqual(readdirSync(dir), []);
  });

  it('a lock that keeps vanishing and coming back is given up after 8 tries, saying so, with nothing left behind', async () => {
    let tries = 0;
    onLink(async (_from, to, link) => {
      if (to !== lock) return link();
      tries++;
      // Held again by then; released just after this link failed.
      writeFileSync(lock, `${LIVE} 0123456789abcdef\n`);
      try {
        await link();
      } finally {
        rmSync(lock);
      }
    });
    await assert.rejects(holdLock(lock, busy), { message: `Cannot take the lock ${lock}: it keeps changing hands or was left by runs that are gone; remove it if no run of this batch is going on.` });
    assert.equal(tries, 8);
    assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.tmp')), [], 'no temp file is left');
  });

  it('a stale lock another taker took over between our claim and our second look is not taken from it', async () => {
    writeFileSync(lock, '999999999 1111111111111111\n');
    onLink(async (_from, to, link) => {
      await link();
      // Our claim on the dead lock is in place; meanwhile a live process took the lock over.
      if (to === `${lock}.stale-1111111111111111`) writeFileSync(lock, `${LIVE} 2222222222222222\n`);
    });
    await assert.rejects(holdLock(lock, busy), { message: `busy ${LIVE}` });
    assert.equal(readFileSync(lock, 'utf8'), `${LIVE} 2222222222222222\n`, 'the new holder keeps it');
    assert.deepEqual(readdirSync(dir), ['j.jsonl.lock'], 'our claim was released');
  });

  it('a release finds its lock removed by hand between reading it and removing it, and ends quietly', async () => {
    const release = await holdLock(lock, busy);
    (fsp as { readFile: Fsp['readFile'] }).readFile = (async (path: string, o: BufferEncoding) => {
      const text = await originals.readFile(path, o);
      if (path === lock) rmSync(lock);
      return text;
    }) as Fsp['readFile'];
    await release();
    assert.equal(existsSync(lock), false);
  });

  it('a file system without hard links is named in the error, not retried as a lock changing hands', async () => {
    onLink(async () => {
      throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' });
    });
    await assert.rejects(lockJournal(join(dir, 'j.jsonl')), { message: `Cannot lock the journal ${join(dir, 'j.jsonl')}: EPERM: operation not permitted, link` });
    assert.deepEqual(readdirSync(dir), [], 'its temp file is removed');
  });

  it('a folder where the lock goes is refused naming the error, not taken or retried', async () => {
    mkdirSync(lock);
    await assert.rejects(lockJournal(join(dir, 'j.jsonl')), { message: `Cannot lock the journal ${join(dir, 'j.jsonl')}: EISDIR: illegal operation on a directory, read` });
    assert.deepEqual(readdirSync(dir), ['j.jsonl.lock']);
  });

  it('a journal name that is a symlink loop is refused, not locked under its folder', async () => {
    const a = join(dir, 'a.jsonl');
    symlinkSync(join(dir, 'b.jsonl'), a);
    symlinkSync(a, join(dir, 'b.jsonl'));
    await assert.rejects(lockJournal(a), { message: `Cannot lock the journal ${a}: ELOOP: too many symbolic links encountered, realpath '${a}'` });
    assert.deepEqual(readdirSync(dir).sort(), ['a.jsonl', 'b.jsonl'], 'no lock was taken');
  });

  it('a lock in no format of this tool is known by its content: a live pid only at its start holds it, and a claim on it by a live taker is respected', async () => {
    // Only a pid at the very start (after blanks) names a live holder.
    for (const text of [`\n ${LIVE}\n`, `${LIVE} 0123456789abcdef\nextra`]) {
      writeFileSync(lock, text);
      await assert.rejects(holdLock(lock, busy), { message: `busy ${LIVE}` }, JSON.stringify(text));
    }
    for (const text of [`x${LIVE}`, `x${LIVE} 0123456789abcdef\n`]) {
      writeFileSync(lock, text);
      const release = await holdLock(lock, busy);
      assert.match(readFileSync(lock, 'utf8'), OURS, JSON.stringify(text));
      await release();
    }
    // A dead lock whose claim (named by the lock's content) a live taker holds is left to that taker.
    for (const text of ['999999999 0123456789abcdef\nextra', 'x999999999 0123456789abcdef\n', '999999999\n']) {
      writeFileSync(lock, text);
      const claim = `${lock}.stale-${nonceOf(text)}`;
      writeFileSync(claim, `${LIVE} 3333333333333333\n`);
      await assert.rejects(holdLock(lock, busy), { message: `busy ${LIVE}` }, JSON.stringify(text));
      assert.equal(readFileSync(lock, 'utf8'), text, 'the lock is left to that taker');
      rmSync(claim);
    }
  });
});
