import * as assert from 'node:assert/strict';
import { clip } from '../../../src/extension/labelText';

describe('extension/labelText: the views\' one clip', () => {
  it('cuts at n characters with "…" and leaves shorter text whole', () => {
    assert.equal(clip('a'.repeat(80)), 'a'.repeat(80));
    assert.equal(clip('a'.repeat(81)), `${'a'.repeat(80)}…`);
    assert.equal(clip('GET /F71AC/Admin/GetUserAccountInfo', 10), 'GET /F71AC…');
  });

  it('shows line breaks, controls, zero-width and bidi characters as spaces (a label stays one line, in order)', () => {
    assert.equal(clip('ticket\r\n7\u0000x\u007f'), 'ticket  7 x ');
    // U+200B zero-width space and U+200F right-to-left mark: the Emulator Requests view let these through before.
    assert.equal(clip('ana\u200b@x\u200f.com'), 'ana @x .com');
    assert.equal(clip('\u202eevil\u2066\u2069'), ' evil  ');
  });
});
