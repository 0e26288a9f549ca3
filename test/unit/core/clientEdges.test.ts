// The client's edges that no request reaches: options refused with the option named, a key that
// cannot be read, an identifier list that is not one, an unexpected failure with its secrets masked;
// and the small rules beside the client (the account lookup's one identifier, a token answer without
// a token, a result with several problems, how long retries took, cancellation while waiting).
import * as assert from 'node:assert/strict';
import { checkAccountLookup } from '../../../src/core/api/accountLookup';
import { usableToken } from '../../../src/core/api/answers';
import { PlatformClient } from '../../../src/core/api/client';
import { NoTokenError } from '../../../src/core/api/envelope';
import { PlatformError } from '../../../src/core/api/errors';
import { checkResult } from '../../../src/core/api/exchange';
import { afterAttempts } from '../../../src/core/api/retryReport';
import { validatePlatformId } from '../../../src/core/ids';
import { seconds } from '../../../src/core/time';
import { sleep } from '../../../src/core/api/signals';
import { TitleTokenCache } from '../../../src/core/api/tokenCache';

const KEY = 'SECRETKEY0123456789ABCDEFGHIJ';
// Nothing listens there: a call that gets as far as connecting fails, never reaching anyone.
const NOWHERE = 'http://127.0.0.1:1/{titleId}';

function rejectsWith(p: Promise<unknown>, message: string, hint?: string): Promise<void> {
  return assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof PlatformError, String(e));
    assert.equal(e.message, message);
    if (hint !== undefined) assert.equal(e.hint, hint);
    return true;
  });
}

describe('core/PlatformClient: refused before any request', () => {
  it('options that are not an object, or without a way to read the key, are named', () => {
    assert.throws(() => new PlatformClient(null as never), { name: 'PlatformError', message: 'PlatformClient option options must be an object.' });
    assert.throws(() => new PlatformClient('x' as never), { message: 'PlatformClient option options must be an object.' });
    assert.throws(() => new PlatformClient({ titleId: 'F71AC', endpoint: NOWHERE } as never), { message: 'PlatformClient option getSecretKey must be a function.' });
  });

  it('a proxy that is empty or not a URL is named, without echoing it', () => {
    const make = (proxy: unknown): PlatformClient => new PlatformClient({ titleId: 'F71AC', endpoint: 'https://{titleId}.example.net', getSecretKey: async () => KEY, proxy } as never);
    const hint = 'Use the form http://HOST:PORT or https://HOST:PORT (credentials as http://user:password@HOST:PORT).';
    assert.throws(() => make('  '), { message: 'PlatformClient option proxy must be a non-empty URL.', hint });
    assert.throws(() => make(42), { message: 'PlatformClient option proxy must be a non-empty URL.' });
    assert.throws(() => make('http://[not-an-address'), (e: unknown) => e instanceof PlatformError && e.message === 'PlatformClient option proxy is not a valid URL.' && e.hint === hint);
  });

  it('a key that cannot be read: the title named and the fix, nothing sent', async () => {
    const c = new PlatformClient({ titleId: 'F71AC', endpoint: NOWHERE, getSecretKey: () => Promise.reject(new Error(`vault said ${KEY}`)), maxRetries: 0 });
    try {
      await rejectsWith(c.getPlayedTitleList('9437A5ADDAE3012D'), 'Could not read the secret key for title F71AC.', 'Set the title\'s secret key again.');
    } finally {
      await c.close();
    }
  });

  it('identifiers that are not a list are refused with how to enter them', async () => {
    const c = new PlatformClient({ titleId: 'F71AC', endpoint: NOWHERE, getSecretKey: async () => KEY, maxRetries: 0 });
    try {
      await rejectsWith(c.getPlatformIdsFromStorefrontNames('racer' as never), 'StorefrontNames must be a list of identifiers.', 'Enter one identifier per line or separate them with commas.');
    } finally {
      await c.close();
    }
  });

  it('an unexpected failure inside a call (a callback that throws) is a network error with the key masked; the key is known to the client', async () => {
    const c = new PlatformClient({
      titleId: 'F71AC', endpoint: NOWHERE, getSecretKey: async () => KEY, maxRetries: 1, retryBaseDelayMs: 0,
      onRetry: () => { throw new Error(`sink broke on ${KEY}`); },
    });
    try {
      await assert.rejects(c.getPlayedTitleList('9437A5ADDAE3012D'), (e: unknown) => {
        assert.ok(e instanceof PlatformError);
        assert.equal(e.kind, 'network');
        assert.equal(e.message, 'Unexpected failure: sink broke on ••••••••GHIJ');
        assert.equal(e.hint, 'Try again; if it persists, check the log.');
        return true;
      });
      assert.deepEqual(c.knownSecretValues(), [KEY]);
    } finally {
      await c.close();
    }
  });
});

describe('core/api: small rules beside the client', () => {
  it('an account is looked up by exactly one identifier; an absent or null one does not count', () => {
    const LIST = 'PlatformId, Email, Username or TitleDisplayName';
    assert.deepEqual(checkAccountLookup({}), { ok: false, field: 'RequestBody', message: `No identifier given: send exactly one of ${LIST}.`, hint: 'Give the one identifier to look the account up by.' });
    assert.deepEqual(checkAccountLookup(undefined), checkAccountLookup({}));
    assert.deepEqual(checkAccountLookup({ Email: 'a@b.c', PlatformId: null, Username: undefined }), { ok: true, field: 'Email', value: 'a@b.c' });
    assert.deepEqual(checkAccountLookup({ Email: 'a@b.c', Username: 'u' }), {
      ok: false, field: 'Email, Username', message: `Several identifiers given (Email and Username): send exactly one of ${LIST}.`,
      hint: 'Look up by one identifier at a time; each answers for one account.',
    });
    assert.deepEqual(checkAccountLookup({ Username: '  ' }), { ok: false, field: 'Username', message: 'Username is empty or not text.', hint: 'Enter the Username to look up.' });
    // A malformed PlatformId is refused by default; the emulator lets it through to "not found".
    assert.deepEqual(checkAccountLookup({ PlatformId: 'nope' }), {
      ok: false, field: 'PlatformId', message: validatePlatformId('nope'), hint: 'Copy the PlatformId exactly as the service shows it.',
    });
    assert.deepEqual(checkAccountLookup({ PlatformId: 'nope' }, false), { ok: true, field: 'PlatformId', value: 'nope' });
  });

  it('a token answer with an empty token is refused like one without', () => {
    assert.throws(() => usableToken({ EntityToken: '' } as never), NoTokenError);
    assert.throws(() => usableToken({} as never), NoTokenError);
    assert.equal(usableToken({ EntityToken: 't' } as never).EntityToken, 't');
  });

  it('a result with several problems names the first and counts the rest', () => {
    assert.throws(() => checkResult('GetPlayedTitleList', { TitleIds: [1, 2, 3] }), (e: unknown) => /^data\.TitleIds\[0\] .* \(and 2 more\)$/.test((e as Error).message));
    assert.throws(() => checkResult('GetPlayedTitleList', { TitleIds: [1] }), (e: unknown) => /^data\.TitleIds\[0\] [^(]*$/.test((e as Error).message));
  });

  it('how long retries took: tenths under ten seconds, whole seconds from ten', () => {
    assert.equal(seconds(3240), '3.2 s');
    assert.equal(seconds(9940), '9.9 s');
    assert.equal(seconds(10_000), '10 s');
    assert.equal(seconds(61_600), '62 s');
    const e = new PlatformError({ kind: 'network', message: 'Down.', hint: 'Retry.' });
    assert.equal(afterAttempts(e, 1, 5000), e);
    assert.equal(afterAttempts(new PlatformError({ kind: 'cancelled', message: 'Cancelled.', hint: '' }), 3, 5000).message, 'Cancelled.');
    const after = afterAttempts(e, 3, 4200);
    assert.equal(after.message, 'Down. Waited 4.2 s in all over 3 attempts.');
    assert.equal(after.attempts, 3);
  });

  it('a wait ends at once when cancelled before or during it', async () => {
    const stop = new AbortController();
    stop.abort();
    assert.equal(await sleep(60_000, stop.signal), false);
    const later = new AbortController();
    const waiting = sleep(60_000, later.signal);
    later.abort();
    assert.equal(await waiting, false);
    assert.equal(await sleep(0, new AbortController().signal), true);
  });

  it('a caller that gives up on a shared token fetch gets an AbortError; the fetch goes on for the others', async () => {
    let answer!: (t: { EntityToken: string }) => void;
    let fetches = 0;
    const cache = new TitleTokenCache(() => {
      fetches++;
      return new Promise((r) => { answer = r; });
    });
    const stop = new AbortController();
    const mine = cache.get(stop.signal);
    const theirs = cache.get();
    stop.abort();
    await assert.rejects(mine, { name: 'AbortError', message: 'The operation was aborted' });
    const gone = new AbortController();
    gone.abort();
    await assert.rejects(cache.get(gone.signal), { name: 'AbortError' });
    answer({ EntityToken: 'tok' });
    assert.equal((await theirs).EntityToken, 'tok');
    assert.equal(fetches, 1);
  });
});
