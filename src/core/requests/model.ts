// A request's dates and state machine: due = received + days; the state is derived from what the
// state file records (resolution, actions, close), so it can never disagree with it.
import { randomBytes } from 'node:crypto';
import { quoteForMessage } from '../ids';
import { ASKS, isSettled, RequestError, type Action, type Ask, type DataRequest, type Identifier, type RequestState } from './types';

export const DEFAULT_DUE_DAYS = 30;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const REQUEST_ID_RE = /^dr-\d{8}-[0-9a-f]{6}$/;

/** Why `s` is not a calendar date YYYY-MM-DD, or undefined. */
export function dateProblem(s: string): string | undefined {
  const m = DATE_RE.exec(s);
  const d = m === null ? undefined : new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (d === undefined || d.toISOString().slice(0, 10) !== s) return `"${quoteForMessage(s)}" is not a date: write it as YYYY-MM-DD, e.g. 2026-11-02.`;
  return undefined;
}

/** received + days, as YYYY-MM-DD. */
export function dueDate(received: string, days: number): string {
  const d = new Date(`${received}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The asks from "access,erasure[,events]"; throws RequestError naming the bad one. */
export function parseAsks(s: string): Ask[] {
  const parts = s.split(',').map((x) => x.trim()).filter((x) => x.length > 0);
  if (parts.length === 0) throw new RequestError(`Name what was asked: one or more of ${ASKS.join(', ')}, separated by commas.`);
  for (const p of parts) if (!(ASKS as readonly string[]).includes(p)) throw new RequestError(`"${quoteForMessage(p)}" is not an ask: use ${ASKS.join(', ')} (any mix, separated by commas).`);
  return ASKS.filter((a) => parts.includes(a));
}

export interface NewRequest {
  reference: string;
  asks: Ask[];
  identifiers: Identifier[];
  titles: string[];
  endpoint: string;
  /** YYYY-MM-DD, default today (UTC). */
  received?: string;
  dueDays?: number;
  /** Days erasures are held after the request is made (default 0: none). */
  holdDays?: number;
  /** Titles (of `titles`) that allow non-unique display names: display-name lookups are not sent there. */
  displayNamesNotUnique?: string[];
  now?: Date;
}

export const MAX_HOLD_DAYS = 90;

/** A new request (state received) with a fresh id; throws RequestError naming the field and the fix. */
export function newRequest(o: NewRequest): DataRequest {
  const now = o.now ?? new Date();
  const reference = o.reference.trim();
  if (reference.length === 0 || reference.length > 200 || /[\u0000-\u001f\u007f-\u009f]/.test(reference)) {
    throw new RequestError('The reference (the ticket) must be 1 to 200 characters without control characters.');
  }
  const received = o.received ?? now.toISOString().slice(0, 10);
  const bad = dateProblem(received);
  if (bad !== undefined) throw new RequestError(`The received date ${bad}`);
  const dueDays = o.dueDays ?? DEFAULT_DUE_DAYS;
  if (!Number.isInteger(dueDays) || dueDays < 1 || dueDays > 366) throw new RequestError(`The number of days to the due date must be a whole number from 1 to 366 (default ${DEFAULT_DUE_DAYS}).`);
  const holdDays = o.holdDays ?? 0;
  if (!Number.isInteger(holdDays) || holdDays < 0 || holdDays > MAX_HOLD_DAYS) throw new RequestError(`The erasure hold must be a whole number of days from 0 to ${MAX_HOLD_DAYS} (default 0: none).`);
  if (o.identifiers.length === 0) throw new RequestError('The request names no identifier: give at least one (kind:value).');
  if (o.titles.length === 0) throw new RequestError('The request names no title: give the titles to search.');
  if (o.asks.length === 0) throw new RequestError(`Name what was asked: ${ASKS.join(', ')}.`);
  const titles = [...new Set(o.titles.map((t) => t.toUpperCase()))];
  const notUnique = [...new Set((o.displayNamesNotUnique ?? []).map((t) => t.toUpperCase()))];
  const stray = notUnique.filter((t) => !titles.includes(t));
  if (stray.length > 0) throw new RequestError(`${stray.map((t) => `"${quoteForMessage(t)}"`).join(', ')}: a title said to allow non-unique display names must be one of the request's titles (${titles.join(', ')}).`);
  const id = `dr-${received.replace(/-/g, '')}-${randomBytes(3).toString('hex')}`;
  return {
    version: 1, id, reference, received, dueDays, due: dueDate(received, dueDays), asks: [...o.asks],
    identifiers: o.identifiers.map((x) => ({ ...x })), titles, endpoint: o.endpoint,
    createdAt: now.toISOString(), actions: [],
    ...(holdDays > 0 ? { holdDays, holdUntil: new Date(now.getTime() + holdDays * 86_400_000).toISOString() } : {}),
    ...(notUnique.length > 0 ? { displayNamesNotUnique: notUnique } : {}),
  };
}

const done = (a: Action): boolean => isSettled(a);

/** received → resolved → actions-queued → completed → closed. */
export function requestState(r: DataRequest): RequestState {
  if (r.closedAt !== undefined) return 'closed';
  if (r.withdrawn !== undefined) return 'withdrawn';
  if (r.resolution === undefined) return 'received';
  if (r.actions.every(done)) return 'completed';
  if (r.actions.some((a) => a.status !== 'planned' && a.status !== 'waiting')) return 'actions-queued';
  return 'resolved';
}

/** Past its due date (the whole due day counts) and not closed. */
export function isOverdue(r: DataRequest, now: Date = new Date()): boolean {
  return r.closedAt === undefined && now.toISOString().slice(0, 10) > r.due;
}

/** Whole days until the due date (negative once overdue). */
export function daysLeft(r: DataRequest, now: Date = new Date()): number {
  return Math.round((Date.parse(`${r.due}T00:00:00Z`) - Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`)) / 86_400_000);
}

/** Due within the next 7 days (or overdue) and not closed: what "due this week" counts. */
export function isDueThisWeek(r: DataRequest, now: Date = new Date()): boolean {
  return r.closedAt === undefined && daysLeft(r, now) <= 7;
}

/** Why the request cannot be closed yet, or undefined. */
export function closeProblem(r: DataRequest): string | undefined {
  const state = requestState(r);
  if (state === 'closed') return `request ${r.id} is already closed (${r.closedAt}).`;
  if (state === 'received') return `request ${r.id} is not resolved yet: run it (request run --dry-run) first.`;
  // A withdrawn request closes once nothing it sent is still unsettled; what was never sent stays as it is.
  const open = r.actions.filter((a) => !done(a) && (state !== 'withdrawn' || a.status === 'queued' || a.status === 'unknown'));
  if (open.length > 0) {
    return `request ${r.id} has ${open.length} action(s) not completed (${open.slice(0, 5).map((a) => `${a.kind} of ${a.platformId}: ${a.status}`).join('; ')}${open.length > 5 ? '; ...' : ''}): verify them first; an export completes when its download link is recorded.`;
  }
  return undefined;
}

/** What a request is waiting for, in a line (for `show` and the editor's view). */
export function nextStep(r: DataRequest): string {
  switch (requestState(r)) {
    case 'received': return 'resolve the identifiers: run a dry run';
    // Resolved means some action is planned (a resolution with none is completed).
    case 'resolved': return 'send the actions: run with the --confirm value its dry run shows';
    case 'actions-queued': {
      if (r.actions.some((a) => a.status === 'failed' || a.status === 'planned')) return 'some actions are not sent: run again';
      if (r.actions.some((a) => a.status === 'waiting' && r.actions.every((x) => x.kind !== 'export' || x.platformId !== a.platformId || x.status === 'completed'))) return 'exports completed: run again to send the erasures';
      if (r.actions.some((a) => a.status === 'unknown')) return 'some actions were sent without a recorded answer: verify (erasures), or run again choosing to resend them';
      return 'wait for the service, then verify (an export needs its download link)';
    }
    case 'completed': return 'close it to write the evidence';
    case 'withdrawn': return r.actions.some((a) => a.status === 'queued' || a.status === 'unknown') ? 'withdrawn: verify what was sent, then close it' : 'withdrawn: close it to write the evidence';
    case 'closed': return 'closed';
  }
}
