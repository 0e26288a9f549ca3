// The journal's records: their shapes, their check (every field, before anything is sent), and the
// MAC that authenticates each line. The MAC key is derived from the title's secret key (HMAC of a
// fixed label) and never written; each line's MAC covers the batch ID, the line's index, the MAC of
// the line before it and its exact bytes: a line written without the key, changed, moved, dropped
// or taken from another journal is refused, and the last line's MAC stands for the whole journal
// (what its anchor, anchor.ts, keeps outside the file).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { brand } from '../brand';
import { isPlatformId, quoteForMessage, TITLE_ID_RE } from '../ids';
import { formatError } from './input';
import { ID_KINDS, type IdKind, type PlanEntry, type PlanStatus } from './types';

/** Version 3: every line carries a MAC chained over the line before it (version 2: MACs not chained). */
export const JOURNAL_VERSION = 3;

export class JournalError extends Error {}
brand(JournalError, 'JournalError');

/** A journal behind its anchor (cut back, or an older copy) or gone another way from it: never resumed. */
export class JournalRolledBack extends JournalError {}

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
  /** What is sent for each player: absent for DeleteMasterPlayerAccount (every journal before data requests). */
  operation?: JournalOperation;
}

/** Operations a journal may send other than DeleteMasterPlayerAccount (a data request's export and events-only erasure). */
const JOURNAL_OPERATIONS = ['ExportMasterPlayerData', 'DeleteMasterPlayerEventData'] as const;
export type JournalOperation = (typeof JOURNAL_OPERATIONS)[number];

/** The operation a journal's batch sends, in the service's words. */
export function batchOperation(b: { operation?: JournalOperation }): JournalOperation | 'DeleteMasterPlayerAccount' {
  return b.operation ?? 'DeleteMasterPlayerAccount';
}

const OUTCOME_STATES = ['queued', 'throttled', 'not-sent', 'failed', 'unknown', 'already-deleted'] as const;
export type OutcomeState = (typeof OUTCOME_STATES)[number];

export type JournalRecord =
  | BatchRecord
  | { type: 'intent'; platformId: string; at: string }
  | { type: 'outcome'; platformId: string; state: OutcomeState; at: string; jobReceiptId?: string; titleIds?: string[]; error?: string }
  | { type: 'verified'; platformId: string; at: string };

const PLAN_STATUSES: readonly PlanStatus[] = ['delete', 'unlinked', 'invalid', 'duplicate', 'already-queued', 'already-deleted', 'failed'];
const BATCH_ID_RE = /^[A-Za-z0-9-]{1,64}$/;
const TIME_MAX = 40;
/** Longest service string a record holds (they are clipped to less when written). */
const RECORD_TEXT_MAX = 2000;
const INVISIBLE_RE = /[\u0000-\u001f\u007f-\u009f]/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, max = RECORD_TEXT_MAX): boolean => typeof v === 'string' && v.length <= max && !INVISIBLE_RE.test(v);
const optText = (v: unknown, max?: number): boolean => v === undefined || text(v, max);
const titleList = (v: unknown): boolean => v === undefined || (Array.isArray(v) && v.length <= 10_000 && v.every((t) => text(t, 200)));

/** What is wrong with a batch record, or undefined when it is one. */
export function batchProblem(v: Obj): string | undefined {
  if (typeof v.batchId !== 'string' || !BATCH_ID_RE.test(v.batchId)) return 'its batch ID is not one this tool writes';
  if (typeof v.titleId !== 'string' || !TITLE_ID_RE.test(v.titleId)) return 'its title ID is not a title ID';
  if (!(ID_KINDS as readonly unknown[]).includes(v.kind)) return `its kind is not one of ${ID_KINDS.join(', ')}`;
  if (!optText(v.sandbox, 64) || !optText(v.metaData) || !text(v.createdAt, TIME_MAX)) return 'its sandbox, ticket or date is not text of a valid length';
  if (v.operation !== undefined && !(JOURNAL_OPERATIONS as readonly unknown[]).includes(v.operation)) return `its operation is not one of ${JOURNAL_OPERATIONS.join(', ')}`;
  if (!Array.isArray(v.entries) || v.entries.length > 1_000_000) return 'it holds no list of players';
  for (const [i, e] of (v.entries as unknown[]).entries()) {
    const why = entryProblem(e, v.kind as IdKind);
    if (why !== undefined) return `entry ${i + 1} of its plan ${why}`;
  }
  return undefined;
}

function entryProblem(e: unknown, kind: IdKind): string | undefined {
  if (!isObj(e) || !Number.isSafeInteger(e.line) || (e.line as number) < 1) return 'has no line number';
  if (!text(e.input, 1024) || !(PLAN_STATUSES as readonly unknown[]).includes(e.status)) return 'has no input or an unknown status';
  if (e.platformId !== undefined && !isPlatformId(e.platformId)) return `has a PlatformId that is not 14-16 hex characters ("${quoteForMessage(String(e.platformId))}")`;
  if (!titleList(e.titleIds) || !optText(e.reason)) return 'has title IDs or a reason that are not text of a valid length';
  if (e.status === 'delete') {
    if (e.platformId === undefined) return 'is to be deleted but names no PlatformId';
    const bad = formatError(kind, e.input as string);
    if (bad !== undefined) return `is to be deleted but its input is not a valid ${kind}: ${bad}`;
  }
  return undefined;
}

/** What is wrong with record `v` of a journal whose batch deletes `players`, or undefined. */
export function recordProblem(v: Obj, players: ReadonlySet<string>): string | undefined {
  if (v.type !== 'intent' && v.type !== 'outcome' && v.type !== 'verified') return `its type "${quoteForMessage(String(v.type))}" is not intent, outcome or verified`;
  if (!isPlatformId(v.platformId)) return 'its PlatformId is not 14-16 hex characters';
  if (!players.has(v.platformId)) return `it names ${v.platformId}, not a player of this batch`;
  if (!text(v.at, TIME_MAX)) return 'its date is missing';
  if (v.type !== 'outcome') return undefined;
  if (!(OUTCOME_STATES as readonly unknown[]).includes(v.state)) return `its state "${quoteForMessage(String(v.state))}" is not a known state (${OUTCOME_STATES.join(', ')})`;
  if (!optText(v.jobReceiptId, 400) || !titleList(v.titleIds) || !optText(v.error)) return 'its receipt, titles or error are not text of a valid length';
  return undefined;
}

/** The journal's MAC key for a title's secret key: never written anywhere. */
export function macKey(secretKey: string): Buffer {
  return createHmac('sha256', secretKey).update('platform-explorer deletion journal MAC v2').digest();
}

/** The MAC the first line chains from. */
export const FIRST_PREV_MAC = '';

function macOf(key: Buffer, batchId: string, index: number, prev: string, body: string): string {
  return createHmac('sha256', key).update(`${batchId}\n${index}\n${prev}\n`).update(body).digest('hex');
}

const MAC_TAIL_RE = /,"mac":"([0-9a-f]{64})"\}$/;

/** Record `r` as line `index` of batch `batchId`'s journal after a line whose MAC is `prev`, with its MAC (no newline). */
export function sealLine(key: Buffer, batchId: string, index: number, prev: string, r: JournalRecord): { line: string; mac: string } {
  const body = JSON.stringify(r);
  const mac = macOf(key, batchId, index, prev, body);
  return { line: `${body.slice(0, -1)},"mac":"${mac}"}`, mac };
}

/** The body of a sealed line and its MAC, or undefined when the line carries none. */
export function splitLine(line: string): { body: string; mac: string } | undefined {
  const m = MAC_TAIL_RE.exec(line);
  return m === null ? undefined : { body: `${line.slice(0, m.index)}}`, mac: m[1] };
}

export function macMatches(key: Buffer, batchId: string, index: number, prev: string, body: string, mac: string): boolean {
  return timingSafeEqual(Buffer.from(macOf(key, batchId, index, prev, body), 'hex'), Buffer.from(mac, 'hex'));
}

/** A whole journal's text: the batch record and then `records`, each line sealed and chained (what a journal written line by line holds). */
export function sealJournal(batch: BatchRecord, records: readonly JournalRecord[], secretKey: string): { text: string; lines: number; lastMac: string } {
  const key = macKey(secretKey);
  let prev = FIRST_PREV_MAC;
  const out: string[] = [];
  for (const [i, r] of [batch, ...records].entries()) {
    const { line, mac } = sealLine(key, batch.batchId, i, prev, r);
    out.push(`${line}\n`);
    prev = mac;
  }
  return { text: out.join(''), lines: out.length, lastMac: prev };
}
