// Helpers shared by the panels' view-model builders. No `vscode` import, so the builders
// run in plain Node tests. Service data is treated as unknown: any member may be missing
// or of the wrong type, and none of that may throw.
import { isPlainObject } from '../../core/api/schema';
import { redactText } from '../../core/redact';
import { readableLocal } from '../../core/time';

/** A panel shows at most this much of one service string (clipped before redaction scans it). */
const MAX_VIEW_STRING = 10_000;
import type { Block, FieldRow, TableBlock } from '../../webview/protocol';

export const NOT_RETURNED = 'not returned';

/** A JSON object (not null, not an array). */
export const isRecord = isPlainObject;

export function record(v: unknown): Record<string, unknown> | undefined {
  return isRecord(v) ? v : undefined;
}

/** A service value as display text; null when absent. */
/** A service time member's value: ISO 8601, with or without a zone (the service's are UTC). */
const SERVICE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?$/;

/**
 * A time in the reader's zone, named once ("2026-01-02 04:04 CET"); the service's "no time"
 * (0001-01-01T00:00:00, .NET's minimum) is "not set", never a date in year 1.
 */
function readableTime(iso: string): string {
  const shown = readableLocal(iso);
  return shown === 'an unknown time' ? iso : shown;
}

export function text(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return SERVICE_TIME.test(v) ? readableTime(v) : v;
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    // Not JSON (a BigInt inside, a cycle) and maybe not even a string (a bad toString): say so.
    try {
      return String(v);
    } catch {
      return '(a value that cannot be shown)';
    }
  }
}

/** Like text(), for table cells, where an absent value is a dash. */
export function cell(v: unknown): string {
  return text(v) ?? '—';
}

export function row(label: string, v: unknown): FieldRow {
  return { label, value: text(v) };
}

/** Rows for the members of `obj` not in `known`, so nothing the service returns is hidden. */
export function extraRows(obj: Record<string, unknown>, known: readonly string[]): FieldRow[] {
  return Object.keys(obj).filter((k) => !known.includes(k)).map((k) => row(k, obj[k]));
}

/** Fields for `known` members in order, then any others. */
export function fieldsOf(obj: Record<string, unknown>, known: readonly string[]): Block {
  return { kind: 'fields', rows: [...known.map((k) => row(k, obj[k])), ...extraRows(obj, known)] };
}

export function note(t: string): Block {
  return { kind: 'note', text: t };
}

export function section(id: string, heading: string, blocks: Block[], open = true): Block {
  return { kind: 'section', id, heading, open, blocks };
}

export function tableBlock(caption: string, columns: string[], rows: string[][], emptyText: string): TableBlock {
  return { kind: 'table', caption, columns, rows, emptyText };
}

/** A copy of `v` with redactText applied to every string: known secrets and token-like values masked. */
export function redactStrings<T>(v: T, knownSecrets: readonly string[]): T {
  const walk = (x: unknown): unknown => {
    if (typeof x === 'string') return redactText(x, knownSecrets, MAX_VIEW_STRING);
    if (Array.isArray(x)) return x.map(walk);
    if (isRecord(x)) return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, walk(y)]));
    return x;
  };
  return walk(v) as T;
}
