import * as assert from 'node:assert/strict';
import { escapeUnsafe, shownPlatformId, shownReceiptId, shownTitleId } from '../../../src/core/serviceText';

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

describe('core/serviceText', () => {
  it('keeps well-formed service identifiers as they are', () => {
    assert.equal(shownTitleId('F71AC'), 'F71AC');
    assert.equal(shownReceiptId('3f2b8c1e-9d4a-4b7e-8f21-6c5d0a9e7b13'), '3f2b8c1e-9d4a-4b7e-8f21-6c5d0a9e7b13');
    assert.equal(shownReceiptId('0123456789ABCDEF0123456789ABCDEF'), '0123456789ABCDEF0123456789ABCDEF');
    assert.equal(shownPlatformId('9437A5ADDAE3012D'), '9437A5ADDAE3012D');
    assert.equal(shownPlatformId(null), null);
  });

  it('escapes control, format and bidi characters of malformed ones and clips them', () => {
    for (const v of ['F71AC\u202Egpj.exe', 'A248\nDelete everything? Yes', '\u2066F71AC\u2069', 'x\u200By', 'a\u0000b', '\u061C\u2028\ufeff', '../../x']) {
      for (const f of [shownTitleId, shownReceiptId, shownPlatformId]) {
        const out = f(v)!;
        assert.ok(!UNSAFE.test(out), `${JSON.stringify(v)} -> ${JSON.stringify(out)}`);
      }
    }
    assert.equal(escapeUnsafe('F71AC\u202Eab'), 'F71AC\\u202eab');
    assert.ok(shownReceiptId('x'.repeat(10_000)).length < 200);
    assert.equal(shownTitleId(42), '42');
  });
});
