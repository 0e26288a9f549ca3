// Masking of secret keys, entity tokens, session tickets, identity tokens and ClientSecret values
// in anything meant for a log, an error message or a view.

const DOTS = '••••••••';

/** A masked stand-in for a secret; long secrets keep their last 4 characters so users can tell keys apart. */
export function mask(secret: string): string {
  return secret.length >= 20 ? DOTS + secret.slice(-4) : DOTS;
}

// Every pass below is one left-to-right scan over the text in which each position is examined
// a bounded number of times: no pattern that can backtrack, and no search that restarts from
// each segment to the end of a run (that made "eyeye." repeated before one "eyJ" quadratic:
// 80 KB took 1.3 s, 8 MB never finished). `work` counts the positions examined, so the fuzz
// tests can hold redaction to a linear bound by counting instead of by a clock.
let work = 0;

/** Positions the redaction scans have examined so far in this process (a step count for tests). */
export function redactionWork(): number {
  return work;
}

/** A lookup table of the ASCII characters in `spec` (ranges like A-Z, a trailing - is literal). */
function charSet(spec: string): Uint8Array {
  const t = new Uint8Array(128);
  for (let i = 0; i < spec.length; i++) {
    if (spec[i + 1] === '-' && i + 2 < spec.length) {
      for (let c = spec.charCodeAt(i); c <= spec.charCodeAt(i + 2); c++) t[c] = 1;
      i += 2;
    } else t[spec.charCodeAt(i)] = 1;
  }
  return t;
}

// Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut; a Uint8Array(128) read at 128 or past it gives undefined, never 1
const inSet = (set: Uint8Array, c: number): boolean => c < 128 && set[c] === 1;

// JavaScript's \s: what the header pattern allowed around its separator.
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a)
    || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

// ---- Auth headers: NAME ["']? \s* [:=] \s* ["']? (Bearer \s+)? VALUE -------------------------

const HEADER_NAMES = ['x-secretkey', 'x-entitytoken', 'x-authorization', 'authorization'];
const WORD = charSet('A-Za-z0-9_');
// Characters that end a header value: whitespace and " ' , ; }.
const VALUE_END = charSet('"\',;}');

/** The header name (lower case) starting at `i` at a word boundary, or undefined. */
function headerAt(s: string, i: number): string | undefined {
  const c = s.charCodeAt(i) | 0x20;
  if ((c !== 0x78 /* x */ && c !== 0x61 /* a */) || (i > 0 && inSet(WORD, s.charCodeAt(i - 1)))) return undefined;
  for (const name of HEADER_NAMES) {
    let k = 0;
    while (k < name.length && i + k < s.length) {
      work++;
      const d = s.charCodeAt(i + k);
      if ((d >= 65 && d <= 90 ? d | 0x20 : d) !== name.charCodeAt(k)) break;
      k++;
    }
    if (k === name.length) return name;
  }
  return undefined;
}

function skipSpaces(s: string, i: number): number {
  while (i < s.length && isSpace(s.charCodeAt(i))) { work++; i++; }
  return i;
}

function valueEnd(s: string, i: number): number {
  for (let c = s.charCodeAt(i); i < s.length && !isSpace(c) && !inSet(VALUE_END, c); c = s.charCodeAt(++i)) work++;
  return i;
}

const isQuote = (c: number): boolean => c === 34 || c === 39;

/** `s` with the value after every auth header name masked (a value already masked is kept). */
function maskHeaders(s: string): string {
  let out = '';
  let copied = 0;
  for (let i = 0; i < s.length; i++) {
    work++;
    const name = headerAt(s, i);
    if (name === undefined) continue;
    let j = i + name.length;
    if (isQuote(s.charCodeAt(j))) j++;
    j = skipSpaces(s, j);
    const sep = s.charCodeAt(j);
    if (sep !== 58 /* : */ && sep !== 61 /* = */) continue;
    j = skipSpaces(s, j + 1);
    if (isQuote(s.charCodeAt(j))) j++;
    const sepEnd = j;
    let from = j;
    let to = -1;
    work += 6;
    if (s.slice(j, j + 6).toLowerCase() === 'bearer' && isSpace(s.charCodeAt(j + 6))) {
      from = skipSpaces(s, j + 6);
      to = valueEnd(s, from);
    }
    if (to <= from) {
      from = sepEnd;
      to = valueEnd(s, from);
    }
    if (to === from) continue;
    const value = s.slice(from, to);
    out += s.slice(copied, sepEnd) + (value.startsWith(DOTS) ? value : mask(value));
    copied = to;
    i = to - 1;
  }
  return copied === 0 ? s : out + s.slice(copied);
}

// ---- JWTs and tokens: maximal runs of their alphabet ----------------------------------------

// JWTs: within a run of base64url and dots, three dot-separated segments, the first from an
// "eyJ" that starts a word: eyJ + 5 or more, 5 or more, any.
const JWT_RUN = charSet('A-Za-z0-9_.-');
const JWT_MIN = 15;
// Long runs of token alphabet with capitals and digits: secret keys and random tokens look like
// this, while lower-case hashes, UUIDs and 32-hex receipt IDs (job receipts), words and identifiers do not.
const TOKEN_RUN = charSet('A-Za-z0-9+/=_-');
const TOKEN_MIN = 32;
const HEX = charSet('0-9A-Fa-f');
const UPPER_HEX = charSet('0-9A-F');

/** True for a token-like run: capitals and digits, and not a UUID or a 32-hex receipt ID. One scan. */
function looksRandom(s: string): boolean {
  let upper = false;
  let digit = false;
  let uuid = s.length === 36;
  let hex32 = s.length === 32;
  for (let i = 0; i < s.length; i++) {
    work++;
    const c = s.charCodeAt(i);
    upper ||= c >= 65 && c <= 90;
    digit ||= c >= 48 && c <= 57;
    if (uuid) uuid = i === 8 || i === 13 || i === 18 || i === 23 ? c === 45 : inSet(HEX, c);
    if (hex32) hex32 = inSet(UPPER_HEX, c);
  }
  return upper && digit && !uuid && !hex32;
}

/** `s` with every maximal run of `set` characters of at least `min` length replaced by `fn(run)`. */
function replaceRuns(s: string, set: Uint8Array, min: number, fn: (run: string) => string): string {
  let out = '';
  let copied = 0;
  let start = -1;
  for (let i = 0; i <= s.length; i++) {
    work++;
    const c = i < s.length ? s.charCodeAt(i) : 128;
    if (inSet(set, c)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (i - start >= min) {
        out += s.slice(copied, start) + fn(s.slice(start, i));
        copied = i;
      }
      start = -1;
    }
  }
  return copied === 0 ? s : out + s.slice(copied);
}

interface Segment {
  /** Where the segment ends: the index of its dot, or the run's length. */
  end: number;
  /** The first "eyJ" in it that starts a word (the segment's start or after "-"), or -1. */
  head: number;
}

/** The segment of `run` from `from` to the next dot: every position examined once. */
function segmentAt(run: string, from: number): Segment {
  let head = -1;
  let i = from;
  for (; i < run.length; i++) {
    work++;
    const c = run.charCodeAt(i);
    if (c === 46 /* . */) break;
    if (head < 0 && c === 101 /* e */ && run.charCodeAt(i + 1) === 121 /* y */ && run.charCodeAt(i + 2) === 74 /* J */
      && (i === from || run.charCodeAt(i - 1) === 45 /* - */)) head = i;
  }
  return { end: i, head };
}

/**
 * `run` (base64url segments joined by dots) with each JWT in it masked: eyJ..(5+).(5+).(any).
 * Each segment is scanned once, and the scan of one is reused as the next one's first part.
 */
function maskJwts(run: string): string {
  let out = '';
  let copied = 0;
  let first = segmentAt(run, 0);
  while (first.end < run.length) {
    const second = segmentAt(run, first.end + 1);
    if (second.end === run.length) break;
    if (first.head < 0 || first.end - first.head < 8 || second.end - first.end - 1 < 5) {
      first = second;
      continue;
    }
    const third = segmentAt(run, second.end + 1);
    out += run.slice(copied, first.head) + mask(run.slice(first.head, third.end));
    copied = third.end;
    if (third.end === run.length) break;
    first = segmentAt(run, third.end + 1);
  }
  return copied === 0 ? run : out + run.slice(copied);
}

// ---- Known secrets and the whole --------------------------------------------------------------

function usableSecrets(knownSecrets: readonly string[] | undefined): string[] {
  // Longest first so a secret that contains another is masked whole.
  return [...new Set(knownSecrets ?? [])]
    .filter((s): s is string => typeof s === 'string' && s.length >= 4)
    .sort((a, b) => b.length - a.length);
}

/** `s` with every occurrence of each secret masked; one forward search per secret (indexOf is linear, never restarting behind a match). */
function maskKnown(s: string, secrets: readonly string[]): string {
  let out = s;
  for (const secret of secrets) {
    work += out.length;
    let at = out.indexOf(secret);
    if (at < 0) continue;
    let next = '';
    let copied = 0;
    for (; at >= 0; at = out.indexOf(secret, copied)) {
      next += out.slice(copied, at) + mask(secret);
      copied = at + secret.length;
    }
    out = next + out.slice(copied);
  }
  return out;
}

/** `s` with each known secret masked, and nothing else: for our own text (paths, IDs), which is not service text. */
export function maskSecrets(s: string, knownSecrets: readonly string[] | undefined): string {
  return maskKnown(s, usableSecrets(knownSecrets));
}

/** At most `max` characters of `s`, marked when cut: service strings are clipped before they are scanned or shown. */
export function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length - max} more characters)`;
}

/** Token-like characters (JWT and token alphabets together): a cut between two of them splits a token. */
const ANY_RUN = charSet('A-Za-z0-9+/=_.-');

/** True when the token-like run of `s` around `at` could be masked (capitals and digits, or a JWT's "eyJ"): one scan of it. */
function maskableRunAt(s: string, at: number): boolean {
  let from = at;
  while (from > 0 && inSet(ANY_RUN, s.charCodeAt(from - 1))) from--;
  let upper = false;
  let digit = false;
  for (let i = from; i < s.length && inSet(ANY_RUN, s.charCodeAt(i)); i++) {
    work++;
    const c = s.charCodeAt(i);
    upper ||= c >= 65 && c <= 90;
    digit ||= c >= 48 && c <= 57;
    if ((upper && digit) || (c === 74 /* J */ && s.startsWith('ey', i - 2))) return true;
  }
  return false;
}

/**
 * Where to cut `s` to keep at most `max` characters, never through a secret: the cut moves back to
 * the start of a known secret, or of a token-like run that masking would hide, that crosses it, so
 * no prefix of a key or token is left where masking could no longer recognise it (a run masking
 * leaves alone, such as a word, is cut where it is). Looks only near the cut. Every clip of service
 * text cuts here (clipForRedaction, serviceText, the agent tools' dataString, the envelope's).
 * `anyRun`: for a clip made before the secrets are known, every token-like run counts (a key of
 * letters alone looks like a word until it is known).
 */
// eslint-disable-next-line complexity -- one scan, backing the cut out of any secret or token-like run; splitting it would scan twice
export function redactionCut(s: string, max: number, secrets: readonly string[] = [], anyRun = false): number {
  if (s.length <= max) return s.length;
  const known = usableSecrets(secrets);
  let cut = max;
  for (let round = 0, moved = true; moved && round <= known.length + 1; round++) {
    moved = false;
    for (const secret of known) {
      const from = Math.max(0, cut - secret.length + 1);
      const at = s.slice(from, cut + secret.length - 1).indexOf(secret);
      if (at >= 0 && from + at < cut) {
        cut = from + at;
        moved = true;
      }
    }
    if (cut > 0 && inSet(ANY_RUN, s.charCodeAt(cut - 1)) && inSet(ANY_RUN, s.charCodeAt(cut)) && (anyRun || maskableRunAt(s, cut))) {
      while (cut > 0 && inSet(ANY_RUN, s.charCodeAt(cut - 1))) cut--;
      moved = true;
    }
  }
  return cut;
}

/** `s` clipped to at most `max` characters at `redactionCut`, marked when cut. */
export function clipForRedaction(s: string, max: number, secrets: readonly string[] = []): string {
  if (s.length <= max) return s;
  const cut = redactionCut(s, max, secrets);
  return `${s.slice(0, cut)}… (${s.length - cut} more characters)`;
}

/** Longer text is clipped before it is scanned: no log line or view string needs more. */
export const MAX_REDACTED = 100_000;
/** What a message (an error, a hint, a reason) shows of service text at most. */
export const MAX_MESSAGE = 2_000;

/**
 * `s` with known secrets, auth header values, JWTs and long token-like strings masked; clipped
 * to `max` characters first (clipForRedaction), so the work is bounded whatever comes in.
 */
export function redactText(s: string, knownSecrets?: readonly string[], max = MAX_REDACTED): string {
  const secrets = usableSecrets(knownSecrets);
  let out = maskKnown(clipForRedaction(String(s), max, secrets), secrets);
  out = maskHeaders(out);
  work += out.length;
  if (out.includes('eyJ')) out = replaceRuns(out, JWT_RUN, JWT_MIN, maskJwts);
  return replaceRuns(out, TOKEN_RUN, TOKEN_MIN, (m) => (looksRandom(m) ? mask(m) : m));
}

/** At most this many secret member values are collected from one answer (masking costs one scan per secret). */
const MAX_MEMBER_SECRETS = 64;

const SECRET_KEYS = new Set(
  ['SecretKey', 'EntityToken', 'SessionTicket', 'IdentityToken', 'ClientSecret', 'X-SecretKey', 'X-EntityToken']
    .map((k) => k.toLowerCase()),
);

/**
 * Every string value of a secret-named member (the schema's secret members: SecretKey, EntityToken,
 * SessionTicket, IdentityToken, ClientSecret; any letter case) anywhere in `v`, so the same value
 * can be masked under any other name too.
 */
export function secretMemberValues(v: unknown): string[] {
  // Bounded: each known secret costs one scan of every string, and these come from the service.
  const out = new Set<string>();
  const seen = new WeakSet<object>();
  const walk = (x: unknown): void => {
    if (x === null || typeof x !== 'object' || seen.has(x)) return;
    seen.add(x);
    for (const [k, y] of Object.entries(x)) {
      if (typeof y !== 'string' || !SECRET_KEYS.has(k.toLowerCase())) walk(y);
      else if (out.size < MAX_MEMBER_SECRETS) out.add(y);
    }
  };
  walk(v);
  return [...out];
}

/**
 * A deep copy of `v` with the values of secret-named members masked, and known secrets masked
 * inside any other string. `EntityToken` is masked only when it is a string: in a login result
 * it is an object whose inner `EntityToken` string is masked instead, keeping Entity and expiry.
 */
export function redactObject<T>(v: T, knownSecrets?: readonly string[]): T {
  const secrets = usableSecrets(knownSecrets);
  const seen = new WeakMap<object, unknown>();
  const walk = (x: unknown): unknown => {
    if (typeof x === 'string') {
      return maskKnown(x, secrets);
    }
    if (x === null || typeof x !== 'object') {
      return x;
    }
    const done = seen.get(x);
    if (done !== undefined) {
      return done;
    }
    if (Array.isArray(x)) {
      const arr: unknown[] = [];
      seen.set(x, arr);
      for (const item of x) {
        arr.push(walk(item));
      }
      return arr;
    }
    const proto: unknown = Object.getPrototypeOf(x);
    if (proto !== Object.prototype && proto !== null) {
      return x; // Dates, URLs and the like carry no secrets of their own.
    }
    const obj: Record<string, unknown> = {};
    seen.set(x, obj);
    for (const [key, value] of Object.entries(x)) {
      // defineProperty: assigning a "__proto__" member (JSON.parse makes it an own key) would set the prototype instead.
      Object.defineProperty(obj, key, {
        value: SECRET_KEYS.has(key.toLowerCase()) && typeof value === 'string' ? mask(value) : walk(value),
        enumerable: true, writable: true, configurable: true,
      });
    }
    return obj;
  };
  return walk(v) as T;
}
