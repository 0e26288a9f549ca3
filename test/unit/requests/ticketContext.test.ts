// Where a ticket's identifiers are and whose they are (issue 30): the line each is on, and only
// the From line and the person's first-person sentences count as the requester's own; a
// colleague's e-mail in an agent's note, a CC line or a quoted reply does not.
import * as assert from 'node:assert/strict';
import { extractIdentifiers, identifierLabel, ticketContext } from '../../../src/core/requests';

const TICKET = [
  'Ticket PRIV-0412',
  'From: Ana K <ana@example.com>',
  'CC: lead@support.example',
  '',
  'Hello, my Storefront name is ana_k. Please delete everything.',
  'My old address was ana.old@example.com.',
  'Agent note: I checked with bob@support.example, he says fine.',
  'The account 0123456789ABCDEF was mentioned by the shop. Also I use 00112233AABBCCDD.',
  '> On Monday carla@example.com wrote: my name is carla_x',
].join('\n');

describe('requests: where a ticket names each identifier, and whose it is', () => {
  it('each identifier with its line; the From line and first-person sentences are the requester\'s, nothing else', () => {
    const found = extractIdentifiers(TICKET).map((x) => ({ label: identifierLabel(x), ...ticketContext(TICKET, x.index) }));
    const by = Object.fromEntries(found.map((f) => [f.label, f]));
    assert.deepEqual(Object.keys(by), [
      'E-mail: ana@example.com', 'E-mail: lead@support.example', 'Storefront name: ana_k', 'E-mail: ana.old@example.com',
      'E-mail: bob@support.example', 'PlatformId: 0123456789ABCDEF', 'PlatformId: 00112233AABBCCDD', 'E-mail: carla@example.com',
    ], 'labels in plain words, in order');
    assert.equal(by['E-mail: ana@example.com'].line, 2);
    assert.equal(by['E-mail: ana@example.com'].text, 'From: Ana K <ana@example.com>');
    assert.equal(by['E-mail: ana@example.com'].requester, 'from');
    assert.equal(by['Storefront name: ana_k'].requester, 'first person');
    assert.equal(by['Storefront name: ana_k'].line, 5);
    assert.equal(by['E-mail: ana.old@example.com'].requester, 'first person');
    for (const other of ['E-mail: lead@support.example', 'E-mail: bob@support.example', 'PlatformId: 0123456789ABCDEF', 'E-mail: carla@example.com']) {
      assert.ok(by[other], `${other} is offered`);
      assert.equal(by[other].requester, undefined, `${other} is not the requester's own`);
    }
    // The same line, another sentence: "Also I use …" is first person, the sentence before is not.
    assert.equal(by['PlatformId: 00112233AABBCCDD'].requester, 'first person');
    assert.equal(by['PlatformId: 00112233AABBCCDD'].line, 8);
  });

  it('CRLF line ends, the first and the last line, and a lower-case "i" that is no pronoun', () => {
    const text = 'from: x@example.com\r\nthe id is i 0123456789ABCDEF';
    assert.deepEqual(ticketContext(text, text.indexOf('x@')), { line: 1, text: 'from: x@example.com', requester: 'from' });
    assert.deepEqual(ticketContext(text, text.indexOf('0123')), { line: 2, text: 'the id is i 0123456789ABCDEF' });
  });

  it('a ConsoleLive ID carries its sandbox in its label', () => {
    assert.equal(identifierLabel({ kind: 'consolelive', value: '2535411111111111', sandbox: 'RETAIL' }), 'ConsoleLive ID: 2535411111111111 (RETAIL)');
    assert.equal(identifierLabel({ kind: 'platformid', value: 'ABCDEF0123456789' }), 'PlatformId: ABCDEF0123456789');
  });
});
