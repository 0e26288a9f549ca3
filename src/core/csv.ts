// CSV for result documents that spreadsheets open: quoting and formula neutralisation.

// What a spreadsheet may skip before it reads a cell's first character: Unicode White_Space
// (space, NBSP, U+3000, line and paragraph separators…), control characters, format characters
// (zero-width space and joiners, BOM, bidi marks) and the other default-ignorable code points.
const SKIPPED = '[\\p{White_Space}\\p{Cc}\\p{Cf}\\p{Default_Ignorable_Code_Point}]';
// Characters that start a formula or a DDE call, in ASCII and in full width (＝＋－＠｜).
const TRIGGER = '[=+\\-@|\\uFF1D\\uFF0B\\uFF0D\\uFF20\\uFF5C]';
// A tab or carriage return in the leading run counts as a trigger too. Anchored: at most one
// step back per skipped character, so linear in the cell's length.
const FORMULA = new RegExp(`^${SKIPPED}*(?:${TRIGGER}|[\\t\\r])`, 'u');

/**
 * `value` made inert for a spreadsheet: a leading `'` when it would start a formula, also after
 * leading whitespace or invisible characters of any kind (spreadsheets trim them and still
 * evaluate " =cmd|...", "\u00a0=…", "\u3000=…"). Used by every CSV the product writes.
 */
function neutraliseFormula(value: string): string {
  return FORMULA.test(value) ? `'${value}` : value;
}

/** One CSV field: neutralised, and quoted when needed. */
export function csvField(value: string): string {
  const safe = neutraliseFormula(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}
