// Identifiers the service returns (TitleIds, JobReceiptIds, PlatformIds of lookups) are checked
// before they reach a modal, the tree, a document or stored state: a well-formed one is kept as
// is, anything else is shown with its control, format and bidi characters as visible \u escapes
// (so it cannot reorder, hide or fake text) and clipped.
import { isPlatformId, validateTitleId } from './ids';
import { clip } from './redact';

/** Receipt IDs: UUIDs, 32 upper-case hex, or other letters, digits and dashes up to 64. */
const RECEIPT_RE = /^[0-9A-Za-z-]{1,64}$/;
// C0 and C1 controls, the Arabic letter mark, zero-width and directional marks, bidi embeddings,
// overrides and isolates, word joiners and the byte order mark.
const UNSAFE_RE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
const MAX_SHOWN = 80;

/** `s` with every control, format and bidi character written as a visible \u escape. */
export function escapeUnsafe(s: string): string {
  return s.replace(UNSAFE_RE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function shown(v: unknown, ok: boolean): string {
  if (ok) return v as string;
  return escapeUnsafe(clip(typeof v === 'string' ? v : JSON.stringify(v) ?? String(v), MAX_SHOWN));
}

export function shownTitleId(v: unknown): string {
  return shown(v, typeof v === 'string' && validateTitleId(v) === undefined);
}

export function shownReceiptId(v: unknown): string {
  return shown(v, typeof v === 'string' && RECEIPT_RE.test(v));
}

/** A lookup answer's PlatformId: null (unlinked) stays null. */
export function shownPlatformId(v: unknown): string | null {
  return v === null || v === undefined ? null : shown(v, isPlatformId(v));
}
