// A request's identifiers, one rule at a time: what each kind accepts and refuses (with the
// message a user reads), when two identifiers are the same, the identifiers file's line endings,
// comments, byte order mark and long error lists, and the labels a ticket names identifiers by.
import * as assert from 'node:assert/strict';
import { extractIdentifiers, identifierProblem, identifiersText, parseIdentifiers, RequestError } from '../../../src/core/requests';
import { identifierKey } from '../../../src/core/requests/identifiers';
import { labelledIdentifiers } from '../../../src/core/requests/ticketLabels';

describe('requests: identifiers, rule by rule', () => {
  it('an e-mail address: a local part of 1 to 64 characters, a domain with a dot, 254 characters at most', () => {
    for (const ok of ['a@example.com', `${'a'.repeat(64)}@example.com`, 'ana.k+games@mail.example.co.uk', 'x@a-b.c']) {
      assert.equal(identifierProblem('email', ok), undefined, ok);
    }
    const long = `${'a'.repeat(60)}@${'b'.repeat(190)}.com`;
    assert.equal(long.length, 255);
    assert.equal(identifierProblem('email', `${'a'.repeat(60)}@${'b'.repeat(189)}.com`), undefined, '254 characters is allowed');
    for (const bad of [long, `${'a'.repeat(65)}@example.com`, '@example.com', 'ana@example', 'ana@@example.com', 'ana@example.com.', 'ana@.com', 'a na@example.com',
      'ana<@example.com', 'ana>@example.com', 'a(n)a@example.com', 'a[n]a@example.com', 'a\\na@example.com', 'a,na@example.com', 'a;na@example.com',
      'a:na@example.com', 'a"na@example.com', 'ana@exa_mple.com', 'ana@example.com x', 'x ana@example.com']) {
      assert.equal(identifierProblem('email', bad), `"${bad.length > 40 ? `${bad.slice(0, 40)}…` : bad}" is not an e-mail address: write it as name@example.com.`, bad);
    }
  });

  it('a username or display name: up to 100 characters, no control or invisible characters; the message names which', () => {
    assert.equal(identifierProblem('username', 'a'.repeat(100)), undefined);
    assert.equal(identifierProblem('displayname', 'Ana the Racer'), undefined);
    assert.match(identifierProblem('username', 'a'.repeat(101))!, /is longer than 100 characters, too long for a username\.$/);
    assert.match(identifierProblem('displayname', 'a'.repeat(101))!, /is longer than 100 characters, too long for a title display name\.$/);
    for (const c of ['\u0000', '\u001f', '\u007f', '\u009f', '\u200b', '\u200f', '\u2028', '\u202e', '\u2060', '\u206f', '\ufeff']) {
      assert.equal(identifierProblem('displayname', `Ana${c}`), `"Ana\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}" holds control or invisible characters; remove them.`);
    }
    assert.equal(identifierProblem('username', 'Ana é ü'), undefined, 'letters beyond ASCII are fine');
  });

  it('a PlatformId, a Storefront name and a ConsoleLive ID keep their own rules', () => {
    assert.equal(identifierProblem('platformid', '9437a5addae3012d'), undefined);
    assert.equal(identifierProblem('platformid', '9437A5ADDAE30'), '"9437A5ADDAE30" is not a PlatformId: use 14 to 16 hex characters (0-9, A-F).');
    assert.equal(identifierProblem('storefront', 'ana_k'), undefined);
    assert.match(identifierProblem('storefront', 'a\u200bna')!, /control or invisible/);
    assert.equal(identifierProblem('consolelive', '2533274800000000'), undefined);
    assert.match(identifierProblem('consolelive', '25332748x')!, /not a ConsoleLive ID/);
  });

  it('two identifiers are the same when kind, value (e-mails and PlatformIds in any case) and sandbox are', () => {
    assert.equal(identifierKey({ kind: 'email', value: 'Ana@Example.com' }), 'email:ana@example.com');
    assert.equal(identifierKey({ kind: 'platformid', value: '9437A5ADDAE3012D' }), 'platformid:9437a5addae3012d');
    assert.equal(identifierKey({ kind: 'username', value: 'Ana' }), 'username:Ana', 'a username keeps its case');
    assert.equal(identifierKey({ kind: 'consolelive', value: '25', sandbox: 'XDKS.1' }), 'consolelive:25@XDKS.1');
    assert.notEqual(identifierKey({ kind: 'consolelive', value: '25', sandbox: 'RETAIL' }), identifierKey({ kind: 'consolelive', value: '25', sandbox: 'XDKS.1' }));
  });

  it('the identifiers file: any line ending, a byte order mark, comments, kinds in any case and spaces around the colon', () => {
    const ids = parseIdentifiers('\ufeffEMAIL : ana@example.com\r\n  # a comment\r\nUserName:Ana\rconsolelive:25\n\n');
    assert.deepEqual(ids, [{ kind: 'email', value: 'ana@example.com' }, { kind: 'username', value: 'Ana' }, { kind: 'consolelive', value: '25', sandbox: 'RETAIL' }]);
    assert.deepEqual(parseIdentifiers('username:Ana\nusername:ana\n'), [{ kind: 'username', value: 'Ana' }, { kind: 'username', value: 'ana' }], 'usernames differ by case');
    assert.throws(() => parseIdentifiers('email:a@example.com\r\nemail:A@EXAMPLE.COM'), /line 2: the same identifier as line 1; remove one of them\./);
    // What is written back reads the same.
    assert.equal(identifiersText(ids), 'email:ana@example.com\nusername:Ana\nconsolelive:25\n');
    assert.deepEqual(parseIdentifiers(identifiersText(ids)), ids);
  });

  it('lists the first 20 bad lines and counts the rest; a good file with bad lines returns nothing', () => {
    const text = ['email:ana@example.com', ...Array.from({ length: 23 }, (_, i) => `phone:${i}`)].join('\n');
    assert.throws(() => parseIdentifiers(text), (e: Error) => {
      assert.ok(e instanceof RequestError);
      const lines = e.message.split('\n');
      assert.equal(lines[0], 'The identifiers file has 23 bad line(s):');
      assert.equal(lines.length, 22);
      assert.match(lines[1], /^ {2}line 2: "phone:0" does not start with a kind; write kind:value with kind one of platformid, email, username, displayname, storefront, consolelive \(e\.g\. email:ana@example\.com\)\.$/);
      assert.match(lines[20], /^ {2}line 21: "phone:19"/);
      assert.equal(lines[21], '  ... and 3 more');
      return true;
    });
    assert.throws(() => parseIdentifiers('phone:1\nemail:ana@example.com'), (e: Error) => !e.message.includes('more') && /has 1 bad line/.test(e.message));
    assert.throws(() => parseIdentifiers(''), /^RequestError|holds no identifier: write one kind:value a line/);
  });

  it('a line without a colon, or with an empty kind, is not an identifier', () => {
    assert.throws(() => parseIdentifiers('email ana@example.com'), /line 1: "email ana@example\.com" does not start with a kind/);
    assert.throws(() => parseIdentifiers(':ana@example.com'), /line 1: ":ana@example\.com" does not start with a kind/);
    // The value is everything after the first colon.
    assert.deepEqual(parseIdentifiers('displayname: Ana: the Racer '), [{ kind: 'displayname', value: 'Ana: the Racer' }]);
  });

  it('labels in a ticket: where each value starts, trailing punctuation dropped, label words skipped', () => {
    const text = 'Hello. My username is ana.k?! and my storefront id = "racer"';
    assert.deepEqual(labelledIdentifiers(text), [
      { kind: 'storefront', value: 'racer', index: text.indexOf('racer') },
      { kind: 'username', value: 'ana.k', index: text.indexOf('ana.k') },
    ]);
    for (const word of ['is', 'are', 'was', 'and', 'or', 'the', 'my', 'a', 'an', 'THE']) {
      assert.deepEqual(labelledIdentifiers(`username: ${word}`), [], word);
    }
    assert.deepEqual(labelledIdentifiers('username: ...'), []);
    assert.deepEqual(labelledIdentifiers('usernames: ana'), [{ kind: 'username', value: 'ana', index: 11 }]);
    assert.deepEqual(labelledIdentifiers('myusername: ana'), [], 'a label is a whole word');
    assert.deepEqual(labelledIdentifiers('Console Live XUID = 2535411111111111').map((x) => x.kind), ['consolelive']);
    assert.deepEqual(labelledIdentifiers('display name: Ana').map((x) => `${x.kind}:${x.value}`), ['displayname:Ana']);
  });

  it('in a ticket\'s text: only valid identifiers, each once, sorted by where they appear', () => {
    const text = 'username: a\u200bna then ana@example.com and my display name is Ana, PlatformId 9437A5ADDAE3012D, x@y (no domain)';
    assert.deepEqual(extractIdentifiers(text), [
      { kind: 'email', value: 'ana@example.com', index: text.indexOf('ana@') },
      { kind: 'displayname', value: 'Ana', index: text.indexOf('Ana,') },
      { kind: 'platformid', value: '9437A5ADDAE3012D', index: text.indexOf('9437') },
    ]);
    const long = `${'a'.repeat(64)}@${'b'.repeat(190)}.com`;
    assert.deepEqual(extractIdentifiers(`write to ${long}`), [], 'an address over 254 characters is not offered');
  });
});
