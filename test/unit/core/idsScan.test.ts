// findPlatformIds samples the text rather than reading every word (for speed on large files);
// these tests hold it to the plain word-by-word rule on random and edge-case text.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { findPlatformIds, platformIdAt } from '../../../src/core/ids';

/** The rule, read word by word: 14-16 upper-case hex, a letter and a digit, not after '#'. */
function reference(text: string): { id: string; index: number }[] {
  const out: { id: string; index: number }[] = [];
  for (const m of text.matchAll(/[0-9A-Za-z_]+/g)) {
    const w = m[0];
    if (/^[0-9A-F]{14,16}$/.test(w) && /[A-F]/.test(w) && /[0-9]/.test(w) && text[m.index - 1] !== '#') {
      out.push({ id: w, index: m.index });
    }
  }
  return out;
}

// Mostly characters that make or break PlatformIds, so random text hits the edges often.
const piece = fc.oneof(
  fc.constantFrom('0', '9', 'A', 'F', 'E', 'G', 'Z', 'a', 'f', '_', ' ', '\n', '#', '-', '=', 'é', '\u{1F600}'),
  fc.stringMatching(/^[0-9A-F]{12,18}$/),
  fc.stringMatching(/^[0-9A-Za-z_]{1,40}$/),
);
const text = fc.array(piece, { maxLength: 60 }).map((a) => a.join(''));

describe('findPlatformIds (sampled scan)', () => {
  it('finds exactly what a word-by-word scan finds, in order', () => {
    fc.assert(fc.property(text, (t) => {
      assert.deepEqual(findPlatformIds(t), reference(t));
    }), { numRuns: 3000 });
  });

  it('finds IDs at every offset and of every allowed length, and each again with platformIdAt', () => {
    for (const id of ['9437A5ADDAE3012D', '9437A5ADDAE301', '9437A5ADDAE3012']) {
      for (let pad = 0; pad < 30; pad++) {
        const t = `${'x-'.repeat(pad).slice(0, pad)}-${id}`;
        const line = `${t} ${t.toLowerCase()} #${id} ${id}`;
        const found = findPlatformIds(line);
        assert.deepEqual(found, reference(line), line);
        assert.ok(found.length >= 2, line);
        for (const h of found) {
          assert.deepEqual(platformIdAt(line, h.index + 3), { id: h.id, start: h.index, end: h.index + h.id.length });
        }
      }
    }
  });

  it('skips words longer than a PlatformId, however long, and finds the ID after them', () => {
    const long = 'AB12'.repeat(5000);
    const t = `${long} 9437A5ADDAE3012D ${long}_ 9437A5ADDAE3012E`;
    assert.deepEqual(findPlatformIds(t).map((h) => h.id), ['9437A5ADDAE3012D', '9437A5ADDAE3012E']);
  });
});
