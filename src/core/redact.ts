// Masking of secret keys, entity tokens, session tickets, identity tokens and ClientSecret values
// in anything meant for a log, an error message or a view.

const DOTS = '••••••••';

/** A masked stand-in for a secret; long secrets keep their last 4 characters so users can tell keys apart. */
export function mask(secret: string): string {
  return secret.length >= 20 ? DOTS + secret.slice(-4) : DOTS;
}

const HEADER_RE = /\b(X-SecretKey|X-EntityToken|X-Authorization|Authorization)(["']?\s*[:=]\s*["']?)(?:Bearer\s+)?([^\s"',;}]+)/gi;
// Tokens and JWTs are found in one left-to-right pass over maximal runs of their alphabet
// (runsOf), never by a pattern that can backtrack: the old JWT pattern rescanned on inputs like
// "-eyJ" repeated (80 KB took seconds, the 8 MB answer cap hours), and a regex over one 8 MB
// run overflows the stack.
// JWTs: within a run of base64url and dots, three dot-separated segments, the first from an
// "eyJ" that starts a word: eyJ + 5 or more, 5 or more, any.
const JWT_RUN = charSet('A-Za-z0-9_.-');
const JWT_MIN = 15;
// Long runs of token alphabet with capitals and digits: secret keys and random tokens look like
// this, while lower-case hashes, UUIDs and 32-hex receipt IDs (job receipts), words and identifiers do not.
const TOKEN_RUN = charSet('A-Za-z0-9+/=_-');
const TOKEN_MIN = 32;
const UUID_RE = /^[0-9A-Fa-f]{8}-(?:[0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}$/;
const HEX32_RE = /^[0-9A-F]{32}$/;

function looksRandom(s: string): boolean {
  return /[A-Z]/.test(s) && /[0-9]/.test(s) && !UUID_RE.test(s) && !HEX32_RE.test(s);
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

/** `s` with every maximal run of `set` characters of at least `min` length replaced by `fn(run)`. */
function replaceRuns(s: string, set: Uint8Array, min: number, fn: (run: string) => string): string {
  let out = '';
  let copied = 0;
  let start = -1;
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 128;
    if (c < 128 && set[c] === 1) {
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

/** `run` (base64url segments joined by dots) with each JWT in it masked: eyJ..(5+).(5+).(any). */
function maskJwts(run: string): string {
  if (!run.includes('eyJ')) return run;
  const end = (from: number): number => {
    const i = run.indexOf('.', from);
    return i < 0 ? run.length : i;
  };
  let out = '';
  let copied = 0;
  // Each segment is looked at once as a possible first part; no segment strings are made.
  for (let s0 = 0; s0 < run.length;) {
    const e0 = end(s0);
    if (e0 === run.length) break;
    const e1 = end(e0 + 1);
    if (e1 === run.length) break;
    const head = e1 - e0 - 1 >= 5 ? jwtHead(run, s0, e0) : -1;
    if (head < 0) {
      s0 = e0 + 1;
      continue;
    }
    const e2 = end(e1 + 1);
    out += run.slice(copied, head) + mask(run.slice(head, e2));
    copied = e2;
    s0 = e2 + 1;
  }
  return copied === 0 ? run : out + run.slice(copied);
}

/** The first "eyJ" in run[from, to) that starts a word and has 5 or more characters after it, or -1. */
function jwtHead(run: string, from: number, to: number): number {
  for (let p = run.indexOf('eyJ', from); p >= 0 && to - p >= 8; p = run.indexOf('eyJ', p + 1)) {
    if (p === from || run.charCodeAt(p - 1) === 45 /* - */) return p;
  }
  return -1;
}

/** At most `max` characters of `s`, marked when cut: service strings are clipped before they are scanned or shown. */
export function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length - max} more characters)`;
}

function usableSecrets(knownSecrets: readonly string[] | undefined): string[] {
  // Longest first so a secret that contains another is masked whole.
  return (knownSecrets ?? [])
    .filter((s): s is string => typeof s === 'string' && s.length >= 4)
    .sort((a, b) => b.length - a.length);
}

function maskKnown(s: string, secrets: readonly string[]): string {
  let out = s;
  for (const secret of secrets) {
    if (out.includes(secret)) {
      out = out.split(secret).join(mask(secret));
    }
  }
  return out;
}

/** `s` with known secrets, auth header values, JWTs and long token-like strings masked. */
export function redactText(s: string, knownSecrets?: readonly string[]): string {
  let out = maskKnown(String(s), usableSecrets(knownSecrets));
  out = out.replace(HEADER_RE, (_m, name: string, sep: string, value: string) =>
    value.startsWith(DOTS) ? `${name}${sep}${value}` : `${name}${sep}${mask(value)}`);
  if (out.includes('eyJ')) out = replaceRuns(out, JWT_RUN, JWT_MIN, maskJwts);
  out = replaceRuns(out, TOKEN_RUN, TOKEN_MIN, (m) => (looksRandom(m) ? mask(m) : m));
  return out;
}

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
  const out = new Set<string>();
  const seen = new WeakSet<object>();
  const walk = (x: unknown): void => {
    if (x === null || typeof x !== 'object' || seen.has(x)) return;
    seen.add(x);
    for (const [k, y] of Object.entries(x)) {
      if (typeof y === 'string' && SECRET_KEYS.has(k.toLowerCase())) out.add(y);
      else walk(y);
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
