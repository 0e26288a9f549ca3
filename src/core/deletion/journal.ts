// The deletion journal: one JSON record per line, each authenticated and chained to the line before
// (records.ts), appended and synced to disk before each send (intent) and after it (outcome), so a
// crash, kill -9 or restart resumes without deleting twice; after each line, its anchor outside the
// file (anchor.ts) records how far the batch got, so a journal cut back or an older copy is refused. A new journal is created whole and exclusively (its first line
// written to a temp file, synced, then linked into place, which fails if anything is there). A
// record cut short by a crash is the file's tail only: it is cut off when the journal is opened.
// The editor and the command line both open journals here, under one lock (lock.ts).
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { link, mkdir, open, readFile, rm, truncate, type FileHandle } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { serviceText, shownReceiptId } from '../serviceText';
import type { Anchor, AnchorStore } from './anchor';
import { lockJournal } from './lock';
import {
  batchProblem, FIRST_PREV_MAC, JOURNAL_VERSION, JournalError, JournalRolledBack, macKey, macMatches, recordProblem, sealLine, splitLine,
  type BatchRecord, type JournalRecord, type OutcomeState,
} from './records';
import type { JobState, PlanEntry } from './types';

export * from './records';
export * from './anchor';

/** The title's secret key, or where to find it for the title a journal names. */
export type JournalKey = string | ((titleId: string) => Promise<string | undefined>);

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

/** A player's state once an outcome is on disk. */
export function stateAfter(outcome: OutcomeState): JobState {
  const next: Record<OutcomeState, JobState> = {
    queued: 'queued', throttled: 'pending', 'not-sent': 'pending', failed: 'failed', unknown: 'unknown', 'already-deleted': 'verified-deleted',
  };
  return next[outcome];
}

/** Replays records into each batch player's state. */
// eslint-disable-next-line complexity -- one case per journal record type, replayed in order
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

async function keyFor(key: JournalKey, titleId: string, path: string): Promise<string> {
  const k = typeof key === 'string' ? key : await key(titleId);
  if (k === undefined || k === '') throw new JournalError(`No secret key is stored for title ${titleId}, so the journal ${path} cannot be authenticated; set the title's key first.`);
  return k;
}

interface Parsed {
  batch: BatchRecord;
  records: JournalRecord[];
  /** Each line's MAC, in order. */
  macs: string[];
  tornBytes: number;
  secret: string;
}

/** Parses and authenticates a journal's text; every record checked before any is used. */
async function parse(path: string, text: string, key: JournalKey): Promise<Parsed | undefined> {
  const end = text.lastIndexOf('\n') + 1;
  // Stryker disable next-line MethodExpression: the cut at `end` only spells out what slice(0, -1) drops
  const lines = text.slice(0, end).split('\n').slice(0, -1);
  // Only a header cut short: nothing was sent from it (new journals are linked into place whole).
  if (lines.length === 0) return undefined;
  const damaged = (i: number): JournalError => new JournalError(`The journal ${path} is damaged at line ${i + 1}; it was not changed and nothing was sent. Keep it for the audit record and start the batch with a new --journal file.`);
  const bodies = lines.map((line, i) => {
    try {
      return { line, parts: splitLine(line), value: JSON.parse(line) as unknown };
    } catch {
      throw damaged(i);
    }
  });
  const head = bodies[0].value as Record<string, unknown>;
  if (typeof head !== 'object' || head === null || head.type !== 'batch') {
    throw new JournalError(`${path} does not start with a deletion batch record; is --journal the right file? Nothing was sent.`);
  }
  if (head.version !== JOURNAL_VERSION) {
    throw new JournalError(`The journal ${path} was written by an earlier version of Platform Explorer (journal version ${String(head.version)}, this one reads ${JOURNAL_VERSION}: its lines are not authenticated as one chain), so it cannot be resumed. Nothing was sent. Keep it for the audit record; check which of its players were sent, and start the rest as a new batch with a new --journal file.`);
  }
  const secret = await keyFor(key, String(head.titleId), path);
  const mk = macKey(secret);
  const batchId = String(head.batchId);
  const records: JournalRecord[] = [];
  const macs: string[] = [];
  let players = new Set<string>();
  bodies.forEach(({ parts }, i) => {
    if (parts === undefined || !macMatches(mk, batchId, i, macs[i - 1] ?? FIRST_PREV_MAC, parts.body, parts.mac)) {
      throw new JournalError(`Line ${i + 1} of the journal ${path} has no valid MAC: it was not written by Platform Explorer with this title's secret key, or it was changed, moved or a line before it dropped since. Nothing was sent. Keep the file for the audit record and check who wrote it; start the batch with a new --journal file.`);
    }
    const v = JSON.parse(parts.body) as Record<string, unknown>;
    const why = i === 0 ? batchProblem(v) : v.type === 'batch' ? 'a second batch record' : recordProblem(v, players);
    if (why !== undefined) throw new JournalError(`Line ${i + 1} of the journal ${path} is not a valid record (${why}); nothing was sent. Keep it for the audit record and start the batch with a new --journal file.`);
    if (i === 0) players = new Set((v as unknown as BatchRecord).entries.filter((e) => e.status === 'delete').map((e) => e.platformId!));
    records.push(v as unknown as JournalRecord);
    macs.push(parts.mac);
  });
  return { batch: records[0] as BatchRecord, records, macs, tornBytes: Buffer.byteLength(text.slice(end)), secret };
}

/**
 * Checks a journal against its batch's anchor: refused (never resumed) when it is behind it (cut
 * back, or an older copy) or went another way from it (another copy moved on); a journal with no
 * anchor here is read as it is, and the returned notice says so.
 */
function checkAnchor(path: string, found: Parsed, anchor: Anchor | undefined, anchors: AnchorStore): string | undefined {
  const id = found.batch.batchId;
  const n = found.records.length;
  if (anchor === undefined) {
    return `Batch ${id} has no anchor in ${anchors.where} (the journal ${path} was never opened on this machine, or its anchors were removed), so it could not be checked for being cut back or replaced by an older copy; it holds ${n} records, and is anchored from now on.`;
  }
  const last = `last written as ${anchor.path} at ${anchor.at}`;
  if (n < anchor.lines) {
    throw new JournalRolledBack(`The journal ${path} is behind its anchor: it holds ${n} records, but batch ${id} reached ${anchor.lines} on this machine (${last}). It was cut back or replaced by an older copy, and resuming it would send again the players recorded after its record ${n}. Nothing was sent and the file was not changed. Resume the newest copy of this journal (${anchor.lines} records or more); if it is lost, do not resume this one: the run's receipts or the service's deletion e-mails name the players already queued, and the others can be started as a new batch with a new --journal file.`);
  }
  if (found.macs[anchor.lines - 1] !== anchor.mac) {
    throw new JournalRolledBack(`The journal ${path} is not the copy of batch ${id} this machine last wrote: its record ${anchor.lines} differs from the anchored one (another copy went on from there, ${last}). Nothing was sent and the file was not changed. Resume that copy; keep this one for the audit record.`);
  }
  return undefined;
}

/** A journal with no anchor here, opened to go on without the user's say (--no-anchor, the editor's modal): never resumed. */
export class JournalNoAnchor extends JournalError {}

/** Refuses to resume a journal that has no anchor here, saying why it is missing where that can be told. */
async function refuseNoAnchor(path: string, batchId: string, anchors: AnchorStore): Promise<never> {
  const others = await anchors.list().then((l) => l.length, () => 0);
  const why = others === 0
    ? 'no batch was ever anchored there: a new machine, another HOME or XDG_STATE_HOME (sudo), or its anchors were removed'
    : 'other batches are anchored there but never this one: it was run under another state folder (another HOME or XDG_STATE_HOME, sudo, the editor rather than the command line) or copied from another machine';
  throw new JournalNoAnchor(`The journal ${path} (batch ${batchId}) has no anchor in ${anchors.where} (${why}), so it cannot be checked for being cut back or an older copy, and resuming an older copy would send again the players recorded after it. Nothing was sent and the file was not changed. If it is the newest copy, resume it with --no-anchor (the editor asks first); it is anchored here from then on.`);
}

export class Journal {
  private chain: Promise<void> = Promise.resolve();
  /** Set when a line could not be written whole: nothing more is appended after its torn bytes. */
  private failed: Error | undefined;
  private readonly mac: Buffer;

  private constructor(
    readonly path: string, private readonly fh: FileHandle, readonly batch: BatchRecord, readonly records: JournalRecord[],
    private readonly secret: string, private lastMac: string, private readonly anchors: AnchorStore, private readonly unlock: () => Promise<void>,
    /** Said once on open: the journal had no anchor here, so it could not be checked against one. */
    readonly notice?: string,
  ) {
    this.mac = macKey(secret);
  }

  /**
   * Reads and authenticates a journal, and checks it against its anchor (without writing one);
   * undefined when the file does not exist. Throws JournalError when it is not one, or is behind its anchor.
   */
  static async read(path: string, key: JournalKey, anchors: AnchorStore): Promise<{ batch: BatchRecord; records: JournalRecord[]; tornBytes: number; notice?: string } | undefined> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new JournalError(`Cannot read the journal ${path}: ${(e as Error).message}`);
    }
    let found = await parse(path, text, key);
    if (found === undefined) return undefined;
    const anchor = await anchors.get(found.batch.batchId);
    // Read without the batch's hold: a run may have added lines (and moved the anchor on) since the file was read; read it again.
    // Stryker disable next-line ConditionalExpression,EqualityOperator: reading again a file that is not behind parses the same records
    if (anchor !== undefined && found.records.length < anchor.lines) found = (await parse(path, await readFile(path, 'utf8'), key)) ?? found;
    const notice = checkAnchor(path, found, anchor, anchors);
    return { batch: found.batch, records: found.records, tornBytes: found.tornBytes, ...(notice !== undefined ? { notice } : {}) };
  }

  /**
   * Opens an existing journal for appending (cutting a torn tail), or with `create`, creates a new
   * one exclusively (an existing file at `path` is refused). One process at a time: a second open
   * fails while the first holds the journal, whatever name or copy of it it uses. A journal behind
   * its anchor in `anchors` is refused; every line appended moves the anchor on.
   */
  static async open(path: string, o: { key: JournalKey; create?: BatchRecord; anchors: AnchorStore; noAnchor?: boolean }): Promise<Journal> {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const unlockPath = await lockJournal(path);
    let unlockBatch: (() => Promise<void>) | undefined;
    const unlock = async (): Promise<void> => {
      try {
        await unlockBatch?.();
      } finally {
        await unlockPath();
      }
    };
    try {
      if (o.create !== undefined) {
        const secret = await keyFor(o.key, o.create.titleId, path);
        unlockBatch = await o.anchors.hold(o.create.batchId, path);
        if ((await o.anchors.get(o.create.batchId)) !== undefined) throw new JournalError(`Cannot start the journal ${path}: batch ${o.create.batchId} already has an anchor in ${o.anchors.where}; a new batch needs a new batch ID.`);
        return await Journal.create(path, o.create, secret, o.anchors, unlock);
      }
      const found = await parse(path, await readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => {
        throw new JournalError(e.code === 'ENOENT' ? `No journal at ${path}.` : `Cannot read the journal ${path}: ${e.message}`);
      }), o.key);
      if (found === undefined) throw new JournalError(`The journal ${path} holds no complete batch record: nothing was sent from it. Remove it and start the batch again.`);
      // Under the batch's hold, its anchor cannot move on while it is compared.
      unlockBatch = await o.anchors.hold(found.batch.batchId, path);
      const anchor = await o.anchors.get(found.batch.batchId);
      if (anchor === undefined && o.noAnchor !== true) await refuseNoAnchor(path, found.batch.batchId, o.anchors);
      const notice = checkAnchor(path, found, anchor, o.anchors);
      if (found.tornBytes > 0) await truncate(path, (await readFile(path)).length - found.tornBytes);
      const last = found.macs[found.macs.length - 1];
      const j = new Journal(path, await open(path, 'a', 0o600), found.batch, found.records, found.secret, last, o.anchors, unlock, notice);
      // Ahead of its anchor (a kill between the two writes) or none: anchored as it is now.
      if (anchor?.lines !== found.records.length || anchor.path !== resolve(path)) await j.anchorNow();
      return j;
    } catch (e) {
      await unlock();
      throw e;
    }
  }

  private static async create(path: string, batch: BatchRecord, secret: string, anchors: AnchorStore, unlock: () => Promise<void>): Promise<Journal> {
    const clean = { ...batch, entries: batch.entries.map((e) => cleanEntry(e, secret)) };
    const why = batchProblem(clean as unknown as Record<string, unknown>);
    if (why !== undefined || clean.version !== JOURNAL_VERSION) throw new JournalError(`Cannot start the journal ${path}: the batch record is not valid (${why ?? 'its version'}).`);
    const tmp = `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
    const { line, mac } = sealLine(macKey(secret), clean.batchId, 0, FIRST_PREV_MAC, clean);
    try {
      const fh = await open(tmp, 'wx', 0o600);
      try {
        await fh.writeFile(`${line}\n`, 'utf8');
        await fh.datasync();
      } finally {
        await fh.close();
      }
      await link(tmp, path).catch((e: NodeJS.ErrnoException) => {
        throw e.code === 'EEXIST'
          ? new JournalError(`The journal ${path} already exists; nothing was sent. To resume the batch it holds, add --resume; for a new batch, give a new --journal file.`)
          : e;
      });
    } finally {
      await rm(tmp, { force: true });
    }
    // The new file's directory entry must survive a crash too.
    syncDir(dirname(path));
    const j = new Journal(path, await open(path, 'a', 0o600), clean, [clean], secret, mac, anchors, unlock);
    await j.anchorNow();
    return j;
  }

  /** Writes the anchor of the journal as it is now. */
  private anchorNow(): Promise<void> {
    return this.anchors.set({
      batchId: this.batch.batchId, titleId: this.batch.titleId, lines: this.records.length, mac: this.lastMac, path: resolve(this.path), at: new Date().toISOString(),
    });
  }

  players(): Map<string, PlayerRecord> {
    return replay(this.batch, this.records);
  }

  /**
   * Appends one record (its service text made safe), syncs it to disk, then moves the anchor on;
   * resolves only once both are durable, so what follows (a send) is recorded in both.
   */
  append(record: JournalRecord): Promise<void> {
    const r = record.type === 'outcome' ? cleanOutcome(record, this.secret) : record;
    const write = this.chain.then(async () => {
      if (this.failed !== undefined) {
        throw new JournalError(`Nothing more is written to the journal ${this.path}: an earlier write to it failed (${this.failed.message}). Fix that, then resume the batch: the journal keeps every whole line.`);
      }
      const { line, mac } = sealLine(this.mac, this.batch.batchId, this.records.length, this.lastMac, r);
      try {
        await this.fh.appendFile(`${line}\n`, 'utf8');
        await this.fh.datasync();
      } catch (e) {
        // Part of the line may be on disk: a later line after it would make a damaged middle line
        // (refused on open); as the last line it is a torn tail, cut on the next open.
        this.failed = e as Error;
        throw e;
      }
      this.records.push(r);
      this.lastMac = mac;
      await this.anchorNow();
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

const safe = (s: string | undefined, secret: string, max: number): string | undefined => (s === undefined ? undefined : serviceText(s, { max, secrets: [secret] }));
const safeTitles = (t: string[] | undefined, secret: string): string[] | undefined => t?.slice(0, 1000).map((x) => serviceText(x, { max: 64, secrets: [secret] }));

/** A plan entry as the journal keeps it: the service's text (reason, titles) and a refused input made safe. */
export function cleanEntry(e: PlanEntry, secret: string): PlanEntry {
  const out: PlanEntry = { ...e, titleIds: safeTitles(e.titleIds, secret), reason: safe(e.reason, secret, 1000) };
  // A player's input is kept exactly (it passed its kind's format check); any other is shown, so made safe.
  if (e.status !== 'delete') out.input = serviceText(e.input, { max: 300, secrets: [secret] });
  return JSON.parse(JSON.stringify(out)) as PlanEntry;
}

/** An outcome as the journal keeps it: the service's receipt, titles and error made safe. */
export function cleanOutcome(r: Extract<JournalRecord, { type: 'outcome' }>, secret: string): JournalRecord {
  // A well-formed receipt is kept exactly (the redactor's token heuristic must not mask it); any other is made safe.
  const receipt = r.jobReceiptId !== undefined && shownReceiptId(r.jobReceiptId) === r.jobReceiptId && !r.jobReceiptId.includes(secret)
    ? r.jobReceiptId : safe(r.jobReceiptId, secret, 200);
  const out = { ...r, jobReceiptId: receipt, titleIds: safeTitles(r.titleIds, secret), error: safe(r.error, secret, 1000) };
  return JSON.parse(JSON.stringify(out)) as JournalRecord;
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
