// A ticket's free text: the identifiers it names by label are offered with its e-mails and
// PlatformIds (extractIdentifiers), each checked for its kind; words that only look like a label are not.
import * as assert from 'node:assert/strict';
import { extractIdentifiers } from '../../../src/core/requests';

const kinds = (text: string): string[] => extractIdentifiers(text).map((x) => `${x.kind}:${x.value}${x.sandbox ? `@${x.sandbox}` : ''}`);

describe('core/requests: identifiers in a ticket\'s text', () => {
  it('finds an e-mail and a Storefront name written in a sentence, in order', () => {
    const text = 'From: Ana <ana@example.com>\nHi, my Storefront name is ana_k. Please delete me.';
    assert.deepEqual(kinds(text), ['email:ana@example.com', 'storefront:ana_k']);
  });

  it('reads each label with ":", "=" or "is", and strips a sentence\'s end', () => {
    const text = [
      'Storefront name: racer_ana_0',
      'Username = ana.k!',
      'ConsoleLive ID: 2535411111111111',
      'Title display name is Ana',
      'PlatformId 9437A5ADDAE3012D',
    ].join('\n');
    assert.deepEqual(kinds(text), ['storefront:racer_ana_0', 'username:ana.k', 'consolelive:2535411111111111@RETAIL', 'displayname:Ana', 'platformid:9437A5ADDAE3012D']);
  });

  it('offers nothing for a label without a value, a label word in prose or a ConsoleLive ID that is no number', () => {
    assert.deepEqual(kinds('Storefront purchases were refunded. My username is'), []);
    assert.deepEqual(kinds('ConsoleLive ID: ana'), []);
  });

  it('offers each identifier once', () => {
    assert.deepEqual(kinds('storefront: ana_k\nStorefront name is ana_k\nana@example.com ANA@example.com'), ['storefront:ana_k', 'email:ana@example.com']);
  });
});
