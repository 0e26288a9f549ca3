import * as assert from 'node:assert/strict';
import { findPlatformIds, isPlatformId, parseIdList, platformIdAt, quoteForMessage, validatePlatformId, validateTitleId } from '../../../src/core/ids';

describe('core/ids', () => {
  describe('validateTitleId', () => {
    it('accepts short hex title IDs in either case', () => {
      for (const id of ['F71AC', 'A248', 'abcd', '0123456789ABCDEF']) {
        assert.equal(validateTitleId(id), undefined, id);
      }
    });
    it('rejects empty, padded, non-hex, too short and too long IDs with a reason', () => {
      const bad = ['', ' F71AC', 'F71AC ', 'F7.1A', 'F71AC@evil', 'F71AC#x', 'F7/1A', 'F7\\1A', 'F71AC:80', '[::1]',
        'xn--f71ac', '%46%37', 'u:p@F71AC', 'F7 1A', 'ABC', '0123456789ABCDEF0', 'G71AC', 'F71AC\n', 'A'.repeat(5000)];
      for (const id of bad) {
        const err = validateTitleId(id);
        assert.ok(err !== undefined && err.includes('Title ID'), JSON.stringify(id));
      }
      assert.ok(validateTitleId(undefined)?.includes('empty'));
      assert.equal(validateTitleId(''), 'Title ID is empty. Enter the hex title ID shown in the title\'s management portal, e.g. F71AC.');
      for (const padded of [' F71AC', 'F71AC\t', '\nF71AC']) {
        assert.equal(validateTitleId(padded), 'Title ID has spaces around it. Remove them (a title ID looks like F71AC).', JSON.stringify(padded));
      }
      assert.equal(validateTitleId('F7 1A'), 'Title ID "F7 1A" is not valid: use 4 to 16 hex characters (0-9, A-F), e.g. F71AC.');
      assert.ok(validateTitleId('A'.repeat(5000))!.length < 200, 'long input is shortened in the message');
    });
  });

  describe('isPlatformId / validatePlatformId', () => {
    it('accepts 14-16 hex characters', () => {
      assert.ok(isPlatformId('9437A5ADDAE3012D'));
      assert.ok(isPlatformId('9437A5ADDAE301'));
      assert.ok(isPlatformId('9437a5addae3012'));
      assert.equal(validatePlatformId('9437A5ADDAE3012D'), undefined);
    });
    it('rejects other strings', () => {
      for (const s of ['', '9437A5ADDAE30', '9437A5ADDAE3012D0', '9437A5ADDAE3012G', ' 9437A5ADDAE3012D', '9437A5AD-DAE3012D']) {
        assert.equal(isPlatformId(s), false, s);
        assert.ok(validatePlatformId(s)?.startsWith('PlatformId'), s);
      }
      assert.equal(isPlatformId(42), false);
      for (const empty of ['', '   ', undefined]) {
        assert.equal(validatePlatformId(empty), 'PlatformId is empty. Enter the player\'s PlatformId (14-16 hex characters, e.g. 9437A5ADDAE3012D).', JSON.stringify(empty));
      }
      assert.equal(validatePlatformId(' 9437A5ADDAE3012D'), 'PlatformId " 9437A5ADDAE3012D" is not valid: use 14 to 16 hex characters (0-9, A-F), e.g. 9437A5ADDAE3012D.');
    });
  });

  describe('findPlatformIds', () => {
    it('finds word-bounded upper-case IDs with their index', () => {
      const text = 'delete 9437A5ADDAE3012D now, then (1A2B3C4D5E6F70) and "ABCDEF01234567".';
      assert.deepEqual(findPlatformIds(text), [
        { id: '9437A5ADDAE3012D', index: text.indexOf('9437') },
        { id: '1A2B3C4D5E6F70', index: text.indexOf('1A2B') },
        { id: 'ABCDEF01234567', index: text.indexOf('ABCDEF') },
      ]);
    });
    it('gives no false hits', () => {
      const text = [
        'accessibilities deadbeefcafebabe', // ordinary words, lower-case hex (span IDs)
        '12345678901234 1234567890123456', // decimal numbers
        '#AABBCC #9437A5ADDAE3012D', // colours and anchors
        'da39a3ee5e6b4b0d3255bfef95601890afd80709', // 40-char hash
        'DA39A3EE5E6B4B0D3255BFEF95601890AFD80709', // upper-case 40-char hash
        'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', // 64-char hash
        'x9437A5ADDAE3012D 9437A5ADDAE3012D_1 9437A5ADDAE3012DA ABCDEFABCDEFAB', // glued, too long, no digit
      ].join('\n');
      assert.deepEqual(findPlatformIds(text), []);
    });
  });

  describe('platformIdAt', () => {
    const line = 'id: 9437A5ADDAE3012D, other';
    it('finds the ID under the cursor, including at its edges', () => {
      for (const ch of [4, 10, 20]) {
        assert.deepEqual(platformIdAt(line, ch), { id: '9437A5ADDAE3012D', start: 4, end: 20 }, String(ch));
      }
    });
    it('returns undefined off the ID and for bad positions', () => {
      for (const ch of [0, 2, 22, -1, 999, 1.5]) {
        assert.equal(platformIdAt(line, ch), undefined, String(ch));
      }
      assert.equal(platformIdAt('#9437A5ADDAE3012D', 5), undefined);
      assert.equal(platformIdAt('', 0), undefined);
      assert.equal(platformIdAt(line, 10.5), undefined, 'a position between characters, inside the ID');
      assert.deepEqual(platformIdAt('9437A5ADDAE3012D x', 0), { id: '9437A5ADDAE3012D', start: 0, end: 16 }, 'at the start of the line');
      assert.deepEqual(platformIdAt('x 9437A5ADDAE3012D', 18), { id: '9437A5ADDAE3012D', start: 2, end: 18 }, 'at the end of the line');
    });
    it('looks at most 17 characters each side of the cursor, in a word of megabytes', () => {
      const word = 'A'.repeat(1_000_000) + '9437A5ADDAE3012D' + 'B'.repeat(1_000_000);
      let reads = 0;
      // A String object that counts the characters platformIdAt reads.
      const counted = Object.assign(new String(word), {
        charCodeAt(i: number) { reads++; return word.charCodeAt(i); },
      }) as unknown as string;
      for (const ch of [0, 500_000, 1_000_008, word.length]) {
        reads = 0;
        assert.equal(platformIdAt(counted, ch), undefined);
        assert.ok(reads <= 2 * 17, `${reads} characters read at ${ch}`);
      }
      // A 16-character ID with a non-word neighbour 17 away is still found from either edge.
      assert.deepEqual(platformIdAt('x 9437A5ADDAE3012D y', 18), { id: '9437A5ADDAE3012D', start: 2, end: 18 });
      assert.deepEqual(platformIdAt('x 9437A5ADDAE3012D y', 2), { id: '9437A5ADDAE3012D', start: 2, end: 18 });
      assert.equal(platformIdAt('9437A5ADDAE3012DA', 0), undefined);
    });
  });

  describe('parseIdList', () => {
    it('splits on lines and commas, trims, drops empties, keeps order and duplicates', () => {
      assert.deepEqual(parseIdList(' b ,a\r\n\n c,,a \n'), ['b', 'a', 'c', 'a']);
      assert.deepEqual(parseIdList(''), []);
      assert.deepEqual(parseIdList('Some Name, Other Name'), ['Some Name', 'Other Name']);
    });
  });

  describe('quoteForMessage', () => {
    it('keeps 40 characters whole, shortens a longer value with an ellipsis, and writes invisible characters as escapes', () => {
      assert.equal(quoteForMessage('a'.repeat(40)), 'a'.repeat(40));
      assert.equal(quoteForMessage('a'.repeat(41)), `${'a'.repeat(40)}…`);
      assert.equal(quoteForMessage('abcdef', 3), 'abc…');
      assert.equal(quoteForMessage('a\u0000\u001f\u007f\u009f\u00ad\u200b\u200f\u2028\u202e\u2060\u206f\ufeffb'),
        'a\\u0000\\u001f\\u007f\\u009f\\u00ad\\u200b\\u200f\\u2028\\u202e\\u2060\\u206f\\ufeffb');
      assert.equal(quoteForMessage('\u00a0\u00ac\u00ae\u200a\u2010\u2027\u202f\u2070é'), '\u00a0\u00ac\u00ae\u200a\u2010\u2027\u202f\u2070é', 'their neighbours are kept');
    });
  });
});
