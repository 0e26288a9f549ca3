// Fuzzing of redactText: on short strings built from the pieces of tokens, JWTs and header names
// it masks exactly what the plain (backtracking) patterns mask; hostile inputs up to the 8 MB
// answer cap finish (the backtracking JWT pattern needed seconds for 80 KB and hours for 8 MB)
// and still mask a token that follows them; and on generated token-like structures its work
// (positions examined, counted by the scans themselves) stays within a linear bound: the old
// scan searched from every dot-separated segment to the end of its run ("eyeye." repeated
// before one "eyJ": 80 KB took 1.3 s, 8 MB never finished).
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { redactionWork, redactText } from '../../../src/core/redact';
import { JWT, KEY, reference, shortHostile } from '../helpers/redactReference';
import { FUZZ_RUNS } from './arbitraries';
import { fill, tokenShape } from './tokenShapes';

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

  /** Positions examined per character of `s` (plus one, for the empty string). */
  const workPerChar = (s: string, secrets: string[] = []): number => {
    const before = redactionWork();
    redactText(s, secrets, Infinity);
    return (redactionWork() - before) / (s.length + 1);
  };
  // About 10 in practice: a few passes, each examining a position a bounded number of times.
  const STEPS_PER_CHAR = 24;

  it(`examines each position a bounded number of times on generated token-like structures (at most ${STEPS_PER_CHAR} steps a character)`, () => {
    fc.assert(fc.property(tokenShape, fc.integer({ min: 2_000, max: 40_000 }), (shape, size) => {
      const s = fill(shape, size);
      const steps = workPerChar(s);
      assert.ok(steps <= STEPS_PER_CHAR, `${steps.toFixed(1)} steps a character for ${JSON.stringify(shape)} at ${s.length} characters`);
    }), { numRuns: Math.max(200, Math.floor(FUZZ_RUNS / 5)) });
  });

  it('the work per character does not grow with the size: 10 times the text, at most 10 times the work (and known secrets add one scan each)', () => {
    fc.assert(fc.property(tokenShape, (shape) => {
      const small = workPerChar(fill(shape, 8_000), [KEY, JWT]);
      const large = workPerChar(fill(shape, 80_000), [KEY, JWT]);
      assert.ok(large <= small * 1.1 + 1 && large <= STEPS_PER_CHAR + 2, `${small.toFixed(1)} then ${large.toFixed(1)} steps a character for ${JSON.stringify(shape)}`);
    }), { numRuns: 50 });
  });

  it('the issue\'s input: "eyeye." repeated with one "eyJ" at the end, 80 KB and 8 MB, within the same bound', () => {
    for (const size of [80_000, 8_000_000]) {
      const s = `${'eyeye.'.repeat(size / 6)}eyJ`;
      assert.ok(workPerChar(s) <= STEPS_PER_CHAR);
    }
  });

  for (const [name, unit] of [['"-eyJ"', '-eyJ'], ['"eyJ."', 'eyJ.'], ['"eyJaaaaa."', 'eyJaaaaa.'], ['"Authorization: "', 'Authorization: '], ['"Aa1-"', 'Aa1-']] as const) {
    it(`finishes an 8 MB answer of ${name} repeated and still masks the JWT and key after it`, () => {
      const hostile = unit.repeat(Math.ceil(8_000_000 / unit.length));
      const out = redactText(`${hostile} ${JWT} ${KEY} end`, [], Infinity);
      assert.ok(!out.includes(JWT) && !out.includes(KEY), 'a token after the hostile prefix leaked');
      assert.ok(out.endsWith(' end'));
    });
  }
});
