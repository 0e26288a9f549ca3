import * as assert from 'node:assert/strict';
import { csvField, toCsv } from '../../../src/core/csv';

describe('core/csv', () => {
  it('neutralises a formula start, also after leading whitespace or control characters', () => {
    for (const v of ['=1+1', '+1', '-1', '@SUM(A1)', ' =cmd|\' /C calc\'!A0', '\t=1', '  +1', '\u00a0@x', '\r=1', '\n-2', '\u0001=1']) {
      assert.ok(csvField(v).replace(/^"/, '').startsWith('\''), `${JSON.stringify(v)} -> ${csvField(v)}`);
    }
  });

  it('leaves plain values alone and quotes separators, quotes and line breaks', () => {
    assert.equal(csvField('9437A5ADDAE3012D'), '9437A5ADDAE3012D');
    assert.equal(csvField('racer ana'), 'racer ana');
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(toCsv(['a', 'b'], [['1', ' =2']]), 'a,b\r\n1,\' =2\r\n');
  });
});
