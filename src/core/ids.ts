// Identifier rules: title IDs, PlatformIds, and finding PlatformIds in text.

/**
 * Title IDs are hex. The service shows 4-6 characters (F71AC, A248); we accept 4-16 so longer
 * future IDs still work, while shorter strings are almost always typos. Hex-only also means a
 * title ID can never change the structure of a URL it is put into.
 */
export const TITLE_ID_RE = /^[0-9A-Fa-f]{4,16}$/;

/** A PlatformId is up to 16 hex characters; 14-15 exist in samples. */
const PLATFORM_ID_RE = /^[0-9A-Fa-f]{14,16}$/;

/**
 * A bad value as it may be quoted in an error message: shortened, with control and invisible or
 * direction-changing characters written as \uXXXX so a value cannot break or disguise the
 * message (or a log line) it is quoted in.
 */
export function quoteForMessage(s: string, max = 40): string {
  const shown = s.length > max ? `${s.slice(0, max)}…` : s;
  return shown.replace(/[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Error text for a bad title ID, or undefined when it is valid. */
export function validateTitleId(s: unknown): string | undefined {
  if (typeof s !== 'string' || s.length === 0) {
    return 'Title ID is empty. Enter the hex title ID shown in the title\'s management portal, e.g. F71AC.';
  }
  if (s !== s.trim()) {
    return 'Title ID has spaces around it. Remove them (a title ID looks like F71AC).';
  }
  if (!TITLE_ID_RE.test(s)) {
    return `Title ID "${quoteForMessage(s)}" is not valid: use 4 to 16 hex characters (0-9, A-F), e.g. F71AC.`;
  }
  return undefined;
}

/** True for a string that can be a PlatformId (14-16 hex characters, either case). */
export function isPlatformId(s: unknown): s is string {
  return typeof s === 'string' && PLATFORM_ID_RE.test(s);
}

/** Error text for a bad PlatformId, or undefined when it is valid. */
export function validatePlatformId(s: unknown): string | undefined {
  if (typeof s !== 'string' || s.trim().length === 0) {
    return 'PlatformId is empty. Enter the player\'s PlatformId (14-16 hex characters, e.g. 9437A5ADDAE3012D).';
  }
  if (!PLATFORM_ID_RE.test(s)) {
    return `PlatformId "${quoteForMessage(s)}" is not valid: use 14 to 16 hex characters (0-9, A-F), e.g. 9437A5ADDAE3012D.`;
  }
  return undefined;
}

/** [0-9A-Za-z_] by char code (NaN, past either end of a string, is not a word char). */
function isWordCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** [0-9A-F]: the characters a PlatformId is printed with. */
function isUpperHexCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70);
}

/**
 * Whether a word-bounded token found in text looks like a PlatformId. Detection is stricter than
 * isPlatformId: the service prints PlatformIds in upper case, while lower-case 16-hex runs in
 * text are usually trace/span IDs or hash prefixes; an all-digit run is a decimal number; and a
 * token after '#' is a colour or an anchor.
 */
function looksLikePlatformId(token: string, before: string | undefined): boolean {
  return /^[0-9A-F]{14,16}$/.test(token) && /[A-F]/.test(token) && /[0-9]/.test(token) && before !== '#';
}

/** Shortest PlatformId; findPlatformIds samples the text at this stride. */
const MIN_ID_LENGTH = 14;

/**
 * All PlatformIds in `text`, in order, with their start index. Same rule as looksLikePlatformId
 * on every word, but fast on large files (the bench holds it above 200 MB/s): a PlatformId is a run of at least
 * 14 upper-case hex characters, so it covers one of every 14th character; only the words under
 * those sampled characters are looked at.
 */
export function findPlatformIds(text: string): { id: string; index: number }[] {
  const out: { id: string; index: number }[] = [];
  const n = text.length;
  // Stryker disable next-line EqualityOperator: charCodeAt(n) is NaN, no hex character, so a sample at n finds nothing
  for (let p = MIN_ID_LENGTH - 1; p < n; p += MIN_ID_LENGTH) {
    if (!isUpperHexCode(text.charCodeAt(p))) {
      continue;
    }
    let start = p;
    while (isWordCode(text.charCodeAt(start - 1))) {
      start--;
    }
    let end = p + 1;
    while (isWordCode(text.charCodeAt(end))) {
      end++;
    }
    // Stryker disable next-line ConditionalExpression,LogicalOperator,ArithmeticOperator: a shortcut; looksLikePlatformId takes 14 to 16 characters only
    if (end - start >= MIN_ID_LENGTH && end - start <= 16) {
      const id = text.slice(start, end);
      if (looksLikePlatformId(id, text[start - 1])) {
        out.push({ id, index: start });
      }
    }
    // The next sample past this word: a word is looked at once.
    // Stryker disable next-line EqualityOperator: a sample exactly at `end` falls on the character that ends the word, never a PlatformId's
    while (p + MIN_ID_LENGTH < end) {
      p += MIN_ID_LENGTH;
    }
  }
  return out;
}

/** How far the cursor checks look on each side: a PlatformId is at most 16 characters, plus one to see it end. */
export const PLATFORM_ID_REACH = 17;

/**
 * The PlatformId under `character` in `line` (cursor at either edge counts), if any. Looks at most
 * PLATFORM_ID_REACH characters each side (one more for a '#' before it): a longer word is no PlatformId,
 * and walking a whole multi-megabyte word on every cursor move cost up to 200 ms.
 */
export function platformIdAt(line: string, character: number): { id: string; start: number; end: number } | undefined {
  if (!Number.isInteger(character)) {
    return undefined;
  }
  // Stryker disable next-line ConditionalExpression,LogicalOperator,BlockStatement: a shortcut; outside the line every read is NaN, no word character, so nothing is found either
  if (character < 0 || character > line.length) {
    return undefined;
  }
  let start = character;
  const lowest = Math.max(0, character - PLATFORM_ID_REACH);
  while (start > lowest && isWordCode(line.charCodeAt(start - 1))) {
    start--;
  }
  let end = character;
  const highest = Math.min(line.length, character + PLATFORM_ID_REACH);
  while (end < highest && isWordCode(line.charCodeAt(end))) {
    end++;
  }
  // Stryker disable next-line ConditionalExpression,LogicalOperator,BlockStatement: a shortcut; looksLikePlatformId refuses an empty word and one over 16 characters
  if (end === start || end - start > 16) {
    return undefined;
  }
  const id = line.slice(start, end);
  return looksLikePlatformId(id, line[start - 1]) ? { id, start, end } : undefined;
}

/** Identifiers typed or pasted by a user: one per line or comma-separated; trimmed; empties dropped; order kept. */
export function parseIdList(text: string): string[] {
  // Stryker disable next-line Regex: splitting at each single separator only adds empty entries, which are dropped
  return text.split(/[\r\n,]+/).map((s) => s.trim()).filter((s) => s.length > 0);
}
