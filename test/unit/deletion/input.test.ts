// Reading a deletion list without the service: line ends of every system, a byte order mark, each
// kind's format at its bounds, the invisible characters a Storefront name may not hold, ticket
// lines quoted up to their limit, and when a text is taken for a PlatformId list.
import * as assert from 'node:assert/strict';
import { allLinesHoldPlatformIds, formatError, readIdentifiers } from '../../../src/core/deletion';

const P = '9437A5ADDAE3012D';
const Q = '1111222233334444';

describe('deletion/input', () => {
  it('lines end in LF, CRLF or CR alike; a byte order mark before the first is not part of it', () => {
    for (const [what, text] of [['LF', `${P}\n${Q}\n`], ['CRLF', `${P}\r\n${Q}\r\n`], ['CR', `${P}\r${Q}\r`], ['BOM', `\ufeff${P}\n${Q}`]]) {
      assert.deepEqual(readIdentifiers(text, 'platform-id').map((l) => [l.line, l.input, l.value, l.from]), [[1, P, P, undefined], [2, Q, Q, undefined]], what);
    }
    // Blanks around an identifier are not part of it, for every kind.
    assert.deepEqual(readIdentifiers(' \tracer_ana  \n  1234 ', 'storefront').map((l) => l.input), ['racer_ana', '1234']);
    assert.deepEqual(readIdentifiers('  1234 ', 'consolelive').map((l) => l.value), ['1234']);
    // Blank lines keep their numbers: the next line is still counted where the file has it.
    assert.deepEqual(readIdentifiers(`\r\n\r${P}`, 'platform-id').map((l) => l.line), [3]);
  });

  it('each kind\'s format at its bounds', () => {
    const ok = (kind: 'platform-id' | 'consolelive' | 'storefront', s: string): boolean => formatError(kind, s) === undefined;
    assert.deepEqual(['7', '1234567890123456', '12345678901234567', 'a1', '1a', '１２', '12 34'].map((s) => ok('consolelive', s)), [true, true, false, false, false, false, false]);
    assert.deepEqual(['9437A5ADDAE301', P.toLowerCase(), '9437A5ADDAE3012DA', '9437A5ADDAE30'].map((s) => ok('platform-id', s)), [true, true, false, false]);
    assert.equal(formatError('consolelive', '12ab'), '"12ab" is not a ConsoleLive ID: use its decimal digits only (up to 16).');
    assert.equal(formatError('storefront', '#x'), '"#x" is a comment line, not an identifier.');
    assert.equal(formatError('storefront', 's'.repeat(65)), `"${'s'.repeat(40)}…" is longer than 64 characters, too long for a Storefront name.`);
  });

  it('a Storefront name may hold no control, invisible or direction-changing character, at either end of each range; others are names', () => {
    const refused = ['\u0000', '\u001f', '\u007f', '\u009f', '\u200b', '\u200f', '\u2028', '\u202e', '\u2060', '\u206f', '\ufeff'];
    for (const c of refused) {
      assert.equal(formatError('storefront', `ra${c}cer`), `"ra\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}cer" holds control or invisible characters; remove them.`, `U+${c.charCodeAt(0).toString(16)}`);
    }
    for (const c of [' ', '~', '\u00a0', 'é', '\u2010', '\u2030', '\u2070', '\ufefe', '名']) assert.equal(formatError('storefront', `ra${c}cer`), undefined, `U+${c.charCodeAt(0).toString(16)}`);
  });

  it('only a PlatformId list finds identifiers inside a line: a Storefront name or ConsoleLive ID that is not one stays refused', () => {
    const line = `ticket about ${P} and more text than a Storefront name may hold, ${'x'.repeat(40)}`;
    assert.deepEqual(readIdentifiers(line, 'storefront').map((l) => [l.input, l.value, l.invalid !== undefined]), [[line, undefined, true]]);
    assert.deepEqual(readIdentifiers(`id ${P}`, 'consolelive').map((l) => [l.input, l.value, l.invalid !== undefined]), [[`id ${P}`, undefined, true]]);
  });

  it('a ticket line is quoted up to 80 characters and one more, so a reader can tell it went on', () => {
    const long = `  SUPPORT-7: please delete ${P} ${'x'.repeat(100)}  `;
    const [found] = readIdentifiers(long, 'platform-id');
    assert.equal(found.from, long.trim().slice(0, 81));
    assert.equal(found.from!.length, 81);
  });

  it('a ticket line whose PlatformId is malformed is refused quoting the bad ID, not the line\'s start clipped before it', () => {
    const bad = P.slice(0, 13);
    const line = `Hello, my old account on the console I no longer own is this one: ${bad}`;
    const [read] = readIdentifiers(line, 'platform-id');
    assert.equal(read.invalid, `The line holds no PlatformId: "${bad}" has 13 hex characters; a PlatformId has 14 to 16 (0-9, A-F).`);
    // A lone token, or a line with no hex run, keeps the rule's own words.
    assert.match(readIdentifiers(bad, 'platform-id')[0].invalid!, new RegExp(`^"${bad}" is not a PlatformId`));
    assert.match(readIdentifiers('Please help me with my account', 'platform-id')[0].invalid!, /^"Please help me with my account" is not a PlatformId/);
  });

  it('a text is a PlatformId list when every line that holds something is, or holds, one (in any case); not when empty or a line is a comment', () => {
    assert.equal(allLinesHoldPlatformIds(`${P.toLowerCase()}\r\n\r\n  ticket: ${P}  \r`), true);
    assert.equal(allLinesHoldPlatformIds(`  ${P.toLowerCase()}\t`), true);
    assert.equal(allLinesHoldPlatformIds(''), false);
    assert.equal(allLinesHoldPlatformIds(' \n\t\n'), false);
    assert.equal(allLinesHoldPlatformIds(`${Q}\n# ${P}`), false);
    assert.equal(allLinesHoldPlatformIds(`${P}\rno ID`), false);
  });
});
