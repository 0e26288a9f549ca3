// The patterns redaction used before its single-pass scan (correct, but backtracking), and short
// strings made of the pieces of tokens, JWTs and header names: the fuzz suite holds redactText to
// the reference on many of them, the unit suite on a few hundred (what mutation testing runs).
import fc from 'fast-check';
import { mask } from '../../../src/core/redact';

export const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJwbGF5ZXIxIn0.c2lnbmF0dXJlLXBhcnQ';
export const KEY = 'EMUF71AC7Q2M9X4T8W1R6Y3U5P0S2N8B4C7D1';

/** The patterns redactText used before the single-pass scan: correct, but backtracking. */
export function reference(s: string): string {
  const uuid = /^[0-9A-Fa-f]{8}-(?:[0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}$/;
  return s
    .replace(/\b(X-SecretKey|X-EntityToken|X-Authorization|Authorization)(["']?\s*[:=]\s*["']?)(?:Bearer\s+)?([^\s"',;}]+)/gi,
      (_m, name: string, sep: string, value: string) => (value.startsWith('••••••••') ? `${name}${sep}${value}` : `${name}${sep}${mask(value)}`))
    .replace(/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, (m) => mask(m))
    .replace(/[A-Za-z0-9+/=_-]{32,}/g, (m) => (/[A-Z]/.test(m) && /[0-9]/.test(m) && !uuid.test(m) && !/^[0-9A-F]{32}$/.test(m) ? mask(m) : m));
}

export const piece = fc.constantFrom('eyJ', '-', '.', '..', 'a', 'Z', '9', 'abcde', 'ABCDE12345', '_', ' ', ':', '"', 'Authorization: ', 'Bearer ', '=', '/', '+', '•', '\n', 'x-secretkey=', JWT, KEY);
export const shortHostile = fc.array(piece, { maxLength: 60 }).map((p) => p.join(''));

