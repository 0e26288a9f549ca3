// Fuzzing of redactText: on short strings built from the pieces of tokens, JWTs and header names
// it masks exactly what the plain (backtracking) patterns mask; hostile inputs up to the 8 MB
// answer cap finish (the backtracking JWT pattern needed seconds for 80 KB and hours for 8 MB)
// and still mask a token that follows them.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { mask, redactText } from '../../../src/core/redact';
import { FUZZ_RUNS } from './arbitraries';

const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJwbGF5ZXIxIn0.c2lnbmF0dXJlLXBhcnQ';
const KEY = 'EMUF71AC7Q2M9X4T8W1R6Y3U5P0S2N8B4C7D1';

/** The patterns redactText used before the single-pass scan: correct, but backtracking. */
function reference(s: string): string {
  const uuid = /^[0-9A-Fa-f]{8}-(?:[0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}$/;
  return s
    .replace(/\b(X-SecretKey|X-EntityToken|X-Authorization|Authorization)(["']?\s*[:=]\s*["']?)(?:Bearer\s+)?([^\s"',;}]+)/gi,
      (_m, name: string, sep: string, value: string) => (value.startsWith('••••••••') ? `${name}${sep}${value}` : `${name}${sep}${mask(value)}`))
    .replace(/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, (m) => mask(m))
    .replace(/[A-Za-z0-9+/=_-]{32,}/g, (m) => (/[A-Z]/.test(m) && /[0-9]/.test(m) && !uuid.test(m) && !/^[0-9A-F]{32}$/.test(m) ? mask(m) : m));
}

const piece = fc.constantFrom('eyJ', '-', '.', '..', 'a', 'Z', '9', 'abcde', 'ABCDE12345', '_', ' ', ':', '"', 'Authorization: ', 'Bearer ', '=', '/', '+', '•', '\n', 'x-secretkey=', JWT, KEY);
const shortHostile = fc.array(piece, { maxLength: 60 }).map((p) => p.join(''));

describe(`fuzz: redaction (${FUZZ_RUNS} strings against the reference patterns, hostile inputs to 8 MB)`, function () {
  this.timeout(Math.max(60_000, FUZZ_RUNS * 20));

  it('masks what the reference patterns mask, on strings made of token, JWT and header pieces', () => {
    fc.assert(fc.property(shortHostile, (s) => {
      assert.equal(redactText(s), reference(s));
    }), { numRuns: FUZZ_RUNS });
  });

  it('never returns a known secret, wherever it sits among hostile pieces', () => {
    fc.assert(fc.property(shortHostile, shortHostile, (a, b) => {
      const out = redactText(`${a}${KEY}${b}`, [KEY]);
      assert.ok(!out.includes(KEY));
    }), { numRuns: FUZZ_RUNS });
  });

  for (const [name, unit] of [['"-eyJ"', '-eyJ'], ['"eyJ."', 'eyJ.'], ['"eyJaaaaa."', 'eyJaaaaa.'], ['"Authorization: "', 'Authorization: '], ['"Aa1-"', 'Aa1-']] as const) {
    it(`finishes an 8 MB answer of ${name} repeated and still masks the JWT and key after it`, () => {
      const hostile = unit.repeat(Math.ceil(8_000_000 / unit.length));
      const out = redactText(`${hostile} ${JWT} ${KEY} end`);
      assert.ok(!out.includes(JWT) && !out.includes(KEY), 'a token after the hostile prefix leaked');
      assert.ok(out.endsWith(' end'));
    });
  }
});
