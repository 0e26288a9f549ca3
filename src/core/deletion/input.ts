// Reading a deletion list: one identifier per line (a .csv's first column), checked against its kind's format.
import { isPlatformId, quoteForMessage } from '../ids';
import type { IdKind } from './types';

export interface InputLine {
  line: number;
  input: string;
  /** The identifier as sent (PlatformIds upper-cased), when the format is right. */
  value?: string;
  /** The format rule broken, when it is not. */
  invalid?: string;
}

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
    return end > 0 ? t.slice(1, end) : t.slice(1);
  }
  const comma = t.indexOf(',');
  return comma >= 0 ? t.slice(0, comma) : t;
}

/** Lines of `text` that hold something; `csv` takes each row's first column. Blank lines are skipped, not reported. */
export function readIdentifiers(text: string, kind: IdKind, o: { csv?: boolean } = {}): InputLine[] {
  const out: InputLine[] = [];
  text.replace(/^\ufeff/, '').split(/\r\n|\r|\n/).forEach((raw, i) => {
    const input = (o.csv === true ? firstCsvField(raw) : raw).trim();
    if (input.length === 0) return;
    const invalid = formatError(kind, input);
    out.push(invalid === undefined ? { line: i + 1, input, value: kind === 'platform-id' ? input.toUpperCase() : input } : { line: i + 1, input, invalid });
  });
  return out;
}
