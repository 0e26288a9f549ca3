// One run per journal, the editor's and the command line's alike. The lock is `<real path>.lock`
// (symlinks resolved, so another name of the same file meets the same lock; a journal with hard
// links is refused). It is created whole in one step: a temp file holding "pid nonce" is link()ed
// into place, which fails if a lock exists. A lock whose process is gone (kill -9) is taken over
// only by the one taker that holds the claim `<lock>.stale-<nonce>` (itself such a lock) and finds
// the same nonce still in place: two takers can never both win.
import { createHash, randomBytes } from 'node:crypto';
import { link, lstat, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isProcessAlive } from '../processAlive';
import { JournalError } from './records';

interface Owner {
  pid: number;
  nonce: string;
}

type Release = () => Promise<void>;

/** The owner written in a lock, or undefined once it is gone. Unreadable content is a dead owner. */
async function readOwner(path: string): Promise<Owner | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const m = /^(\d{1,10}) ([0-9a-f]{16})\n$/.exec(text);
  // An earlier version's lock ("pid" alone, or empty if cut short): named by its content.
  if (m === null) return { pid: Number(/^\d{1,10}/.exec(text.trim())?.[0] ?? 0), nonce: createHash('sha256').update(text).digest('hex').slice(0, 16) };
  return { pid: Number(m[1]), nonce: m[2] };
}

class Busy extends Error {
  constructor(readonly pid: number) {
    // Stryker disable next-line StringLiteral: never shown; holdLock words the refusal from the pid
    super(`in use by process ${pid}`);
  }
}

/** Takes the lock file `path` for this process; `depth` bounds the claims on claims. */
async function acquire(path: string, depth: number): Promise<Release> {
  const nonce = randomBytes(8).toString('hex');
  const release: Release = async () => {
    if ((await readOwner(path).catch(() => undefined))?.nonce === nonce) await rm(path, { force: true });
  };
  for (let attempt = 0; attempt < 8; attempt++) {
    const tmp = `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
    // Stryker disable next-line StringLiteral: 'wx' never meets a file, the name holds 6 random bytes
    await writeFile(tmp, `${process.pid} ${nonce}\n`, { mode: 0o600, flag: 'wx' });
    try {
      try {
        await link(tmp, path);
        return release;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const owner = await readOwner(path);
      if (owner === undefined) continue;
      if (owner.pid > 0 && isProcessAlive(owner.pid)) throw new Busy(owner.pid);
      if (depth === 0) break;
      const releaseClaim = await acquire(`${path}.stale-${owner.nonce}`, depth - 1);
      try {
        if ((await readOwner(path))?.nonce === owner.nonce) {
          await rename(tmp, path);
          return release;
        }
      } finally {
        await releaseClaim();
      }
    } finally {
      await rm(tmp, { force: true });
    }
  }
  throw new JournalError(`Cannot take the lock ${path}: it keeps changing hands or was left by runs that are gone; remove it if no run of this batch is going on.`);
}

/** The path a journal is known by whatever name leads to it: its real path (its folder's, when it does not exist yet). */
export async function journalIdentity(journalPath: string): Promise<string> {
  try {
    return await realpath(journalPath);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    return join(await realpath(dirname(journalPath)), basename(journalPath));
  }
}

/** Takes lock file `lockPath` for this process; `busy(pid)` says what to do while another live process holds it. */
export async function holdLock(lockPath: string, busy: (pid: number) => string): Promise<Release> {
  try {
    return await acquire(lockPath, 2);
  } catch (e) {
    if (e instanceof Busy) throw new JournalError(busy(e.pid));
    throw e;
  }
}

const busyJournal = (journalPath: string) => (pid: number): string =>
  `The journal ${journalPath} is in use by process ${pid}${pid === process.pid ? ' (this one)' : ''}; wait for that run to finish. Two runs of one batch could send a deletion twice.`;

/** Locks a journal for this process until the returned function is called. */
export async function lockJournal(journalPath: string): Promise<Release> {
  try {
    const real = await journalIdentity(journalPath);
    const release = await holdLock(`${real}.lock`, busyJournal(journalPath));
    // Checked under the lock: while a journal is created, its temp file is a second name for a moment.
    const st = await lstat(real).catch(() => undefined);
    // A folder's links are its entries: it is refused as unreadable, not as a journal with two names.
    if (st !== undefined && st.isFile() && st.nlink > 1) {
      await release();
      throw new JournalError(`The journal ${journalPath} has ${st.nlink} names (hard links), so a run under another name would not meet its lock; give a journal with one name.`);
    }
    return release;
  } catch (e) {
    if (e instanceof JournalError) throw e;
    throw new JournalError(`Cannot lock the journal ${journalPath}: ${(e as Error).message}`);
  }
}
