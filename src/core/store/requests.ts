// Data requests in the team store (issue 33): the same workflow as the folder store
// (core/requests/storage.ts), its state a chain of sealed saves (seal.ts: the MAC under one of the
// request's titles' keys, which the database never holds; the newest save is its own anchor, and
// saves are append-only, so an older copy cannot be put back), each journal of its actions a team
// store batch whose sends are claimed by claim_send before they go out, and its evidence packs rows
// of `evidence`. Two runs may work one request at once: the claims decide who sends what, and a
// save whose generation another run took first is refused (SaveConflict) and merged by the caller.
import { hostname } from 'node:os';
import type pg from 'pg';
import type { Anchor, AnchorStore, BatchRecord, JournalRecord } from '../deletion';
import { REQUEST_ID_RE } from '../requests/model';
import { checkSeal, sealState } from '../requests/seal';
import { SaveConflict, type JournalAccess, type JournalName, type RequestJournal, type RequestStorage } from '../requests/storage';
import { stateProblem } from '../requests/store';
import { RequestError, type ActionKind, type DataRequest, type RequestAuth } from '../requests/types';
import { quoteForMessage } from '../ids';
import { checkSchema, connect, storeWhere } from './connection';
import { openPgBatch, stopped, type PgBatch, type PgStoreOptions } from './postgres';
import { SCHEMA } from './schema';
import { StoreError } from './types';

/** A send held now: whose lease, on what. */
export interface HeldSend {
  requestId: string;
  platformId: string;
  action: string;
  operator: { name: string; fingerprint: string };
  machine: string;
  pid: number;
  leaseUntil: string;
}

/** One save of a request: who wrote it. */
export interface SaveRow {
  requestId: string;
  generation: number;
  operator: { name: string; fingerprint: string };
  machine: string;
  savedAt: string;
}

export class PgRequestStore implements RequestStorage {
  readonly dir: string;
  readonly auth: RequestAuth | undefined;
  private readonly machine = hostname();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly db: pg.Client, private readonly o: PgStoreOptions, auth: RequestAuth | undefined) {
    this.dir = `the team store ${storeWhere(o.url)}`;
    // The newest save is the request's anchor: saves are append-only, so no older copy can come back.
    this.auth = auth === undefined ? undefined : { ...auth, anchors: this.saveAnchors() };
  }

  /** Connects and checks the schema; refused (StoreError, saying what to do) when the store cannot be used. */
  static async open(o: PgStoreOptions & { auth?: RequestAuth }): Promise<PgRequestStore> {
    const db = await connect(o);
    try {
      await checkSchema(db, o.url).catch((e: unknown) => {
        throw e instanceof StoreError ? e : stopped(e, o, 'reading its schema version');
      });
    } catch (e) {
      await db.end().catch(() => undefined);
      throw e;
    }
    return new PgRequestStore(db, o, o.auth);
  }

  async close(): Promise<void> {
    await this.queue.catch(() => undefined);
    await this.db.end().catch(() => undefined);
  }

  private query<R extends pg.QueryResultRow>(text: string, values: unknown[], during: string): Promise<pg.QueryResult<R>> {
    const next = this.queue.then(() => this.db.query<R>(text, values)).catch((e: unknown) => {
      if ((e as { code?: string }).code === '23505') throw e;
      throw stopped(e, this.o, during);
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  private label(id: string): string {
    return `${this.dir} (request ${id})`;
  }

  private saveAnchors(): AnchorStore {
    const where = this.dir;
    return {
      where,
      get: async (id: string): Promise<Anchor | undefined> => {
        const r = await this.query<{ generation: number; mac: string; saved_at: Date }>(`SELECT generation, mac, saved_at FROM ${SCHEMA}.request_saves WHERE request_id = $1 ORDER BY generation DESC LIMIT 1`, [id], `reading request ${id}`);
        const row = r.rows[0];
        return row === undefined ? undefined : { batchId: id, titleId: '', lines: row.generation, mac: row.mac, path: where, at: row.saved_at.toISOString() };
      },
      // The save row written is the anchor.
      set: () => Promise.resolve(),
      list: () => Promise.resolve([]),
      hold: () => Promise.reject(new StoreError('The team store holds no journal files.')),
    };
  }

  private needAuth(): RequestAuth {
    if (this.auth === undefined) throw new RequestError(`${this.dir} was opened without the titles' keys: requests can be shown, not changed.`);
    return this.auth;
  }

  private checkId(id: string): void {
    if (!REQUEST_ID_RE.test(id)) throw new RequestError(`"${quoteForMessage(id)}" is not a request id (they look like dr-20261102-a1b2c3); list them with request show.`);
  }

  async create(r: DataRequest): Promise<void> {
    this.checkId(r.id);
    const op = this.o.operator;
    try {
      await this.query(`INSERT INTO ${SCHEMA}.requests (request_id, operator_fingerprint, operator_name, machine) VALUES ($1, $2, $3, $4)`, [r.id, op.fingerprint, op.name, this.machine], `storing request ${r.id}`);
    } catch (e) {
      if ((e as { code?: string }).code === '23505') throw new RequestError(`A request ${r.id} already exists in ${this.dir}; nothing was written. Try again (a new id is drawn each time).`);
      throw e;
    }
    await this.save(r);
  }

  async load(id: string): Promise<DataRequest> {
    this.checkId(id);
    const r = await this.query<{ state: string }>(`SELECT state FROM ${SCHEMA}.request_saves WHERE request_id = $1 ORDER BY generation DESC LIMIT 1`, [id], `reading request ${id}`);
    if (r.rows[0] === undefined) throw new RequestError(`Request ${id}: no such request in ${this.dir}; list them with request show --store postgres.`);
    return this.parse(id, r.rows[0].state);
  }

  private parse(id: string, text: string): DataRequest {
    let r: DataRequest;
    try {
      r = JSON.parse(text) as DataRequest;
    } catch {
      throw new RequestError(`Request ${id}: its newest save in ${this.dir} is not JSON (damaged).`);
    }
    const why = stateProblem(r, id);
    if (why !== undefined) throw new RequestError(`Request ${id}: its newest save in ${this.dir} ${why}.`);
    return r;
  }

  async loadChecked(id: string): Promise<DataRequest> {
    const r = await this.load(id);
    await checkSeal(r, this.needAuth(), this.label(id));
    return r;
  }

  async save(r: DataRequest): Promise<void> {
    const text = await sealState(r, this.needAuth(), this.label(r.id));
    const op = this.o.operator;
    try {
      await this.query(`INSERT INTO ${SCHEMA}.request_saves (request_id, generation, state, mac, operator_fingerprint, operator_name, machine) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
        r.id, r.seal!.generation, text, r.seal!.mac, op.fingerprint, op.name, this.machine,
      ], `saving request ${r.id}`);
    } catch (e) {
      if ((e as { code?: string }).code === '23505') throw new SaveConflict(`Request ${r.id} was changed by another run while this one worked on it (its save ${r.seal!.generation} was written first there). What this run sent is recorded in its journals; run the same command again to see where it stands.`);
      throw e;
    }
  }

  async list(): Promise<{ requests: DataRequest[]; problems: string[] }> {
    const rows = await this.query<{ request_id: string; state: string }>(`SELECT DISTINCT ON (request_id) request_id, state FROM ${SCHEMA}.request_saves ORDER BY request_id, generation DESC`, [], 'listing requests');
    const requests: DataRequest[] = [];
    const problems: string[] = [];
    for (const row of rows.rows) {
      try {
        requests.push(this.parse(row.request_id, row.state));
      } catch (e) {
        problems.push((e as Error).message);
      }
    }
    requests.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    return { requests, problems };
  }

  /** No lock: the claims decide who sends, and a save of a generation already written is refused. */
  lock(): Promise<() => Promise<void>> {
    return Promise.resolve(() => Promise.resolve());
  }

  async journalNames(id: string): Promise<JournalName[]> {
    const r = await this.query<{ name: string; kind: ActionKind; title_id: string }>(`SELECT name, kind, title_id FROM ${SCHEMA}.request_journals WHERE request_id = $1 ORDER BY name`, [id], `reading the journals of request ${id}`);
    return r.rows.map((x) => ({ name: x.name, kind: x.kind, titleId: x.title_id }));
  }

  private async batchOf(id: string, name: string, access: JournalAccess, create?: BatchRecord): Promise<PgBatch> {
    const r = await this.query<{ batch_id: string; title_id: string }>(`SELECT batch_id, title_id FROM ${SCHEMA}.request_journals WHERE request_id = $1 AND name = $2`, [id, name], `reading the journals of request ${id}`);
    const row = r.rows[0];
    const batchId = create?.batchId ?? row?.batch_id;
    const titleId = create?.titleId ?? row?.title_id;
    if (batchId === undefined || titleId === undefined) throw new RequestError(`Request ${id} has no journal ${name} in ${this.dir}.`);
    const secret = await access.key(titleId);
    if (secret === undefined) throw new RequestError(`No secret key for title ${titleId}, whose key sends the actions of ${name} for request ${id}; set it and run again.`);
    return openPgBatch({ ...this.o, batchId, titleId, secret, ...(create !== undefined ? { create } : {}) });
  }

  openJournal(id: string, name: string, access: JournalAccess): Promise<RequestJournal> {
    return this.batchOf(id, name, access);
  }

  async createJournal(id: string, kind: ActionKind, titleId: string, batch: BatchRecord, access: JournalAccess): Promise<string> {
    const during = `storing a journal of request ${id}`;
    const op = this.o.operator;
    // One run at a time makes a request's journals: a run that read the journals before a racing run made
    // this one joins it (its players are there) rather than putting them in a second journal.
    await this.query('BEGIN', [], during);
    try {
      await this.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`request-journal/${id}`], during);
      const there = await this.query<{ name: string; pids: string[] }>(`SELECT j.name, ARRAY(SELECT e->>'platformId' FROM jsonb_array_elements(b.record->'entries') e) AS pids
        FROM ${SCHEMA}.request_journals j JOIN ${SCHEMA}.batches b ON b.batch_id = j.batch_id WHERE j.request_id = $1 AND j.kind = $2 ORDER BY j.name`, [id, kind], during);
      const mine = new Set(batch.entries.map((e) => e.platformId));
      const joined = there.rows.find((j) => j.name.startsWith(`${kind}-${titleId}.`) || j.name.startsWith(`${kind}-${titleId}-`) ? j.pids.some((p) => mine.has(p)) : false);
      let name = joined?.name;
      if (name === undefined) {
        const taken = there.rows.map((j) => j.name);
        name = `${kind}-${titleId}.journal`;
        for (let n = 2; taken.includes(name); n++) name = `${kind}-${titleId}-${n}.journal`;
        await (await this.batchOf(id, name, access, batch)).close();
        await this.query(`INSERT INTO ${SCHEMA}.request_journals (request_id, name, kind, title_id, batch_id, operator_fingerprint, operator_name, machine)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [id, name, kind, titleId, batch.batchId, op.fingerprint, op.name, this.machine], during);
      }
      await this.query('COMMIT', [], during);
      return name;
    } catch (e) {
      await this.db.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }

  async readJournal(id: string, name: string, access: JournalAccess): Promise<{ batch: BatchRecord; records: readonly JournalRecord[] } | undefined> {
    const b = await this.batchOf(id, name, access);
    try {
      return { batch: b.batch, records: b.records() };
    } finally {
      await b.close();
    }
  }

  removeJournals(id: string): Promise<void> {
    return Promise.reject(new RequestError(`Request ${id} is in ${this.dir}, whose send records and saves are append-only: its identifiers cannot be hashed or shredded there yet. Nothing was changed.`));
  }

  async writeEvidence(id: string, json: string, markdown: string): Promise<void> {
    const op = this.o.operator;
    await this.query(`INSERT INTO ${SCHEMA}.evidence (subject, body, operator_fingerprint, operator_name, machine) VALUES ($1, $2, $3, $4, $5)`, [
      id, JSON.stringify({ kind: 'request-evidence', json, markdown }), op.fingerprint, op.name, this.machine,
    ], `storing the evidence of request ${id}`);
  }

  async readEvidence(id: string, which: 'json' | 'md'): Promise<string | undefined> {
    const r = await this.query<{ body: { json?: unknown; markdown?: unknown } }>(`SELECT body FROM ${SCHEMA}.evidence WHERE subject = $1 AND body->>'kind' = 'request-evidence' ORDER BY seq DESC LIMIT 1`, [id], `reading the evidence of request ${id}`);
    const v = which === 'json' ? r.rows[0]?.body.json : r.rows[0]?.body.markdown;
    return typeof v === 'string' ? v : undefined;
  }

  evidencePath(id: string, which: 'json' | 'md'): string {
    return `${this.dir} (evidence of request ${id}, ${which === 'json' ? 'evidence.json' : 'evidence.md'})`;
  }

  /** The shared queue: each send held now (a live lease without an outcome), and who wrote each save. */
  async queueState(): Promise<{ held: HeldSend[]; saves: SaveRow[] }> {
    const held = await this.query<{ request_id: string; platform_id: string; action: string; operator_name: string; operator_fingerprint: string; machine: string; pid: number; lease_until: Date }>(`
      SELECT j.request_id, i.platform_id, i.action, i.operator_name, i.operator_fingerprint, i.machine, i.pid, i.lease_until
        FROM ${SCHEMA}.request_journals j JOIN ${SCHEMA}.intents i ON i.batch_id = j.batch_id
        WHERE i.lease_until > clock_timestamp() AND NOT EXISTS (SELECT 1 FROM ${SCHEMA}.outcomes o WHERE o.intent_id = i.id)
        ORDER BY i.id`, [], 'reading the shared queue');
    const saves = await this.query<{ request_id: string; generation: number; operator_name: string; operator_fingerprint: string; machine: string; saved_at: Date }>(`
      SELECT request_id, generation, operator_name, operator_fingerprint, machine, saved_at FROM ${SCHEMA}.request_saves ORDER BY request_id, generation`, [], 'reading the shared queue');
    return {
      held: held.rows.map((x) => ({ requestId: x.request_id, platformId: x.platform_id, action: x.action, operator: { name: x.operator_name, fingerprint: x.operator_fingerprint }, machine: x.machine, pid: x.pid, leaseUntil: x.lease_until.toISOString() })),
      saves: saves.rows.map((x) => ({ requestId: x.request_id, generation: x.generation, operator: { name: x.operator_name, fingerprint: x.operator_fingerprint }, machine: x.machine, savedAt: x.saved_at.toISOString() })),
    };
  }
}
