// RFC 8785 (JCS) canonical JSON, the form entries are hashed and the head signed in; and each
// entry named to the operator whose step caused it.
import * as assert from 'node:assert/strict';
import { newRequest } from '../../../src/core/requests';
import { canonical, evidenceBodies, operatorAt } from '../../../src/core/requests/evidence';
import { newOperator, REQUEST_KEY } from './operatorSupport';

describe('requests: canonical JSON (RFC 8785) and the operator of each entry', () => {
  it('sorts keys by UTF-16 code units and writes numbers and strings as RFC 8785 does', () => {
    // RFC 8785 section 3.2.3's sorting example.
    const keys = { '\u20ac': 'Euro Sign', '\r': 'Carriage Return', '\ufb33': 'Hebrew Letter Dalet With Dagesh', '1': 'One', '\ud83d\ude00': 'Emoji: Grinning Face', '\u0080': 'Control', '\u00f6': 'Latin Small Letter O With Diaeresis' };
    assert.equal(canonical(keys), '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}');
    // RFC 8785 section 3.2.2.3's numbers (ECMAScript's Number to String).
    assert.equal(canonical([333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001, -0, 1e21, 1e-7, 100]), '[333333333.3333333,1e+30,4.5,0.002,1e-27,0,1e+21,1e-7,100]');
    assert.equal(canonical({ b: [true, null, 'x\u2028"\\'], a: { d: undefined, c: 1 } }), '{"a":{"c":1},"b":[true,null,"x\u2028\\"\\\\"]}');
    assert.equal(canonical('\u0000\u001f\u007f'), '"\\u0000\\u001f\u007f"');
  });

  it('refuses what has no JSON form instead of writing something that is not JSON or not what was hashed', () => {
    for (const bad of [NaN, Infinity, -Infinity, [undefined], undefined, 'a\ud800b', '\udc00', new Date(0), () => 1, 1n, Symbol('s'), { a: [NaN] }]) {
      assert.throws(() => canonical(bad), TypeError, String(bad));
    }
    // The error says what has no JSON form.
    assert.throws(() => canonical(NaN), { message: 'canonical JSON: NaN has no JSON form' });
    assert.throws(() => canonical('a\ud800'), { message: 'canonical JSON: a string holds a lone surrogate' });
    assert.throws(() => canonical(new Date(0)), { message: 'canonical JSON: a non-plain object has no JSON form' });
    assert.throws(() => canonical(() => 1), { message: 'canonical JSON: a function has no JSON form' });
    assert.equal(canonical('\ud83d\ude00'), '"\ud83d\ude00"', 'a surrogate pair is a character');
    assert.equal(canonical(Object.create(null) as object), '{}');
  });

  it('names each entry\'s operator: the one whose step ran at its time, the closer for the close', () => {
    const a = newOperator('Ana');
    const b = newOperator('Ben');
    const ref = (o: typeof a): { fingerprint: string; name: string } => ({ fingerprint: o.fingerprint, name: o.name });
    const r = newRequest({ reference: 'T', asks: ['access'], identifiers: [{ kind: 'email', value: 'x@example.com' }], titles: ['F71AC'], endpoint: 'http://127.0.0.1:1/{titleId}', received: '2026-01-05', now: new Date('2026-01-05T09:00:00.000Z') });
    r.steps = [{ at: '2026-01-05T09:00:00.000Z', step: 'new', operator: ref(a) }, { at: '2026-01-05T11:00:00.000Z', step: 'verify', operator: ref(b) }];
    r.resolution = { at: '2026-01-05T10:00:00.000Z', titlesAsked: ['F71AC'], titlesSkipped: [], findings: [], accounts: [], gone: ['2222A5ADDAE3012D'], calls: [] };
    const bodies = evidenceBodies(r, [], '2026-01-06T00:00:00.000Z', { key: REQUEST_KEY, closer: ref(b) });
    assert.deepEqual(bodies.map((x) => [x.type, (x.operator as { name: string }).name]), [['request', 'Ana'], ['account-gone', 'Ana'], ['closed', 'Ben']]);
    assert.equal(operatorAt(r, '2026-01-05T11:00:00.000Z', ref(a)).name, 'Ben', 'a step begun at the entry\'s time caused it');
    assert.equal(operatorAt(r, '2026-01-05T08:00:00.000Z', ref(b)).name, 'Ana', 'before any step: the first step\'s operator');
    assert.equal(operatorAt({ ...r, steps: undefined }, '2026-01-05T08:00:00.000Z', ref(b)).name, 'Ben', 'no steps recorded: the closer');
  });
});
