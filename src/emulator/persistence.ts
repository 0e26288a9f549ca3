// `--data DIR` persistence: the whole state in DIR/state.json, written atomically
// (temp file in the same directory, fsync, rename) and debounced, so a burst of logins
// costs one write; `flush()` forces the current state to disk (deletion receipts wait for it).
// Outbox messages are also written as files under DIR/outbox/.

import { isProcessAlive } from '../core/processAlive';
import { lstatSync, promises as fs, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { OutboxMessage, PersistedState } from './state';
import { RECEIPT_RE, stateProblem } from './stateCheck';

const STATE_FILE = 'state.json';
const DEBOUNCE_MS = 100;

export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fh = await fs.open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(text, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await fs.rename(tmp, path);
  } catch (e) {
    await fs.rm(tmp, { force: true });
    throw e;
  }
}

/**
 * Deletes temp files left by an emulator that died mid-write (kill -9, power loss); otherwise they
 * pile up with every crash. Files of a process still running are its writes in progress.
 */
async function removeStaleTempFiles(dir: string): Promise<void> {
  for (const name of await fs.readdir(dir)) {
    const m = /\.(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name);
    if (m && Number(m[1]) !== process.pid && !isProcessAlive(Number(m[1]))) {
      await fs.rm(join(dir, name), { force: true });
    }
  }
}

/** Refuses a symlink at `path` (a planted link would send reads, writes or deletes elsewhere). */
function refuseSymlink(path: string, what: string): void {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return;
  }
  if (st.isSymbolicLink()) {
    throw new Error(`The emulator ${what} ${path} is a symbolic link; the emulator does not follow links in its data folder. Remove the link (or use another --data directory).`);
  }
}

/** Reads DIR/state.json; undefined when absent. A broken file is an error naming the file and the fix. */
export function loadState(dir: string): PersistedState | undefined {
  const file = join(dir, STATE_FILE);
  refuseSymlink(file, 'state file');
  refuseSymlink(join(dir, 'outbox'), 'outbox folder');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`Cannot read the emulator state file ${file}: ${(e as Error).message}`);
  }
  return parseState(text, `The emulator state file ${file}`, 'delete it (or use another --data directory) to start from the seed.');
}

/** A state in JSON (state.json, or a snapshot file's `state`), checked; `what` and `fix` word the error. */
export function parseState(text: string | unknown, what: string, fix: string): PersistedState {
  let parsed: unknown = text;
  if (typeof text === 'string') {
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`${what} is not valid JSON; ${fix}`);
    }
  }
  const s = parsed as (Omit<Partial<PersistedState>, 'version'> & { version?: number }) | null;
  if (!s || (s.version !== 1 && s.version !== 2) || typeof s.data !== 'object' || !s.data || typeof s.tokenSecret !== 'string') {
    throw new Error(`${what} has an unknown layout; ${fix}`);
  }
  const problem = stateProblem(s as PersistedState);
  if (problem) throw new Error(`${what} is not valid: ${problem}. ${fix[0].toUpperCase()}${fix.slice(1)}`);
  return migrated(s as PersistedState);
}

/** A state file of an older emulator in today's layout (written back with the next save). */
function migrated(s: PersistedState): PersistedState {
  if ((s.version as number) === 1) {
    // Version 1 kept TotalValueToDateInUSD in dollars; the service reports whole cents.
    for (const p of Object.values(s.data.players)) {
      if (typeof p.totalValueToDateInUSD === 'number') p.totalValueToDateInUSD = Math.round(p.totalValueToDateInUSD * 100);
    }
    s.version = 2;
  }
  return s;
}

/** The outbox file of a receipt: a checked name directly under outbox/. */
function outboxFile(dir: string, jobReceiptId: string): string {
  if (!RECEIPT_RE.test(jobReceiptId)) throw new Error('An outbox message has a malformed JobReceiptId; it is not written.');
  return join(dir, 'outbox', `${jobReceiptId}.json`);
}

/** Writes the state (when a data directory is set); no-op in memory mode. */
export class StateStore {
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;

  constructor(
    private readonly dir: string | undefined,
    private readonly snapshot: () => PersistedState,
    private readonly log: (line: string) => void,
  ) {}

  async init(): Promise<void> {
    if (!this.dir) return;
    refuseSymlink(join(this.dir, 'outbox'), 'outbox folder');
    await fs.mkdir(join(this.dir, 'outbox'), { recursive: true });
    await removeStaleTempFiles(this.dir);
    await removeStaleTempFiles(join(this.dir, 'outbox'));
  }

  /** Schedules a debounced write. */
  markDirty(): void {
    if (!this.dir) return;
    this.dirty = true;
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flush().catch((e: unknown) => this.log(`state write failed: ${(e as Error).message}`));
      }, DEBOUNCE_MS);
      this.timer.unref();
    }
  }

  /** Resolves once everything marked dirty before the call is on disk. */
  async flush(): Promise<void> {
    if (!this.dir) return;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    // Waits out a write in progress: it may hold a snapshot taken before our change.
    while (this.writing) await this.writing;
    if (!this.dirty) return;
    this.dirty = false;
    const text = JSON.stringify(this.snapshot());
    const dir = this.dir;
    this.writing = writeFileAtomic(join(dir, STATE_FILE), text).finally(() => { this.writing = undefined; });
    try {
      await this.writing;
    } catch (e) {
      this.dirty = true;
      throw e;
    }
  }

  async writeOutbox(m: OutboxMessage): Promise<void> {
    if (!this.dir) return;
    refuseSymlink(join(this.dir, 'outbox'), 'outbox folder');
    await writeFileAtomic(outboxFile(this.dir, m.JobReceiptId), JSON.stringify(m, null, 2) + '\n');
  }

  async clearOutbox(): Promise<void> {
    if (!this.dir) return;
    const outbox = join(this.dir, 'outbox');
    // Checked again at each reset: the folder may have been swapped for a link since the start.
    refuseSymlink(outbox, 'outbox folder');
    for (const name of await fs.readdir(outbox)) {
      if (name.endsWith('.json')) await fs.rm(join(outbox, name), { force: true });
    }
  }

  /** Stops the debounce timer after a final flush. */
  async close(): Promise<void> {
    await this.flush();
  }
}
