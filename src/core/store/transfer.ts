// Moving deletion batches between journals and the team store. `store import`: each journal is
// checked first by the file journal's own code (its MAC chain and anchor, core/deletion/journal.ts),
// then all of them are written in one transaction, read back and compared record by record before
// it commits: a batch already in the store, or a read-back that differs, and nothing is imported.
// `store export`: a batch's rows as a journal (sealed with the title's key), checked by reading the
// written file back as a journal.
import { hostname } from 'node:os';
import type pg from 'pg';
import { batchOperation, batchProblem, confirmValue, JOURNAL_VERSION, type BatchRecord, type JournalRecord } from '../deletion';
import { checkSchema, connect, dbText, storeWhere, type ConnectOptions } from './connection';
import { canonical, readBatchRecords } from './rows';
import { SCHEMA } from './schema';
import { StoreError, type Operator } from './types';

/** One journal to import: its batch record and the records after it, as the journal check read them. */
export interface JournalToImport {
  path: string;
  batch: BatchRecord;
  records: readonly JournalRecord[];
}

export interface ImportOptions extends ConnectOptions {
  operator: Operator;
}

function failed(e: unknown, url: string, during: string): StoreError {
  if (e instanceof StoreError) return e;
  return new StoreError(`The team store ${storeWhere(url)} refused or stopped while ${during} (${dbText(e, url)}). Nothing was imported (one transaction); the journals were not changed.`);
}

/** Allocates `n` values of the shared sequence, in ascending order (the order the records were written in). */
async function seqs(db: pg.Client, n: number): Promise<string[]> {
  const r = await db.query<{ v: string }>(`SELECT nextval('${SCHEMA}.seq')::text AS v FROM generate_series(1, $1)`, [n]);
  return r.rows.map((x) => BigInt(x.v)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String);
}

/** Writes one batch's rows in the transaction open on `db`; refused when the batch is already there. */
async function writeBatch(db: pg.Client, j: JournalToImport, op: Operator): Promise<void> {
  const machine = hostname();
  const b = j.batch;
  const added = await db.query(`INSERT INTO ${SCHEMA}.batches (batch_id, title_id, operation, record, confirm, operator_fingerprint, operator_name, machine)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (batch_id) DO NOTHING`, [
    b.batchId, b.titleId, batchOperation(b), JSON.stringify(b), confirmValue(b), op.fingerprint, op.name, machine,
  ]);
  if (added.rowCount !== 1) {
    throw new StoreError(`Batch ${b.batchId} (the journal ${j.path}) is already in the team store: it is not imported a second time (two copies of one batch could send a player twice). Nothing was imported; the journals were not changed. Leave that journal out (move it elsewhere) and import the rest, or continue the batch in the store with --store postgres --batch ${b.batchId}.`);
  }
  const ids = await seqs(db, j.records.length);
  const intents = { id: [] as string[], pid: [] as string[], attempt: [] as number[], at: [] as string[] };
  const outcomes = { seq: [] as string[], intent: [] as (string | null)[], pid: [] as string[], state: [] as string[], at: [] as string[], receipt: [] as (string | null)[], titles: [] as (string | null)[], error: [] as (string | null)[] };
  const verified = { seq: [] as string[], pid: [] as string[], at: [] as string[] };
  const attempts = new Map<string, number>();
  /** Each player's latest intent while it has no outcome: the outcome that follows is its answer. */
  const open = new Map<string, string>();
  j.records.forEach((r, i) => {
    if (r.type === 'intent') {
      const n = (attempts.get(r.platformId) ?? 0) + 1;
      attempts.set(r.platformId, n);
      open.set(r.platformId, ids[i]);
      intents.id.push(ids[i]); intents.pid.push(r.platformId); intents.attempt.push(n); intents.at.push(r.at);
    } else if (r.type === 'outcome') {
      outcomes.seq.push(ids[i]); outcomes.intent.push(open.get(r.platformId) ?? null); outcomes.pid.push(r.platformId); outcomes.state.push(r.state);
      outcomes.at.push(r.at); outcomes.receipt.push(r.jobReceiptId ?? null); outcomes.titles.push(r.titleIds === undefined ? null : JSON.stringify(r.titleIds));
      outcomes.error.push(r.error ?? null);
      open.delete(r.platformId);
    } else if (r.type === 'verified') {
      verified.seq.push(ids[i]); verified.pid.push(r.platformId); verified.at.push(r.at);
    }
  });
  const who = [op.fingerprint, op.name, machine];
  // An imported send's lease ends at the import: one without an outcome reads as unknown, as in the journal.
  await db.query(`INSERT INTO ${SCHEMA}.intents (id, batch_id, platform_id, action, attempt, at, operator_fingerprint, operator_name, machine, pid, lease_until)
    SELECT u.id, $1, u.pid, $2, u.attempt, u.at, $3, $4, $5, $6, clock_timestamp() FROM unnest($7::bigint[], $8::text[], $9::int[], $10::text[]) AS u(id, pid, attempt, at)`,
  [b.batchId, batchOperation(b), ...who, process.pid, intents.id, intents.pid, intents.attempt, intents.at]);
  await db.query(`INSERT INTO ${SCHEMA}.outcomes (seq, intent_id, batch_id, platform_id, state, at, job_receipt_id, title_ids, error, operator_fingerprint, operator_name, machine)
    SELECT u.seq, u.intent, $1, u.pid, u.state, u.at, u.receipt, u.titles::jsonb, u.error, $2, $3, $4
      FROM unnest($5::bigint[], $6::bigint[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[]) AS u(seq, intent, pid, state, at, receipt, titles, error)`,
  [b.batchId, ...who, outcomes.seq, outcomes.intent, outcomes.pid, outcomes.state, outcomes.at, outcomes.receipt, outcomes.titles, outcomes.error]);
  await db.query(`INSERT INTO ${SCHEMA}.verifications (seq, batch_id, platform_id, at, operator_fingerprint, operator_name, machine)
    SELECT u.seq, $1, u.pid, u.at, $2, $3, $4 FROM unnest($5::bigint[], $6::text[], $7::text[]) AS u(seq, pid, at)`,
  [b.batchId, ...who, verified.seq, verified.pid, verified.at]);
}

/** The batch as the store holds it now: its record and its records in write order. */
async function readBack(db: pg.Client, batchId: string): Promise<{ batch: BatchRecord; records: JournalRecord[] } | undefined> {
  const r = await db.query<{ record: BatchRecord }>(`SELECT record FROM ${SCHEMA}.batches WHERE batch_id = $1`, [batchId]);
  const batch = r.rows[0]?.record;
  if (batch === undefined) return undefined;
  const { records } = await readBatchRecords((t, v) => db.query(t, v), batchId, batchOperation(batch));
  return { batch, records };
}

/** The first record where the store's copy differs from the journal's, or undefined when they are the same. */
function difference(j: JournalToImport, got: { batch: BatchRecord; records: JournalRecord[] }): string | undefined {
  if (canonical(got.batch) !== canonical(j.batch)) return 'its batch record (the plan)';
  const n = Math.max(got.records.length, j.records.length);
  for (let i = 0; i < n; i++) if (canonical(got.records[i]) !== canonical(j.records[i])) return `record ${i + 2} (of ${j.records.length + 1} in the journal, ${got.records.length + 1} read back)`;
  return undefined;
}

/** Imports every journal in one transaction; what was imported, per batch. */
export async function importJournals(o: ImportOptions, journals: readonly JournalToImport[]): Promise<{ batchId: string; path: string; records: number }[]> {
  const db = await connect(o);
  try {
    await checkSchema(db, o.url).catch((e: unknown) => {
      throw failed(e, o.url, 'reading its schema version');
    });
    await db.query('BEGIN');
    for (const j of journals) {
      await writeBatch(db, j, o.operator).catch((e: unknown) => {
        throw failed(e, o.url, `writing batch ${j.batch.batchId} (the journal ${j.path})`);
      });
      const got = await readBack(db, j.batch.batchId).catch((e: unknown) => {
        throw failed(e, o.url, `reading batch ${j.batch.batchId} back`);
      });
      const diff = got === undefined ? 'the whole batch (not found)' : difference(j, got);
      if (diff !== undefined) throw new StoreError(`Batch ${j.batch.batchId} read back from the team store differs from the journal ${j.path} at ${diff}. Nothing was imported (one transaction); the journals were not changed.`);
    }
    await db.query('COMMIT').catch((e: unknown) => {
      throw failed(e, o.url, 'committing the import');
    });
    return journals.map((j) => ({ batchId: j.batch.batchId, path: j.path, records: j.records.length + 1 }));
  } catch (e) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    await db.end().catch(() => undefined);
  }
}

/** The store's deletion batches (all, or those of `batchIds`), each with its records in write order; read only. */
export async function readBatches(o: ConnectOptions, batchIds?: readonly string[]): Promise<{ batch: BatchRecord; records: JournalRecord[] }[]> {
  const db = await connect(o);
  try {
    await checkSchema(db, o.url);
    const r = await db.query<{ batch_id: string }>(`SELECT batch_id FROM ${SCHEMA}.batches ${batchIds === undefined ? '' : 'WHERE batch_id = ANY($1)'} ORDER BY stored_at, batch_id`, batchIds === undefined ? [] : [batchIds]);
    const found = new Set(r.rows.map((x) => x.batch_id));
    const missing = (batchIds ?? []).filter((id) => !found.has(id));
    if (missing.length > 0) throw new StoreError(`The team store ${storeWhere(o.url)} has no batch ${missing.join(', ')}. Nothing was exported.`);
    const out: { batch: BatchRecord; records: JournalRecord[] }[] = [];
    for (const { batch_id: id } of r.rows) {
      const got = await readBack(db, id);
      if (got === undefined) continue;
      const why = batchProblem(got.batch as unknown as Record<string, unknown>);
      if (why !== undefined || got.batch.version !== JOURNAL_VERSION) throw new StoreError(`Batch ${id} in the team store is not a batch record this version reads (${why ?? 'its version'}). Nothing was exported.`);
      out.push(got);
    }
    return out;
  } catch (e) {
    if (e instanceof StoreError) throw e;
    throw new StoreError(`The team store ${storeWhere(o.url)} refused or stopped while reading the batches to export (${dbText(e, o.url)}). Nothing was exported.`);
  } finally {
    await db.end().catch(() => undefined);
  }
}
