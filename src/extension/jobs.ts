// The ledger of master-account deletions this machine requested, single and batch, persisted
// in globalState: each with its input, PlatformId, titles wiped, JobReceiptId (or none
// returned), MetaData and state (queued -> verified deleted). Kept after the title is removed:
// it is the user's audit record.
import * as vscode from 'vscode';
import { Disposable } from './lifecycle';
import { awaitsVerification } from '../core/deletion/ledger';
import type { JobState, LedgerEntry } from '../core/deletion/types';

export type { LedgerEntry as DeletionJob } from '../core/deletion/types';

const STATE_KEY = 'platformExplorer.deletionJobs';
const STATES: readonly JobState[] = ['queued', 'verified-deleted', 'failed', 'unknown', 'pending'];

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A stored entry, including those of v0.1 (receipts only: jobReceiptId, platformId, titleId, titleIds). */
function fromStored(v: unknown): LedgerEntry | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  const platformId = str(o.platformId);
  const titleId = str(o.titleId);
  if (platformId === undefined || titleId === undefined) return undefined;
  const state = STATES.includes(o.state as JobState) ? (o.state as JobState) : 'queued';
  const e: LedgerEntry = {
    input: str(o.input) ?? platformId,
    platformId,
    titleId,
    titleIds: Array.isArray(o.titleIds) ? o.titleIds.filter((x): x is string => typeof x === 'string') : [],
    requestedAt: str(o.requestedAt) ?? '',
    state,
  };
  for (const k of ['jobReceiptId', 'metaData', 'verifiedAt', 'batchId', 'error'] as const) {
    const s = str(o[k]);
    if (s !== undefined) e[k] = s;
  }
  return e;
}

/** One entry per batch player, or per single request. */
function keyOf(e: LedgerEntry): string {
  return e.batchId !== undefined ? `${e.batchId}/${e.platformId}` : `single/${e.platformId}/${e.requestedAt}`;
}

export class DeletionJobStore extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: vscode.Memento) {
    super();
  }

  all(): LedgerEntry[] {
    const raw = this.memento.get<unknown>(STATE_KEY);
    return Array.isArray(raw) ? raw.map(fromStored).filter((j): j is LedgerEntry => j !== undefined) : [];
  }

  forTitle(titleId: string): LedgerEntry[] {
    const id = titleId.toUpperCase();
    return this.all().filter((j) => j.titleId === id);
  }

  get(jobReceiptId: string): LedgerEntry | undefined {
    return this.all().find((j) => j.jobReceiptId === jobReceiptId);
  }

  /** The queued deletion of this player, if the ledger holds one. */
  queuedFor(platformId: string): LedgerEntry | undefined {
    const id = platformId.toUpperCase();
    return this.all().find((j) => j.platformId === id && j.state === 'queued');
  }

  /** Adds entries, replacing those of the same batch player (or the same single request). */
  async upsert(entries: readonly LedgerEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const byKey = new Map(this.all().map((e) => [keyOf(e), e]));
    for (const e of entries) byKey.set(keyOf(e), { ...e, titleId: e.titleId.toUpperCase(), titleIds: [...e.titleIds] });
    await this.memento.update(STATE_KEY, [...byKey.values()]);
    this.changed.fire();
  }

  add(entry: LedgerEntry): Promise<void> {
    return this.upsert([entry]);
  }

  /** Marks every queued deletion of these players verified deleted at `at`. */
  async markVerified(platformIds: readonly string[], at: string): Promise<void> {
    const ids = new Set(platformIds.map((p) => p.toUpperCase()));
    if (ids.size === 0) return;
    const list = this.all().map((e) => (awaitsVerification(e) && ids.has(e.platformId) ? { ...e, state: 'verified-deleted' as const, verifiedAt: at } : e));
    await this.memento.update(STATE_KEY, list);
    this.changed.fire();
  }
}
