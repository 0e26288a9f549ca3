// A deletion batch's rows read back as the file journal's records, in the order they were written
// (intents, outcomes and verifications share one sequence): what a run replays (postgres.ts), what
// `store import` compares with the journal it came from, and what `store export` writes as a journal.
import type pg from 'pg';
import type { JournalRecord } from '../deletion';
import { SCHEMA } from './schema';

interface Row {
  seq: string;
  kind: 'intent' | 'outcome' | 'verified';
  platform_id: string;
  at: string;
  state: string | null;
  job_receipt_id: string | null;
  title_ids: string[] | null;
  error: string | null;
  live: boolean | null;
}

type Query = <R extends pg.QueryResultRow>(text: string, values: unknown[]) => Promise<pg.QueryResult<R>>;

/** The batch's records in write order, and the players whose latest send another run holds a live lease on. */
export async function readBatchRecords(query: Query, batchId: string, action: string): Promise<{ records: JournalRecord[]; live: Set<string> }> {
  const r = await query<Row>(`
    SELECT i.id AS seq, 'intent' AS kind, i.platform_id, i.at, NULL AS state, NULL AS job_receipt_id, NULL::jsonb AS title_ids, NULL AS error,
           (i.lease_until > clock_timestamp() AND NOT EXISTS (SELECT 1 FROM ${SCHEMA}.outcomes o WHERE o.intent_id = i.id)) AS live
      FROM ${SCHEMA}.intents i WHERE i.batch_id = $1 AND i.action = $2
    UNION ALL SELECT o.seq, 'outcome', o.platform_id, o.at, o.state, o.job_receipt_id, o.title_ids, o.error, NULL
      FROM ${SCHEMA}.outcomes o WHERE o.batch_id = $1
    UNION ALL SELECT v.seq, 'verified', v.platform_id, v.at, NULL, NULL, NULL, NULL, NULL
      FROM ${SCHEMA}.verifications v WHERE v.batch_id = $1
    ORDER BY 1`, [batchId, action]);
  const records: JournalRecord[] = [];
  const live = new Set<string>();
  for (const row of r.rows) {
    if (row.kind === 'intent') {
      records.push({ type: 'intent', platformId: row.platform_id, at: row.at });
      if (row.live === true) live.add(row.platform_id);
    } else if (row.kind === 'verified') {
      records.push({ type: 'verified', platformId: row.platform_id, at: row.at });
    } else {
      records.push({
        type: 'outcome', platformId: row.platform_id, state: row.state as never, at: row.at,
        ...(row.job_receipt_id !== null ? { jobReceiptId: row.job_receipt_id } : {}),
        ...(row.title_ids !== null ? { titleIds: row.title_ids } : {}),
        ...(row.error !== null ? { error: row.error } : {}),
      });
    }
  }
  return { records, live };
}

/** A value as JSON with every object's keys sorted: two records the same whatever order their fields were written in. */
export function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (x !== null && typeof x === 'object' && !Array.isArray(x)
    ? Object.fromEntries(Object.entries(x as Record<string, unknown>).filter(([, y]) => y !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : x));
}
