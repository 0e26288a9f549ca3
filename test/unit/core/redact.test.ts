import * as assert from 'node:assert/strict';
import { validate, map, object, str, int } from '../../../src/core/api/schema';
import { clipForRedaction, mask, MAX_REDACTED, redactionWork, redactObject, redactText } from '../../../src/core/redact';

const KEY = 'K3YSECRETVALUE9ZZABCDEFGH1234567890WXYZ';
const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJwbGF5ZXIxIn0.c2lnbmF0dXJlLXBhcnQ';

describe('core/redact', () => {
  it('mask keeps only the last 4 characters of long secrets', () => {
    assert.equal(mask(KEY), '••••••••WXYZ');
    assert.equal(mask('short'), '••••••••');
    assert.equal(mask(''), '••••••••');
  });

  it('redactText masks known secrets wherever they appear', () => {
    const out = redactText(`key=${KEY}; again:${KEY}.`, [KEY]);
    assert.ok(!out.includes(KEY));
    assert.equal(out, 'key=••••••••WXYZ; again:••••••••WXYZ.');
  });

  it('redactText masks header values, JWTs and long random tokens without known secrets', () => {
    const out = redactText(`X-SecretKey: abc123 x-entitytoken=tok.en-1 {"X-SecretKey":"zz99"} token ${JWT} raw aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6`);
    for (const leaked of ['abc123', 'tok.en-1', 'zz99', JWT, 'aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6']) {
      assert.ok(!out.includes(leaked), `${leaked} leaked in ${out}`);
    }
    assert.ok(out.startsWith('X-SecretKey: ••••••••'));
  });

  it('redactText masks an unknown secret key shaped like the service\'s (capitals and digits)', () => {
    const key = 'EMUDEMOKEYQ7Q2M9X4T8W1R6Y3U5P0S2N8B4C7D1';
    assert.equal(redactText(`key ${key} here`), `key ${mask(key)} here`);
  });

  it('redactText leaves ordinary text, PlatformIds, hashes and UUIDs alone', () => {
    const s = 'Player 9437A5ADDAE3012D, job 123e4567-e89b-12d3-a456-426614174000, JOB 123E4567-E89B-12D3-A456-426614174000, hash da39a3ee5e6b4b0d3255bfef95601890afd80709, SecondarySubscriptionEnvironments';
    assert.equal(redactText(s), s);
  });

  it('redactObject masks secret-named members deeply and known secrets in any string, without changing the input', () => {
    const input = {
      SessionTicket: 'ticket-value-1234567890',
      EntityToken: { EntityToken: 'entity-token-value-123456', TokenExpiration: '2030-01-01T00:00:00Z', Entity: { Id: 'F71AC', Type: 'title' } },
      IdentityToken: JWT,
      Environments: [{ ClientID: 'cid', ClientSecret: 'client-secret-xyz', ID: 'e1' }, { ClientSecret: null }],
      headers: { 'X-SecretKey': KEY, 'x-entitytoken': 'abc' },
      note: `sent with ${KEY}`,
      count: 3,
    };
    const copy = JSON.parse(JSON.stringify(input)) as typeof input;
    const out = redactObject(input, [KEY]);
    assert.deepEqual(input, copy, 'input unchanged');
    const text = JSON.stringify(out);
    for (const leaked of ['ticket-value', 'entity-token-value', JWT, 'client-secret-xyz', KEY]) {
      assert.ok(!text.includes(leaked), `${leaked} leaked`);
    }
    assert.equal(out.EntityToken.TokenExpiration, '2030-01-01T00:00:00Z');
    assert.deepEqual(out.EntityToken.Entity, { Id: 'F71AC', Type: 'title' });
    assert.equal(out.Environments[0].ClientID, 'cid');
    assert.equal(out.Environments[1].ClientSecret, null);
    assert.equal(out.headers['x-entitytoken'], '••••••••');
    assert.equal(out.note, 'sent with ••••••••WXYZ');
    assert.equal(out.count, 3);
  });

  it('redactObject keeps a "__proto__" member of parsed JSON as a plain member', () => {
    const parsed = JSON.parse('{"__proto__":{"SessionTicket":"ticket-1234567890abcdef"},"a":1}') as Record<string, unknown>;
    const out = redactObject(parsed);
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, { SessionTicket: '••••••••cdef' });
    assert.equal((out as { SessionTicket?: unknown }).SessionTicket, undefined);
  });

  it('redactObject copes with cycles', () => {
    const a: Record<string, unknown> = { SecretKey: 'abcdefgh' };
    a.self = a;
    const out = redactObject(a);
    assert.equal(out.SecretKey, '••••••••');
    assert.equal(out.self, out);
  });

  it('clips a message before redaction, never through a known secret or a token, and says how much was cut', () => {
    const message = `${'x'.repeat(MAX_REDACTED - 10)} ${KEY} ${'y '.repeat(4_000_000)}`;
    const before = redactionWork();
    const out = redactText(message, [KEY]);
    assert.ok(redactionWork() - before < 20 * MAX_REDACTED, 'the whole 8 MB message was scanned');
    assert.ok(out.length < MAX_REDACTED + 40 && /… \(\d+ more characters\)$/.test(out), out.slice(-60));
    assert.ok(!out.includes(KEY.slice(0, 8)), 'a prefix of the key was left at the cut');
    // Every cut position: the clip keeps a secret or token whole or not at all, so redaction masks it.
    const text = `abc ${KEY} def ${JWT} end`;
    const wholeOrNone = (s: string, secret: string): boolean => !s.includes(secret.slice(0, 6)) || s.includes(secret);
    for (let max = 0; max < text.length; max++) {
      const cut = clipForRedaction(text, max, [KEY]);
      assert.ok(wholeOrNone(cut, KEY) && wholeOrNone(cut, JWT), `clip at ${max}: ${cut}`);
      const shown = redactText(text, [KEY], max);
      assert.ok(!shown.includes(KEY.slice(0, 6)) && !shown.includes(JWT.slice(0, 12)), `redacted at ${max}: ${shown}`);
    }
  });

  it('schema issue paths clip service keys: a 1 MB member name and deep nesting give short issues', () => {
    const key = 'K'.repeat(1_000_000);
    const { issues } = validate({ [key]: { [key]: 'not a number' } }, map(map(int)), 'data');
    assert.equal(issues.length, 1);
    assert.ok(issues[0].path.length <= 201 && issues[0].message.length < 300, `${issues[0].message.length} characters`);
    let deep: unknown = 'x';
    for (let i = 0; i < 5_000; i++) deep = { [`member${i}`]: deep };
    const nested = validate(deep, object({ member4999: map(map(str)) }), 'data');
    assert.ok(nested.issues.every((i) => i.message.length < 300));
  });

});
