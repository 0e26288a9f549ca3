// The schema checker every request and answer goes through (schema.ts): what each problem says
// and where, the copy it gives back (unknown members kept, null optional members dropped, a
// "__proto__" member an own property), and the bounds on issues and paths for hostile input.
import * as assert from 'node:assert/strict';
import { anyValue, array, bool, describeValue, int, map, nullable, object, optional, str, validate, type Schema } from '../../../src/core/api/schema';

const messages = (v: unknown, s: Schema, path = 'data'): string[] => validate(v, s, path).issues.map((i) => i.message);
const NUM: Schema<number> = { kind: 'number' };

describe('core/api schema: the checker', () => {
  it('each kind names what it expected and what it got', () => {
    assert.deepEqual(messages(5, str), ['data should be a string but is a number']);
    assert.deepEqual(messages('true', bool), ['data should be true or false but is a string']);
    for (const bad of [1.5, Number.NaN, 2 ** 53, '3']) assert.deepEqual(messages(bad, int), [`data should be a whole number but is ${describeValue(bad)}`], String(bad));
    for (const bad of [Number.POSITIVE_INFINITY, Number.NaN, '3']) assert.deepEqual(messages(bad, NUM), [`data should be a number but is ${describeValue(bad)}`], String(bad));
    assert.deepEqual(messages({}, array(str)), ['data should be an array but is an object']);
    assert.deepEqual(messages([], map(str)), ['data should be an object but is an array']);
    assert.deepEqual(messages(null, object({})), ['data should be an object but is null']);
    assert.deepEqual(messages(7, nullable(str)), ['data should be a string but is a number']);
    assert.deepEqual(messages(undefined, str), ['data is missing']);
    assert.deepEqual(messages(true, str), ['data should be a string but is a boolean']);
    for (const [v, s] of [['x', str], [false, bool], [-3, int], [2 ** 53 - 1, int], [0.5, NUM], [null, nullable(int)], [{ any: 1 }, anyValue]] as [unknown, Schema][]) {
      const r = validate(v, s, 'data');
      assert.deepEqual(r.issues, [], JSON.stringify(v));
      assert.equal(r.value, v);
    }
  });

  it('objects: a missing or null required member is named by its path; a null optional one is dropped; unknown members pass through', () => {
    const s = object({ A: str, B: optional(int), C: object({ D: array(int) }) });
    const r = validate({ A: null, B: null, C: { D: [1, 'x'] }, Extra: { keep: true } }, s, 'data');
    assert.deepEqual(r.issues, [
      { path: 'data.A', message: 'data.A is missing' },
      { path: 'data.C.D[1]', message: 'data.C.D[1] should be a whole number but is a string' },
    ]);
    assert.deepEqual(r.value, { C: { D: [1, undefined] }, Extra: { keep: true } });
    assert.ok(!('B' in (r.value as object)), 'a null optional member is dropped, not kept as null');
    const fine = { A: 'a', B: 3, C: { D: [] } };
    const copy = validate(fine, s, 'data').value;
    assert.deepEqual(copy, fine);
    assert.notEqual(copy, fine, 'a copy, not the same object');
    (copy as { A: string }).A = 'changed by its reader';
    assert.equal((copy as { A: string }).A, 'changed by its reader', 'the copy\'s members can be set like any object\'s');
    assert.deepEqual(messages({ A: 'a' }, s, ''), ['C is missing'], 'an empty path names the member alone');
  });

  it('a "__proto__" member is copied as an own member, never as the copy\'s prototype', () => {
    const input = JSON.parse('{"A":"a","__proto__":{"A":5},"M":{"__proto__":"x"}}') as unknown;
    const r = validate(input, object({ A: str, M: map(str) }), 'data');
    const v = r.value as Record<string, unknown>;
    assert.deepEqual(r.issues, []);
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(v, '__proto__')?.value, { A: 5 });
    assert.equal(Object.getOwnPropertyDescriptor(v.M, '__proto__')?.value, 'x');
    assert.deepEqual(messages({ a: 'x', b: 2 }, map(str)), ['data.b should be a string but is a number']);
  });

  it('lists: at least min (one entry, or entries), at most max (then not checked further)', () => {
    assert.deepEqual(messages([], array(str, { min: 1 })), ['data must contain at least 1 entry']);
    assert.deepEqual(messages(['a'], array(str, { min: 2 })), ['data must contain at least 2 entries']);
    assert.deepEqual(messages(['a', 'b'], array(str, { min: 2, max: 2 })), []);
    const over = validate(['a', 'b', 3], array(str, { max: 2 }), 'data');
    assert.deepEqual(over.issues.map((i) => i.message), ['data has 3 entries; send at most 2 per request']);
    assert.equal(over.value, undefined);
  });

  it('at most 50 problems are kept, of any kind, however many there are', () => {
    const s = object({ L: array(str), Missing: str, Short: array(str, { min: 1 }), Long: array(str, { max: 1 }) });
    const r = validate({ L: Array.from({ length: 60 }, (_, i) => i), Short: [], Long: ['a', 'b'] }, s, 'data');
    assert.equal(r.issues.length, 50);
    assert.deepEqual(r.issues.at(-1), { path: 'data.L[49]', message: 'data.L[49] should be a string but is a number' });
    assert.equal((r.value as { Long?: unknown }).Long, undefined, 'still refused, only not named');
    assert.equal(validate(Array.from({ length: 49 }, () => 1).concat([]), array(str), 'data').issues.length, 49);
    const under = validate({ L: Array.from({ length: 49 }, (_, i) => i), Short: [], Long: ['a', 'b'] }, s, 'data');
    assert.deepEqual(under.issues.slice(48).map((i) => i.path), ['data.L[48]', 'data.Missing']);
  });

  it('paths are bounded: each key clipped after 60 characters, the whole path after 200', () => {
    const k60 = 'k'.repeat(60);
    const k61 = 'k'.repeat(61);
    assert.deepEqual(validate({ [k60]: 1 }, map(str), 'data').issues[0].path, `data.${k60}`);
    assert.deepEqual(validate({ [k61]: 1 }, map(str), 'data').issues[0].path, `data.${k60}…`);
    const deep = 'p'.repeat(195);
    assert.equal(validate({ abcdef: 1 }, map(str), deep).issues[0].path, `${deep}.abcd…`);
    assert.equal(validate([1], array(str), deep + 'pp').issues[0].path, `${deep}pp[0]`, 'exactly 200: kept whole');
    assert.equal(validate([1], array(str), deep + 'ppp').issues[0].path, `${deep}ppp[0…`);
    const full = 'p'.repeat(200);
    assert.equal(validate({ a: 1 }, map(str), full).issues[0].path, `${full}.a`.slice(0, 200) + '…');
    assert.equal(validate([1], array(str), full).issues[0].path, `${full}…`, 'exactly 200, then an index: clipped');
    const over = 'p'.repeat(201);
    assert.equal(validate({ a: 1 }, map(str), over).issues[0].path, over, 'a path already over the bound grows no further');
    assert.equal(validate([1], array(str), over).issues[0].path, over);
  });

  it('describeValue names the kind of any value', () => {
    assert.deepEqual([null, [], {}, 'x', 1, true].map(describeValue), ['null', 'an array', 'an object', 'a string', 'a number', 'a boolean']);
  });
});
