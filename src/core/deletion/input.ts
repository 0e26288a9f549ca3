// Reading a deletion list: one identifier per line (a .csv's first column), checked against its kind's format.
// PlatformIds are also found inside text (ticket lines, a log) by the rule Show Played Titles uses.
import { findPlatformIds, isPlatformId, quoteForMessage } from '../ids';
import type { IdKind } from './types';

export interface InputLine {
  line: number;
  input: string;
  /** The identifier as sent (PlatformIds upper-cased), when the format is right. */
  value?: string;
  /** The format rule broken, when it is not. */
  invalid?: string;
  /** The line the identifier was found in, when it was found inside text (clipped). */
  from?: string;
}

/** How much of a ticket line the dry run quotes. */
const FROM_MAX = 80;

// ConsoleLive account IDs are 16 decimal digits; a longer run is not one.
const CONSOLELIVE_RE = /^\d{1,16}$/;
const STOREFRONT_MAX = 64;
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/;

/** The format error for one identifier of `kind`, or undefined when it may be sent. */
export function formatError(kind: IdKind, s: string): string | undefined {
  if (s.startsWith('#')) return `"${quoteForMessage(s)}" is a comment line, not an identifier.`;
  switch (kind) {
    case 'platform-id':
      return isPlatformId(s) ? undefined : `"${quoteForMessage(s)}" is not a PlatformId: use 14 to 16 hex characters (0-9, A-F).`;
    case 'consolelive':
      return CONSOLELIVE_RE.test(s) ? undefined : `"${quoteForMessage(s)}" is not a ConsoleLive ID: use its decimal digits only (up to 16).`;
    case 'storefront':
      if (s.length > STOREFRONT_MAX) return `"${quoteForMessage(s)}" is longer than ${STOREFRONT_MAX} characters, too long for a Storefront name.`;
      return CONTROL_RE.test(s) ? `"${quoteForMessage(s)}" holds control or invisible characters; remove them.` : undefined;
  }
}

/** First field of a CSV row, unquoted. */
function firstCsvField(row: string): string {
  const t = row.trim();
  if (t.startsWith('"')) {
    const end = t.indexOf('"', 1);
    // Stryker disable next-line EqualityOperator: end is never 0 (the search starts at 1)
    return end > 0 ? t.slice(1, end) : t.slice(1);
  }
  const comma = t.indexOf(',');
  return comma >= 0 ? t.slice(0, comma) : t;
}

/**
 * Lines of `text` that hold something; `csv` takes each row's first column. Blank lines are skipped,
 * not reported. A PlatformId list's line that is not one PlatformId gives each PlatformId written in
 * it (findPlatformIds, as Show Played Titles reads text), with the line it came from. `lineNumbers`
 * maps the text's lines to the file's (a selection's text starts mid-file); by default 1, 2, 3…
 */
export function readIdentifiers(text: string, kind: IdKind, o: { csv?: boolean; lineNumbers?: readonly number[] } = {}): InputLine[] {
  const out: InputLine[] = [];
  text.replace(/^\ufeff/, '').split(/\r\n|\r|\n/).forEach((raw, i) => {
    const input = (o.csv === true ? firstCsvField(raw) : raw).trim();
    if (input.length === 0) return;
    const line = o.lineNumbers?.[i] ?? i + 1;
    const invalid = formatError(kind, input);
    if (invalid === undefined) {
      out.push({ line, input, value: kind === 'platform-id' ? input.toUpperCase() : input });
      return;
    }
    const found = kind === 'platform-id' && !input.startsWith('#') ? findPlatformIds(raw) : [];
    if (found.length === 0) {
      out.push({ line, input, invalid: kind === 'platform-id' ? aroundBadId(input) ?? invalid : invalid });
      return;
    }
    const from = raw.trim().slice(0, FROM_MAX + 1);
    for (const h of found) out.push({ line, input: h.id, value: h.id, from });
  });
  return out;
}

/**
 * A ticket line whose would-be PlatformId is malformed (13 or 17 hex characters, say): the message
 * quotes that run, not the line's start clipped before it. Undefined when the line is itself one
 * token (formatError quotes it whole) or holds no run of 8 or more hex characters.
 */
function aroundBadId(input: string): string | undefined {
  if (!/\s/.test(input)) return undefined;
  const run = /[0-9A-Fa-f]{8,}/.exec(input)?.[0];
  return run === undefined ? undefined
    : `The line holds no PlatformId: "${quoteForMessage(run)}" has ${run.length} hex characters; a PlatformId has 14 to 16 (0-9, A-F).`;
}

/** Whether every line of `text` that holds something is, or holds, a PlatformId. */
export function allLinesHoldPlatformIds(text: string): boolean {
  const lines = text.split(/\r\n|\r|\n/).map((l) => l.trim()).filter((l) => l.length > 0);
  return lines.length > 0 && lines.every((l) => (!l.startsWith('#') && findPlatformIds(l).length > 0) || isPlatformId(l));
}
