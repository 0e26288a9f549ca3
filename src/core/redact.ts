// Masking of secret keys, entity tokens, session tickets, identity tokens and ClientSecret values
// in anything meant for a log, an error message or a view.

const DOTS = '••••••••';

/** A masked stand-in for a secret; long secrets keep their last 4 characters so users can tell keys apart. */
export function mask(secret: string): string {
  return secret.length >= 20 ? DOTS + secret.slice(-4) : DOTS;
}

const HEADER_RE = /\b(X-SecretKey|X-EntityToken|X-Authorization|Authorization)(["']?\s*[:=]\s*["']?)(?:Bearer\s+)?([^\s"',;}]+)/gi;
const JWT_RE = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;
// Long runs of token alphabet with capitals and digits: secret keys and random tokens look like
// this, while lower-case hashes, UUIDs (job receipts), words and identifiers do not.
const TOKEN_RE = /[A-Za-z0-9+/=_-]{32,}/g;
const UUID_RE = /^[0-9A-Fa-f]{8}-(?:[0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}$/;

function looksRandom(s: string): boolean {
  return /[A-Z]/.test(s) && /[0-9]/.test(s) && !UUID_RE.test(s);
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
  out = out.replace(JWT_RE, (m) => mask(m));
  out = out.replace(TOKEN_RE, (m) => (looksRandom(m) ? mask(m) : m));
  return out;
}

const SECRET_KEYS = new Set(
  ['SecretKey', 'EntityToken', 'SessionTicket', 'IdentityToken', 'ClientSecret', 'X-SecretKey', 'X-EntityToken']
    .map((k) => k.toLowerCase()),
);

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
