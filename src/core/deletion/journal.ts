// The deletion journal: one JSON record per line, appended and synced to disk before each send
// (intent) and after it (outcome), so a crash, kill -9 or restart resumes without deleting twice.
// A record cut short by a crash is the file's tail only: it is cut off when the journal is opened.
import { isProcessAlive } from '../processAlive';
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { mkdir, open, readFile, rm, truncate, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { IdKind, JobState, PlanEntry } from './types';

export const JOURNAL_VERSION = 1;

export interface BatchRecord {
  type: 'batch';
  version: number;
  batchId: string;
  titleId: string;
  kind: IdKind;
  sandbox?: string;
  metaData?: string;
  createdAt: string;
  /** The whole plan; its `delete` entries are the batch's players. */
  entries: PlanEntry[];
}

export type OutcomeState = 'queued' | 'throttled' | 'not-sent' | 'failed' | 'unknown' | 'already-deleted';

export type JournalRecord =
  | BatchRecord
  | { type: 'intent'; platformId: string; at: string }
  | { type: 'outcome'; platformId: string; state: OutcomeState; at: string; jobReceiptId?: string; titleIds?: string[]; error?: string }
  | { type: 'verified'; platformId: string; at: string };

/** Where one player of the batch stands after replaying the journal. */
export interface PlayerRecord {
  state: JobState;
  /** Times an intent was written (sends tried). */
  intents: number;
  requestedAt?: string;
  jobReceiptId?: string;
  titleIds?: string[];
  verifiedAt?: string;
  error?: string;
}

export class JournalError extends Error {}

function isRecord(v: unknown): v is JournalRecord {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as { type?: unknown; platformId?: unknown };
  if (r.type === 'batch') return true;
  return (r.type === 'intent' || r.type === 'outcome' || r.type === 'verified') && typeof r.platformId === 'string';
}

/** A player's state once an outcome is on disk. */
export function stateAfter(outcome: OutcomeState): JobState {
  const next: Record<OutcomeState, JobState> = {
    queued: 'queued', throttled: 'pending', 'not-sent': 'pending', failed: 'failed', unknown: 'unknown', 'already-deleted': 'verified-deleted',
  };
  return next[outcome];
}

/** Replays records into each batch player's state. */
export function replay(batch: BatchRecord, records: readonly JournalRecord[]): Map<string, PlayerRecord> {
  const players = new Map<string, PlayerRecord>();
  for (const e of batch.entries) {
    if (e.status === 'delete' && e.platformId !== undefined) players.set(e.platformId, { state: 'pending', intents: 0, titleIds: e.titleIds });
  }
  for (const r of records) {
    if (r.type === 'batch') continue;
    const p = players.get(r.platformId);
    if (p === undefined) continue;
    if (r.type === 'intent') {
      p.intents++;
      // Until its outcome is on disk, a sent request may or may not have been acted on.
      if (p.state !== 'queued' && p.state !== 'verified-deleted') p.state = 'unknown';
      p.requestedAt ??= r.at;
    } else if (r.type === 'verified') {
      p.state = 'verified-deleted';
      p.verifiedAt = r.at;
    } else if (p.state !== 'verified-deleted') {
      // A queued job stays queued: a later refusal or failure of a re-send does not undo it.
      if (p.state !== 'queued' || r.state === 'already-deleted') p.state = stateAfter(r.state);
      if (r.state === 'queued' || r.state === 'already-deleted') p.requestedAt = p.requestedAt ?? r.at;
      if (r.jobReceiptId !== undefined) p.jobReceiptId = r.jobReceiptId;
      if (r.titleIds !== undefined) p.titleIds = r.titleIds;
      if (r.state === 'already-deleted') p.verifiedAt = r.at;
      p.error = r.error;
    }
  }
  return players;
}

export class Journal {
  private chain: Promise<void> = Promise.resolve();

  private constructor(
    readonly path: string, private readonly fh: FileHandle, readonly batch: BatchRecord, readonly records: JournalRecord[],
    private readonly unlock: () => Promise<void>,
  ) {}

  /** Reads a journal; undefined when the file does not exist. Throws JournalError when it is not one. */
  static async read(path: string): Promise<{ batch: BatchRecord; records: JournalRecord[]; tornBytes: number } | undefined> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new JournalError(`Cannot read the journal ${path}: ${(e as Error).message}`);
    }
    const end = text.lastIndexOf('\n') + 1;
    const lines = text.slice(0, end).split('\n').slice(0, -1);
    const records: JournalRecord[] = [];
    lines.forEach((line, i) => {
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch {
        throw new JournalError(`The journal ${path} is damaged at line ${i + 1}; it was not changed. Keep it for the audit record and start the batch with a new --journal file.`);
      }
      if (!isRecord(v)) throw new JournalError(`Line ${i + 1} of ${path} is not a deletion journal record; is --journal the right file?`);
      records.push(v);
    });
    // Only a header cut short by a crash: nothing was sent, so it is as if there were no journal.
    if (records.length === 0) return undefined;
    const batch = records[0];
    if (batch.type !== 'batch' || batch.version !== JOURNAL_VERSION || !Array.isArray(batch.entries)) {
      throw new JournalError(`${path} does not start with a deletion batch record (version ${JOURNAL_VERSION}); is --journal the right file?`);
    }
    return { batch, records, tornBytes: Buffer.byteLength(text.slice(end)) };
  }

  /**
   * Opens an existing journal for appending (cutting a torn tail), or creates one with `batch` as
   * its first record. One process at a time: a second open fails while the first holds the journal.
   */
  static async open(path: string, create?: BatchRecord): Promise<Journal> {
    await mkdir(dirname(path), { recursive: true });
    const unlock = await lockFile(`${path}.lock`, path);
    try {
      const found = await Journal.read(path);
      if (found === undefined) {
        if (create === undefined) throw new JournalError(`No journal at ${path}.`);
        const fh = await open(path, 'w', 0o600);
        const j = new Journal(path, fh, create, [], unlock);
        await j.append(create);
        // The new file's directory entry must survive a crash too.
        syncDir(dirname(path));
        return j;
      }
      if (found.tornBytes > 0) {
        const size = (await readFile(path)).length - found.tornBytes;
        await truncate(path, size);
      }
      return new Journal(path, await open(path, 'a', 0o600), found.batch, found.records, unlock);
    } catch (e) {
      await unlock();
      throw e;
    }
  }

  players(): Map<string, PlayerRecord> {
    return replay(this.batch, this.records);
  }

  /** Appends one record and syncs it to disk; resolves only once it is durable. */
  append(r: JournalRecord): Promise<void> {
    const line = JSON.stringify(r) + '\n';
    const write = this.chain.then(async () => {
      await this.fh.appendFile(line, 'utf8');
      await this.fh.datasync();
      this.records.push(r);
    });
    this.chain = write.catch(() => undefined);
    return write;
  }

  async close(): Promise<void> {
    try {
      await this.chain;
      await this.fh.close();
    } finally {
      await this.unlock();
    }
  }
}

/** Takes `lockPath` for this process; a lock left by a process that is gone (kill -9) is taken over. */
async function lockFile(lockPath: string, journalPath: string): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fh = await open(lockPath, 'wx', 0o600);
      await fh.writeFile(String(process.pid));
      await fh.close();
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        await rm(lockPath, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new JournalError(`Cannot lock the journal ${journalPath}: ${(e as Error).message}`);
      const pid = Number((await readFile(lockPath, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && isProcessAlive(pid)) {
        throw new JournalError(`The journal ${journalPath} is in use by process ${pid}${pid === process.pid ? ' (this one)' : ''}; wait for that run to finish. Two runs of one batch could send a deletion twice.`);
      }
      await rm(lockPath, { force: true });
    }
  }
  throw new JournalError(`Cannot lock the journal ${journalPath}; remove ${lockPath} if no run of this batch is going on.`);
}

function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems cannot sync a directory; the file itself is synced.
  }
}
