import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { csvField, toCsv } from '../../../src/core/csv';
import { ledgerCsv } from '../../../src/core/deletion';

// Every code point with Unicode's White_Space property (PropList.txt), the zero-width and BOM
// characters, the C0 and C1 controls and DEL: what a spreadsheet may skip before a formula.
const WHITE_SPACE = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005,
  0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
];
const INVISIBLE = [0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x180e, 0x00ad, 0x200e, 0x200f, 0x202a, 0x202e, 0x2066, 0x2069];
const CONTROL = [...Array.from({ length: 0x20 }, (_, i) => i), 0x7f, ...Array.from({ length: 0x20 }, (_, i) => 0x80 + i)];
const skipped = fc.constantFrom(...[...WHITE_SPACE, ...INVISIBLE, ...CONTROL].map((c) => String.fromCodePoint(c)));
const trigger = fc.constantFrom('=', '+', '-', '@', '\t', '\r', '|', '＝', '＋', '－', '＠');
/** A cell a spreadsheet would run: any run of skipped characters, a trigger, then anything. */
const formula = fc.tuple(fc.array(skipped, { maxLength: 8 }), trigger, fc.string({ maxLength: 30 })).map(([pre, t, rest]) => pre.join('') + t + rest);

/** The cell as a spreadsheet reads it: quotes removed. */
const unquote = (f: string): string => (f.startsWith('"') ? f.slice(1, -1).replace(/""/g, '"') : f);

describe('core/csv', () => {
  it('neutralises a formula start, also after leading whitespace or control characters', () => {
    for (const v of ['=1+1', '+1', '-1', '@SUM(A1)', ' =cmd|\' /C calc\'!A0', '\t=1', '  +1', '\u00a0@x', '\r=1', '\n-2', '\u0001=1', '\u3000=1', '\u200b=1', '\ufeff+1', '|x']) {
      assert.ok(unquote(csvField(v)).startsWith('\''), `${JSON.stringify(v)} -> ${csvField(v)}`);
    }
  });

  it('generated cells: a formula after any leading whitespace, zero-width, BOM or control characters is inert in every CSV the product writes', () => {
    fc.assert(fc.property(formula, (v) => {
      assert.equal(unquote(csvField(v)), `'${v}`, 'result documents (lookups, played titles)');
      const row = ledgerCsv([{ input: v, platformId: '9437A5ADDAE3012D', titleId: 'F71AC', titleIds: [], requestedAt: 't', state: 'queued' }]).split('\r\n').slice(1).join('\r\n');
      assert.equal(unquote(row.slice(0, row.lastIndexOf(',9437A5ADDAE3012D,'))), `'${v}`, 'receipts CSV and Export Deletion Jobs');
    }), { numRuns: 2000 });
  });

  it('receipts CSV: every service or user field that starts a formula after a space, NBSP or U+3000 is inert', () => {
    const csv = ledgerCsv([{ input: ' =1+1', platformId: '9437A5ADDAE3012D', titleId: 'F71AC', titleIds: ['F71AC'], requestedAt: 't', state: 'queued', metaData: '\u00a0=HYPERLINK("x")', error: '\u3000@SUM(A1)' }]);
    const row = csv.split('\r\n')[1];
    assert.ok(row.startsWith('\' =1+1,'), row);
    assert.ok(row.includes(',"\'\u00a0=HYPERLINK(""x"")",') && row.endsWith(',\'\u3000@SUM(A1)'), row);
  });

  it('leaves plain values alone and quotes separators, quotes and line breaks', () => {
    assert.equal(csvField('9437A5ADDAE3012D'), '9437A5ADDAE3012D');
    assert.equal(csvField('racer ana'), 'racer ana');
    assert.equal(csvField(' racer\u00a0ana'), ' racer\u00a0ana');
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(toCsv(['a', 'b'], [['1', ' =2']]), 'a,b\r\n1,\' =2\r\n');
  });

  it('quotes a field holding a carriage return or a line feed anywhere, so a spreadsheet keeps it in one cell', () => {
    // A lone CR ends a row for most spreadsheets just as LF does.
    assert.equal(csvField('ticket 7\rline two'), '"ticket 7\rline two"');
    assert.equal(csvField('ticket 7\nline two'), '"ticket 7\nline two"');
    assert.equal(csvField('a\r\nb'), '"a\r\nb"');
    const doc = toCsv(['Input', 'Note'], [['9437A5ADDAE3012D', 'one\rtwo']]);
    assert.equal(doc, 'Input,Note\r\n9437A5ADDAE3012D,"one\rtwo"\r\n');
  });
});
