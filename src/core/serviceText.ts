// Identifiers the service returns (TitleIds, JobReceiptIds, PlatformIds of lookups) are checked
// before they reach a modal, the tree, a document or stored state: a well-formed one is kept as
// is, anything else is shown with its control, format and bidi characters as visible \u escapes
// (so it cannot reorder, hide or fake text) and clipped. Free service text on its way to a terminal,
// a journal or a file (serviceText) also has known secrets and token-like strings masked.
import { isPlatformId, validateTitleId } from './ids';
import { clip, maskSecrets, redactionCut, redactText } from './redact';

/** Receipt IDs: UUIDs, 32 upper-case hex, or other letters, digits and dashes up to 64. */
const RECEIPT_RE = /^[0-9A-Za-z-]{1,64}$/;
// C0 and C1 controls, the Arabic letter mark, zero-width and directional marks, bidi embeddings,
// overrides and isolates, word joiners and the byte order mark.
// Controls, bidi and zero-width characters, and the invisible tag characters U+E0000-E007F (text
// an agent or a terminal would read while a person sees nothing).
const UNSAFE_RE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|\udb40[\udc00-\udc7f]/g;
const MAX_SHOWN = 80;

/** `s` with every control, format and bidi character written as a visible \u escape. */
export function escapeUnsafe(s: string): string {
  return s.replace(UNSAFE_RE, (c) => (c.length === 2 ? `\\u{${c.codePointAt(0)!.toString(16)}}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

function shown(v: unknown, ok: boolean): string {
  // Stryker disable next-line ConditionalExpression: a shortcut; a well-formed ID is short and plain, so clipping and escaping keep it as is
  if (ok) return v as string;
  return escapeUnsafe(clip(typeof v === 'string' ? v : JSON.stringify(v) ?? String(v), MAX_SHOWN));
}

export function shownTitleId(v: unknown): string {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: validateTitleId refuses what is not a string; and `ok` is a shortcut (see shown)
  return shown(v, typeof v === 'string' && validateTitleId(v) === undefined);
}

export function shownReceiptId(v: unknown): string {
  // Stryker disable next-line ConditionalExpression: `ok` is a shortcut (see shown)
  return shown(v, typeof v === 'string' && RECEIPT_RE.test(v));
}

/** A lookup answer's PlatformId: null (unlinked) stays null. */
export function shownPlatformId(v: unknown): string | null {
  return v === null || v === undefined ? null : shown(v, isPlatformId(v));
}

/** Default length of one service string where it is printed or stored. */
const SERVICE_TEXT_MAX = 300;
// Redaction sees more than is kept, so a secret that starts before the cut is masked whole, never cut in two.
const REDACT_MARGIN = 512;

/** `s` safe to print or store: at most `max` characters (then an ellipsis note), secrets masked, controls and escape sequences inert. */
export function serviceText(s: unknown, o: { max?: number; secrets?: readonly string[] } = {}): string {
  const max = o.max ?? SERVICE_TEXT_MAX;
  const str = typeof s === 'string' ? s : String(s);
  // Room past the cut for the longest known secret, so one that starts before the cut is still masked whole.
  // Stryker disable next-line ArrayDeclaration: a default entry shorter than the 512 margin changes nothing
  const margin = Math.max(REDACT_MARGIN, ...(o.secrets ?? []).map((x) => x.length));
  const scanned = max + margin;
  // Cut away from any secret or token-like run that crosses the edge (redactionCut): a key cut in two
  // would no longer be recognised, and its first characters would be shown.
  const window = str.slice(0, redactionCut(str, scanned, o.secrets));
  const inert = escapeUnsafe(redactText(window, o.secrets));
  return inert.length > max || str.length > window.length ? `${inert.slice(0, max)}… (${str.length} characters in all)` : inert;
}

/** Text of many lines (a report, a table): each line made safe as by `serviceText`; line breaks kept. */
export function serviceLines(s: string, o: { max?: number; secrets?: readonly string[] } = {}): string {
  return s.split('\n').map((line) => serviceText(line, { max: o.max ?? 4000, secrets: o.secrets })).join('\n');
}

/** A deep copy of `v` with every string and member name passed through `f` (20 levels deep at most). */
function mapStrings<T>(v: T, f: (s: string) => string): T {
  const walk = (x: unknown, depth: number): unknown => {
    if (typeof x === 'string') return f(x);
    if (x === null || typeof x !== 'object' || depth > 20) return x;
    if (Array.isArray(x)) return x.map((y) => walk(y, depth + 1));
    return Object.fromEntries(Object.entries(x).map(([k, y]) => [f(k), walk(y, depth + 1)]));
  };
  return walk(v, 0) as T;
}

/** A deep copy of `v` with every string made safe as by `serviceText` (for JSON output). */
export function serviceValue<T>(v: T, o: { max?: number; secrets?: readonly string[] } = {}): T {
  return mapStrings(v, (s) => serviceText(s, o));
}

/**
 * Our own text (paths, request and batch IDs, our messages) for a terminal or a file: each line's
 * control, format and bidi characters made visible, known secrets masked, and nothing else: it is
 * not service text, so no token-like heuristic hides a path the user needs to read. Service text
 * inside it was made safe where it came in (serviceText).
 */
export function ownText(s: string, secrets: readonly string[] = []): string {
  return s.split('\n').map((line) => escapeUnsafe(maskSecrets(line, secrets))).join('\n');
}

/** A deep copy of `v` with every string (and member name) as by `ownText`: JSON of our own values. */
export function ownValue<T>(v: T, secrets: readonly string[] = []): T {
  return mapStrings(v, (s) => ownText(s, secrets));
}
