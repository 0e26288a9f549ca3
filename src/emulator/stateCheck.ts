// What a loaded state (--data's state.json, a --load snapshot file) must hold before the emulator
// runs on it: the members it relies on, receipt IDs safe as file names, and every number bounded,
// so a hand-edited or planted file is a start-up error naming the member, never a 500 on every answer.

import { EVENT_TYPES, MAX_EVENTS } from './events';

/** Receipt IDs the emulator issues (UUIDs, 32 hex characters), and nothing that can leave outbox/. */
export const RECEIPT_RE = /^[0-9A-Za-z-]{1,64}$/;
const TITLE_ID_RE = /^[0-9A-Fa-f]{4,16}$/;

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
/** clock/advance stops at 100 years ahead; a snapshot's restore may set the clock that far back. */
export const MAX_CLOCK_OFFSET_MS = 100 * YEAR_MS;
/** Times (ms since 1970) stay below the year 9000, so adding the largest clock offset is still a date. */
const MAX_TIME_MS = Date.UTC(9000, 0, 1);
/** Members holding emulator times (ms since 1970). */
const TIME_MEMBERS = new Set([
  'tokensExpiredBefore', 'created', 'firstLogin', 'lastLogin', 'LastUpdated', 'PurchaseDate', 'bannedUntil',
  'createdAt', 'dueAt', 'completedAt', 'expiresAt', 'downloadedAt', 'time',
]);
/** Export jobs a loaded state may hold (the emulator keeps at most MAX_KEPT_EXPORTS completed ones). */
const MAX_LOADED_EXPORTS = 100_000;
/** A player's events (the seed's bound). */
export const MAX_PLAYER_EVENTS = 1000;
/** The download tokens the emulator makes (and the only ones a loaded state may hold). */
export const EXPORT_TOKEN_RE = /^[A-Za-z0-9_-]{32}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The first number out of bounds anywhere under `v` (path and rule), or undefined. */
// eslint-disable-next-line complexity -- one bound per kind of number, named by its member
function numberProblem(v: unknown, path: string, depth = 0): string | undefined {
  if (depth > 32) return `${path} is nested too deeply`;
  if (typeof v === 'number') {
    const name = path.slice(path.lastIndexOf('.') + 1);
    if (name === 'clockOffsetMs') {
      return Math.abs(v) <= MAX_CLOCK_OFFSET_MS ? undefined : `${path} is ${v}; it must be within ±${MAX_CLOCK_OFFSET_MS} (100 years)`;
    }
    if (TIME_MEMBERS.has(name)) return v >= 0 && v <= MAX_TIME_MS ? undefined : `${path} is ${v}; a time must be from 0 to ${MAX_TIME_MS} ms since 1970`;
    return Math.abs(v) <= Number.MAX_SAFE_INTEGER ? undefined : `${path} is ${v}; numbers must be within ±${Number.MAX_SAFE_INTEGER}`;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = numberProblem(v[i], `${path}[${i}]`, depth + 1);
      if (p) return p;
    }
  } else if (isObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      const p = numberProblem(x, `${path}.${k.slice(0, 40)}`, depth + 1);
      if (p) return p;
    }
  }
  return undefined;
}

/** The first thing wrong with a loaded state (the members the emulator relies on), or undefined. */
// eslint-disable-next-line complexity -- one check per member of a loaded state, each naming the member
export function stateProblem(s: { clockOffsetMs: unknown; tokensExpiredBefore: unknown; data: unknown }): string | undefined {
  if (!isNumber(s.clockOffsetMs) || !isNumber(s.tokensExpiredBefore)) return 'clockOffsetMs and tokensExpiredBefore must be numbers';
  const bounds = numberProblem({ clockOffsetMs: s.clockOffsetMs, tokensExpiredBefore: s.tokensExpiredBefore }, '') ?? numberProblem(s.data, 'data');
  if (bounds) return bounds.replace(/^\./, '');
  const d = s.data as Record<string, unknown>;
  if (!isObject(d) || !isObject(d.titles) || !isObject(d.players) || !Array.isArray(d.jobs) || !Array.isArray(d.outbox)) {
    return 'data must hold titles, players, jobs and outbox';
  }
  for (const [id, t] of Object.entries(d.titles)) {
    if (!TITLE_ID_RE.test(id) || !isObject(t) || t.titleId !== id || typeof t.secretKey !== 'string' || !isObject(t.launcher) || !isObject(t.addons)) {
      return `title "${id.slice(0, 40)}" must have a 4-16 hex titleId equal to its key, a secretKey, launcher and addons`;
    }
  }
  for (const [i, j] of d.jobs.entries()) {
    if (!isObject(j) || typeof j.JobReceiptId !== 'string' || !RECEIPT_RE.test(j.JobReceiptId) || typeof j.PlatformId !== 'string' ||
      (j.status !== 'queued' && j.status !== 'completed') || !isNumber(j.dueAt) || !Array.isArray(j.TitleIds)) {
      return `jobs[${i}] must have a JobReceiptId of letters, digits and dashes (at most 64), a PlatformId, a status and a dueAt`;
    }
  }
  for (const [i, m] of d.outbox.entries()) {
    if (!isObject(m) || typeof m.JobReceiptId !== 'string' || !RECEIPT_RE.test(m.JobReceiptId)) {
      return `outbox[${i}] must have a JobReceiptId of letters, digits and dashes (at most 64)`;
    }
  }
  return dataRequestProblem(d);
}

/** What is wrong with the state of data-subject requests: exports, emitted events, players' events. */
// eslint-disable-next-line complexity -- one check per member of the data-request state, each naming the member
function dataRequestProblem(d: Record<string, unknown>): string | undefined {
  const list = (name: string, max: number): unknown[] | string => {
    const v = d[name];
    if (v === undefined) return [];
    if (!Array.isArray(v) || v.length > max) return `data.${name} must be a list of at most ${max} entries`;
    return v as unknown[];
  };
  const exports = list('exports', MAX_LOADED_EXPORTS);
  if (typeof exports === 'string') return exports;
  for (const [i, j] of exports.entries()) {
    if (!isObject(j) || typeof j.JobReceiptId !== 'string' || !RECEIPT_RE.test(j.JobReceiptId) || typeof j.PlatformId !== 'string' ||
      typeof j.titleId !== 'string' || (j.status !== 'queued' && j.status !== 'completed') || !isNumber(j.dueAt) ||
      (j.token !== undefined && (typeof j.token !== 'string' || !EXPORT_TOKEN_RE.test(j.token)))) {
      return `exports[${i}] must have a JobReceiptId of letters, digits and dashes (at most 64), a PlatformId, a titleId, a status, a dueAt and no token but one of 32 letters, digits, _ or -`;
    }
  }
  const events = list('events', MAX_EVENTS);
  if (typeof events === 'string') return events;
  for (const [i, e] of events.entries()) {
    if (!isObject(e) || typeof e.type !== 'string' || !(EVENT_TYPES as readonly string[]).includes(e.type) || Object.values(e).some((v) => v !== null && typeof v !== 'string')) {
      return `events[${i}] must have a type (${EVENT_TYPES.join(' or ')}) and only text members`;
    }
  }
  for (const [id, p] of Object.entries(d.players as Record<string, unknown>)) {
    const due = isObject(p) ? p.eventsErasureDueAt : undefined;
    if (due !== undefined && !isNumber(due)) return `players.${id.slice(0, 40)}.eventsErasureDueAt must be a time in ms (a queued events-only erasure)`;
    const ev = isObject(p) ? p.events : undefined;
    if (ev === undefined) continue;
    if (!Array.isArray(ev) || ev.length > MAX_PLAYER_EVENTS || ev.some((e) => !isObject(e) || typeof e.name !== 'string' || typeof e.titleId !== 'string' || !isNumber(e.time))) {
      return `players.${id.slice(0, 40)}.events must be a list of at most ${MAX_PLAYER_EVENTS} events, each with a name, a titleId and a time`;
    }
  }
  return undefined;
}
