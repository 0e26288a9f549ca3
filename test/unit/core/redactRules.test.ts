// Redaction rule by rule, for each kind of secret: where a header's value starts and ends, which
// runs are JWTs and which are random tokens (and which look random but are IDs a user needs),
// known secrets of any length, the clip's note, and the secret members of an answer. The scans
// are also held to the plain patterns they replaced, on a few hundred generated strings.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { clip, clipForRedaction, mask, redactionWork, redactObject, redactText, secretMemberValues } from '../../../src/core/redact';
import { JWT, KEY, reference, shortHostile } from '../helpers/redactReference';

const M = '••••••••';

describe('core/redact: rule by rule', () => {
  it('masks exactly what the plain patterns mask, on generated strings of token, JWT and header pieces', () => {
    fc.assert(fc.property(shortHostile, (s) => {
      assert.equal(redactText(s), reference(s));
    }), { numRuns: 300 });
  });

  it('a mask keeps the last 4 characters of a secret of 20 characters or more', () => {
    assert.equal(mask('a'.repeat(19)), M);
    assert.equal(mask(`${'a'.repeat(16)}wxyz`), `${M}wxyz`);
  });

  it('an auth header\'s value: after ":" or "=", quotes and spaces, and "Bearer" (masked with it), up to a space or one of " \' , ; }', () => {
    const cases: [string, string][] = [
      ['X-SecretKey: abc123', `X-SecretKey: ${M}`],
      ['x-secretkey=abc123;next', `x-secretkey=${M};next`],
      ['"X-EntityToken" : "tok1",', `"X-EntityToken" : "${M}",`],
      ["{'x-authorization':'v1'}", `{'x-authorization':'${M}'}`],
      ['Authorization: Bearer  abc.def', `Authorization: ${M}`],
      ['AUTHORIZATION=bearer\txyz', `AUTHORIZATION=${M}`],
      ['Authorization: Bearer', `Authorization: ${M}`],
      ['Authorization: Bearerish', `Authorization: ${M}`],
      ['Authorization:\u00a0\u3000abc', `Authorization:\u00a0\u3000${M}`],
      [`Authorization: ${M}wxyz more`, `Authorization: ${M}wxyz more`],
      ['Authorization abc', 'Authorization abc'],
      ['Authorization: ', 'Authorization: '],
      ['Authorization: "', 'Authorization: "'],
      ['myAuthorization: abc', 'myAuthorization: abc'],
      ['_x-secretkey: abc', '_x-secretkey: abc'],
      ['x-secret: abc', 'x-secret: abc'],
      ['Authorizatio', 'Authorizatio'],
      ['X-SecretKey:a X-EntityToken:b', `X-SecretKey:${M} X-EntityToken:${M}`],
      ['-Authorization:a', `-Authorization:${M}`],
    ];
    for (const [input, out] of cases) assert.equal(redactText(input), out, JSON.stringify(input));
  });

  it('a JWT: "eyJ" starting a word, 5 or more characters, a dot, 5 or more, a dot, then the signature', () => {
    assert.equal(redactText(`token ${JWT} end`), `token ${mask(JWT)} end`);
    assert.equal(redactText('eyJabcde.fghij.'), M, 'an empty signature');
    assert.equal(redactText('x.eyJabcde.fghij.k'), `x.${M}`);
    assert.equal(redactText('a-eyJabcde.fghij.k'), `a-${M}`, 'after a dash');
    for (const plain of ['eyJabcd.fghij.k', 'eyJabcde.fghi.k', 'eyJabcde.fghij', 'aeyJabcde.fghij.k', 'a_eyJabcde.fghij.k', 'eyjabcde.fghij.k', 'ey.Jabcde.fghij.k']) {
      assert.equal(redactText(plain), plain, plain);
    }
    assert.equal(redactText('eyJabcde.fghij.k.eyJabcde.fghij.k'), `${M}.${M}`, 'two JWTs in one run');
    assert.equal(redactText('eyJab.eyJabcde.fghij.k'), `eyJab.${M}`, 'a short head is passed over');
    assert.equal(redactText('eyJaeyJbc.fghij.k'), M, 'the first eyJ of a segment is its start');
  });

  it('a random token: 32 or more of A-Z a-z 0-9 + / = _ - with a capital and a digit, not a UUID nor 32 upper-case hex', () => {
    const t32 = 'aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF';
    assert.equal(t32.length, 32);
    assert.equal(redactText(`x ${t32} y`), `x ${mask(t32)} y`);
    assert.equal(redactText(t32.slice(1)), t32.slice(1), '31 characters');
    assert.equal(redactText(`+/=${t32.slice(3)}`), mask(`+/=${t32.slice(3)}`));
    for (const plain of ['abcdefghijklmnopqrstuvwxyz0123456789', 'ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGH', '123456789012345678901234567890123',
      '123E4567-E89B-12D3-A456-426614174000', '0123456789ABCDEF0123456789ABCDEF']) {
      assert.equal(redactText(plain), plain, plain);
    }
    // Almost a UUID or a receipt ID: random after all.
    for (const random of ['123E4567-E89B-12D3-A456-42661417400G', '123E4567xE89B-12D3-A456-426614174000', '123E4567-E89B-12D3-A456-4266141740001',
      '0123456789ABCDEF0123456789ABCDEG', '0123456789ABCDEF0123456789ABCDEF0', '0123456789abcdef0123456789ABCDEF']) {
      assert.equal(redactText(random), mask(random), random);
    }
  });

  it('known secrets: every occurrence, the longest first, none shorter than 4 characters, duplicates once', () => {
    assert.equal(redactText('abc xabcx', ['abc']), 'abc xabcx', 'a 3-character "secret" masks nothing');
    assert.equal(redactText('abcd xabcdx abcd', ['abcd', 'abcd']), `${M} x${M}x ${M}`);
    const long = 'secret-value-long-0000';
    assert.equal(redactText(`a ${long} b`, ['secret', long]), `a ${mask(long)} b`);
    assert.equal(redactText(`a ${long} b`, [long, 'secret']), `a ${mask(long)} b`);
    assert.equal(redactText('no secret here', [undefined as unknown as string, 'zzzz']), 'no secret here');
  });

  it('clips with a note of how much was cut, and not a known secret or token that crosses the cut', () => {
    assert.equal(clip('abcdef', 6), 'abcdef');
    assert.equal(clip('abcdefg', 6), 'abcdef… (1 more characters)');
    assert.equal(clipForRedaction('abc def', 7), 'abc def');
    assert.equal(clipForRedaction('abc def ghi', 5), 'abc d… (6 more characters)', 'a word masking leaves alone is cut where it is');
    assert.equal(clipForRedaction('abc dE4 ghi', 5), 'abc … (7 more characters)', 'back to the start of a run masking would hide (capitals and digits)');
    assert.equal(clipForRedaction('abc xeyJa ghi', 7), 'abc … (9 more characters)', 'or a JWT\'s start');
    assert.equal(clipForRedaction('abc def ghi', 4), 'abc … (7 more characters)', 'a cut after a space stays');
    assert.equal(clipForRedaction('abc def ghi', 3), 'abc… (8 more characters)', 'a cut before a space stays');
    assert.equal(clipForRedaction('aBcD3f', 3), '… (6 more characters)');
    assert.equal(clipForRedaction('abcdef', 3), 'abc… (3 more characters)');
    assert.equal(clipForRedaction('x: s3cr et', 6, ['s3cr et']), 'x: … (7 more characters)', 'a known secret is not a token run, yet is kept whole or not at all');
    assert.equal(clipForRedaction('k=aa b|aa bb|', 9, ['aa bb|', 'b|aa b']), 'k=aa … (8 more characters)', 'secrets that overlap move the cut again');
  });

  it('counts the positions it examines: at least one per character, linear in the text', () => {
    const text = `Authorization: x ${JWT} ${KEY} `.repeat(50);
    const before = redactionWork();
    redactText(text, [KEY]);
    const steps = redactionWork() - before;
    assert.ok(steps >= 4 * text.length && steps <= 24 * text.length, `${steps / text.length} steps a character`);
  });

  it('collects the string values of secret-named members, any case, at most 64, through cycles', () => {
    const answer: Record<string, unknown> = {
      data: { sessionticket: 't1', Nested: [{ CLIENTSECRET: 'c1' }, { 'x-secretkey': 'k1', 'X-EntityToken': 'e1' }], EntityToken: { EntityToken: 'e2' } },
      IdentityToken: 'i1', SecretKey: 42, Other: 'o1',
    };
    answer.self = answer;
    assert.deepEqual(secretMemberValues(answer).sort(), ['c1', 'e1', 'e2', 'i1', 'k1', 't1']);
    const many = Array.from({ length: 70 }, (_, i) => ({ SecretKey: `key-${i}` }));
    assert.equal(secretMemberValues(many).length, 64);
    assert.deepEqual(secretMemberValues('SecretKey'), []);
    assert.deepEqual(secretMemberValues(null), []);
  });

  it('a redacted copy keeps objects that are not plain (dates, URLs) and what two members share', () => {
    const when = new Date(0);
    const shared = { SessionTicket: 'ticket-1' };
    const out = redactObject({ when, a: shared, b: shared, list: [shared], n: null, u: undefined, f: false }, ['ticket']);
    assert.equal(out.when, when);
    assert.equal(out.a, out.b, 'one copy of a shared member');
    assert.equal(out.list[0], out.a);
    assert.deepEqual(out.a, { SessionTicket: M });
    assert.deepEqual([out.n, out.u, out.f], [null, undefined, false]);
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { SecretKey: 'k', note: 'has secret-x' });
    assert.deepEqual({ ...redactObject(bare, ['secret-x']) }, { SecretKey: M, note: `has ${M}` });
    assert.equal(redactObject('plain secret-x', ['secret-x']), `plain ${M}`);
  });
});
