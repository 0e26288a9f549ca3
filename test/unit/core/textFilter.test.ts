// The views' text filter: every word must appear in some field, ignoring case; empty shows all.
import * as assert from 'node:assert/strict';
import { TextFilter } from '../../../src/core/textFilter';

describe('TextFilter', () => {
  it('an empty or blank filter is inactive and matches everything', () => {
    assert.equal(new TextFilter().active, false, 'no filter given');
    assert.equal(new TextFilter().matches(['anything']), true);
    for (const text of ['', '   ', '\n\t']) {
      const f = new TextFilter(text);
      assert.equal(f.active, false);
      assert.equal(f.text, '');
      assert.equal(f.matches([]), true);
    }
  });

  it('every word must appear, each in some field, ignoring case', () => {
    const f = new TextFilter('  racer   F71 ');
    assert.equal(f.text, 'racer   F71');
    assert.equal(f.matches(['Demo Racer', 'F71AC']), true);
    assert.equal(f.matches(['Demo Racer', 'A248']), false, 'one word missing');
    assert.equal(f.matches(['demo', 'RACER F71AC']), true);
  });

  it('a filter with words is active; false and missing fields are not text to match', () => {
    assert.equal(new TextFilter('racer').active, true);
    assert.equal(new TextFilter('false').matches([false, undefined]), false);
    assert.equal(new TextFilter('undefined').matches([undefined, 'x']), false);
  });

  it('reads numbers, skips missing fields and does not match across two fields', () => {
    const f = new TextFilter('1199');
    assert.equal(f.matches([undefined, null, false, 1199]), true);
    assert.equal(f.matches(['11', '99']), false, 'a word spanning two fields');
  });
});
