// Deletion batches in the team store (PostgreSQL): the batch record (its plan) as a row, each send
// claimed in the database before it goes out (claim_send: an intent row, the next attempt of that
// player and action, with a lease naming the operator, machine and process), each outcome and
// verification an appended row. A player's state is the file journal's replay of those rows in
// the order they were written, so a send whose lease expired without an outcome is "unknown"
// exactly as in the journal, and is sent again only on the caller's confirmation (resendUnknown).
import { hostname } from 'node:os';
import type pg from 'pg';
import {
  batchOperation, batchProblem, cleanEntry, cleanOutcome, confirmValue, replay, JOURNAL_VERSION,
  type BatchRecord, type JournalRecord, type PlayerRecord,
} from '../deletion';
import { checkSchema, connect, dbText, storeWhere, type ConnectOptions } from './connection';
import { readBatchRecords } from './rows';
import { SCHEMA } from './schema';
import { StoreError, type BatchJournal, type Operator } from './types';

export interface PgStoreOptions extends ConnectOptions {
  operator: Operator;
  /** How long a claimed send is held before, without an outcome, it reads as unknown (default 900 s). */
  leaseSeconds?: number;
  /** What to run when the database answers again (default: the same command with --resume). */
  again?: string;
}

/** What went wrong talking to the store during a run, and what to do. */
export function stopped(e: unknown, o: Pick<PgStoreOptions, 'url' | 'again'>, during: string): StoreError {
  if (e instanceof StoreError) return e;
  const url = o.url;
  const timeout = (e as { code?: string }).code === '57014';
  return new StoreError(`The team store ${storeWhere(url)} ${timeout ? 'did not finish a statement in time' : 'stopped answering'} while ${during} (${dbText(e, url)}). `
    + 'The run stopped: nothing more was sent, and no player was sent without its intent committed first. A player sent whose answer was not recorded reads as unknown. '
    + `When the database answers again, ${o.again ?? 'run the same command with --resume: it says how many are unknown and sends them again only on that confirmation'}.`);
}

export class PgBatch implements BatchJournal {
  private cache: Map<string, PlayerRecord> = new Map();
  private recs: JournalRecord[] = [];
  /** Players another run holds a live lease on (in flight there). */
  held = new Set<string>();
  /** This run's open intents, by player. */
  private readonly mine = new Map<string, string>();
  private readonly action: string;
  private readonly machine = hostname();
  /** One connection: its statements go one after another (the run's workers share it). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly db: pg.Client, private readonly o: PgStoreOptions, readonly batch: BatchRecord, private readonly secret: string) {
    this.action = batchOperation(batch);
  }

  private query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    const next = this.queue.then(() => this.db.query<R>(text, values));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The batch's records as of the last reload, in the order they were written (for a request's evidence). */
  records(): readonly JournalRecord[] {
    return [...this.recs];
  }

  players(): Map<string, PlayerRecord> {
    return new Map([...this.cache].map(([k, v]) => [k, { ...v }]));
  }

  /** Reads every row of the batch again (other runs may have moved it on). */
  async reload(): Promise<void> {
    try {
      const { records, live } = await readBatchRecords((t, v) => this.query(t, v), this.batch.batchId, this.action);
      const held = new Set([...live].filter((pid) => !this.mine.has(pid)));
      this.cache = replay(this.batch, records);
      this.recs = records;
      for (const pid of [...held]) if (this.cache.get(pid)?.state !== 'unknown') held.delete(pid);
      this.held = held;
    } catch (e) {
      throw stopped(e, this.o, `reading batch ${this.batch.batchId}`);
    }
  }

  async claim(platformId: string, o: { resendUnknown: boolean }): Promise<boolean> {
    let answer: string;
    try {
      const r = await this.query<{ r: string }>(`SELECT ${SCHEMA}.claim_send($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) AS r`, [
        this.batch.batchId, platformId, this.action, o.resendUnknown, new Date().toISOString(),
        this.o.operator.fingerprint, this.o.operator.name, this.machine, process.pid, this.o.leaseSeconds ?? 900,
      ]);
      answer = r.rows[0].r;
    } catch (e) {
      throw stopped(e, this.o, `claiming the send of ${platformId}`);
    }
    if (!answer.startsWith('claimed:')) return false;
    this.mine.set(platformId, answer.slice('claimed:'.length));
    return true;
  }

  /**
   * Just before a claimed send: under the player's lock (the one claim_send takes), is this run's
   * intent still the player's latest, its lease live for a while yet? If its lease ran out and
   * nobody claimed the player since, the intent is answered "not-sent" (so it is not unknown);
   * if another run claimed it, that run's outcome stands. Either way nothing is sent here.
   */
  async stillHeld(platformId: string): Promise<string | undefined> {
    const mine = this.mine.get(platformId);
    if (mine === undefined) return undefined;
    const lease = this.o.leaseSeconds ?? 900;
    const op = this.o.operator;
    const check = this.queue.then(async () => {
      await this.db.query('BEGIN');
      try {
        await this.db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${platformId}/${this.action}`]);
        const r = await this.db.query<{ intent_id: string; batch_id: string; operator_name: string; machine: string; attempt: number; live: boolean }>(`
          SELECT id::text AS intent_id, batch_id, operator_name, machine, attempt, lease_until > clock_timestamp() + make_interval(secs => $3) AS live
            FROM ${SCHEMA}.intents WHERE platform_id = $1 AND action = $2 ORDER BY id DESC LIMIT 1`, [platformId, this.action, Math.min(60, lease / 4)]);
        const last = r.rows[0];
        let why: string | undefined;
        if (last?.intent_id === mine && last.live) why = undefined;
        else if (last?.intent_id === mine) {
          why = `this run's claim on it (a lease of ${lease} s) ran out before the send was due, so it was not sent; it is recorded as not sent, and a later run sends it`;
          await this.db.query(`INSERT INTO ${SCHEMA}.outcomes (intent_id, batch_id, platform_id, state, at, error, operator_fingerprint, operator_name, machine)
            VALUES ($1, $2, $3, 'not-sent', $4, $5, $6, $7, $8)`, [mine, this.batch.batchId, platformId, new Date().toISOString(), `not sent: the claim's lease ran out before the send`, op.fingerprint, op.name, this.machine]);
        } else {
          why = `this run's claim on it (a lease of ${lease} s) ran out before the send was due, and ${last.operator_name} on ${last.machine} claimed it since (batch ${last.batch_id}, attempt ${last.attempt}), so this run did not send it; that run's outcome stands`;
        }
        await this.db.query('COMMIT');
        return why;
      } catch (e) {
        await this.db.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    });
    this.queue = check.catch(() => undefined);
    try {
      const why = await check;
      if (why !== undefined) this.mine.delete(platformId);
      return why;
    } catch (e) {
      throw stopped(e, this.o, `checking the claim on ${platformId} before its send`);
    }
  }

  async append(record: JournalRecord): Promise<void> {
    const op = this.o.operator;
    try {
      if (record.type === 'outcome') {
        const r = cleanOutcome(record, this.secret) as Extract<JournalRecord, { type: 'outcome' }>;
        const intent = this.mine.get(r.platformId) ?? null;
        await this.query(`INSERT INTO ${SCHEMA}.outcomes (intent_id, batch_id, platform_id, state, at, job_receipt_id, title_ids, error, operator_fingerprint, operator_name, machine)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, [
          intent, this.batch.batchId, r.platformId, r.state, r.at, r.jobReceiptId ?? null, r.titleIds === undefined ? null : JSON.stringify(r.titleIds), r.error ?? null,
          op.fingerprint, op.name, this.machine,
        ]);
        this.mine.delete(r.platformId);
        if (intent !== null) await this.leaseKept(intent, r.platformId, r.state);
      } else if (record.type === 'verified') {
        await this.query(`INSERT INTO ${SCHEMA}.verifications (batch_id, platform_id, at, operator_fingerprint, operator_name, machine) VALUES ($1, $2, $3, $4, $5, $6)`, [
          this.batch.batchId, record.platformId, record.at, op.fingerprint, op.name, this.machine,
        ]);
      } else {
        throw new StoreError(`A ${record.type} record is not appended to a team store batch: sends are claimed.`);
      }
    } catch (e) {
      throw stopped(e, this.o, `recording ${record.type === 'batch' ? 'the batch' : `the ${record.type} of ${record.platformId}`}`);
    }
  }

  /** After an answer is recorded: refused (the run stops) when its lease ran out and another run claimed that send since. */
  private async leaseKept(intent: string, platformId: string, state: string): Promise<void> {
    const r = await this.query<{ operator_name: string; operator_fingerprint: string; machine: string; pid: number }>(`SELECT n.operator_name, n.operator_fingerprint, n.machine, n.pid
      FROM ${SCHEMA}.intents i JOIN ${SCHEMA}.intents n ON n.batch_id = i.batch_id AND n.platform_id = i.platform_id AND n.action = i.action AND n.attempt > i.attempt
      WHERE i.id = $1 ORDER BY n.attempt DESC LIMIT 1`, [intent]);
    const n = r.rows[0];
    if (n === undefined) return;
    throw new StoreError(`The lease on the send of ${platformId} (batch ${this.batch.batchId}) ran out while this run awaited its answer, and ${n.operator_name} (${n.operator_fingerprint}) on ${n.machine} (process ${n.pid}) claimed that send since. `
      + `This run recorded the answer it got (${state}) and stopped: nothing more was sent by it. See who holds what (request show --store postgres, or the batch's rows) before running again; if sends take longer than the lease, raise PLATFORM_STORE_LEASE_SECONDS.`);
  }

  async close(): Promise<void> {
    await this.queue;
    await this.db.end().catch(() => undefined);
  }
}

/**
 * Opens batch `batchId` in the store, creating it from `create` when it is not there yet. A batch
 * already there is joined only when its plan sends the same players as `create`'s (the same
 * --confirm value); without `create` it must exist.
 */
export async function openPgBatch(o: PgStoreOptions & { batchId: string; secret: string; titleId: string; create?: BatchRecord }): Promise<PgBatch> {
  const db = await connect(o);
  try {
    await checkSchema(db, o.url).catch((e: unknown) => {
      throw e instanceof StoreError ? e : stopped(e, o, 'reading its schema version');
    });
    if (o.create !== undefined) {
      const clean = { ...o.create, entries: o.create.entries.map((e) => cleanEntry(e, o.secret)) };
      const why = batchProblem(clean as unknown as Record<string, unknown>);
      if (why !== undefined) throw new StoreError(`Cannot start batch ${o.batchId}: the batch record is not valid (${why}).`);
      await db.query(`INSERT INTO ${SCHEMA}.batches (batch_id, title_id, operation, record, confirm, operator_fingerprint, operator_name, machine)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (batch_id) DO NOTHING`, [
        o.batchId, clean.titleId, batchOperation(clean), JSON.stringify(clean), confirmValue(clean), o.operator.fingerprint, o.operator.name, hostname(),
      ]).catch((e: unknown) => {
        throw stopped(e, o, `storing batch ${o.batchId}`);
      });
    }
    const r = await db.query<{ record: BatchRecord; confirm: string }>(`SELECT record, confirm FROM ${SCHEMA}.batches WHERE batch_id = $1`, [o.batchId]).catch((e: unknown) => {
      throw stopped(e, o, `reading batch ${o.batchId}`);
    });
    const row = r.rows[0];
    if (row === undefined) throw new StoreError(`The team store ${storeWhere(o.url)} has no batch ${o.batchId}. Nothing was sent. Check --batch, or start it (without --resume) from a plan.`);
    const batch = row.record;
    const why = batchProblem(batch as unknown as Record<string, unknown>);
    if (why !== undefined || batch.version !== JOURNAL_VERSION || batch.batchId !== o.batchId) {
      throw new StoreError(`Batch ${o.batchId} in the team store is not a batch record this version reads (${why ?? 'its version or ID'}). Nothing was sent.`);
    }
    if (batch.titleId !== o.titleId) throw new StoreError(`Batch ${o.batchId} belongs to title ${batch.titleId}, not ${o.titleId}; give the same --title, or another --batch.`);
    if (o.create !== undefined && confirmValue(o.create) !== row.confirm) {
      throw new StoreError(`Batch ${o.batchId} is already in the team store with another plan (other players, title or kind). Nothing was sent. Give a new --batch ID for this plan, or add --resume to continue that batch.`);
    }
    const b = new PgBatch(db, o, batch, o.secret);
    await b.reload();
    return b;
  } catch (e) {
    await db.end().catch(() => undefined);
    throw e;
  }
}
