// What a failure says (errors.ts), word for word: each HTTP status without a service code, with
// the edges of each class; service errors whose meaning depends on the operation (a player
// already gone, a deletion already queued, an account lookup that is title-specific); and
// PlatformError's own fields, copied whole by withChanges.
import * as assert from 'node:assert/strict';
import { describeErrorCode, describeHttpStatus, describeServiceError, errorNameOf, isCancellation, PlatformError, withChanges } from '../../../src/core/api/errors';
import { isRetryableStatus } from '../../../src/core/api/envelope';
import { OPERATIONS, type OperationName } from '../../../src/core/api/operations';
import { ErrorCodes } from '../../../src/core/api/types';

const CHECK_KEY = 'Check that the secret key saved for this title is the current one from the title\'s management portal, and set it again if it changed.';
const RETRY_LATER = 'Wait a moment and try again.';
const NO_SUCH_PLAYER = {
  title: 'No player with this PlatformId exists for this title (it may already have been deleted).',
  hint: 'Check the PlatformId. A player whose master account deletion has completed no longer exists, so there is nothing left to do for it.',
};

describe('core/api errors: what each failure says', () => {
  it('an HTTP status without a service code: its own words, and each class up to its edges', () => {
    const expected: [number, string, string][] = [
      [400, 'The service rejected the request (400 Bad Request).', 'Check the input values.'],
      [401, 'The service did not accept the credentials (401 Unauthorized).', CHECK_KEY],
      [403, 'The credentials are not allowed for this title (403 Forbidden).', CHECK_KEY],
      [408, 'The service timed out waiting for the request (408).', RETRY_LATER],
      [409, 'The request conflicted with a concurrent change (409).', 'Try again.'],
      [413, 'The request was too large for the service (413).', 'Send fewer identifiers at once.'],
      [429, 'The service is throttling requests (429 Too Many Requests).', 'Wait for the time given, then try again.'],
      ...[500, 503, 599].map((s): [number, string, string] => [s, `The service had a problem (HTTP ${s}).`, RETRY_LATER]),
      ...[402, 418, 499].map((s): [number, string, string] => [s, `The service rejected the request (HTTP ${s}).`, 'Check the input and the service endpoint setting.']),
      ...[300, 302, 399].map((s): [number, string, string] => [s, `The service answered with a redirect (HTTP ${s}), which is not expected.`, 'Check the service endpoint setting; a proxy or wrong address may be in the way.']),
      ...[200, 204, 299].map((s): [number, string, string] => [s, `The service answered HTTP ${s} without a usable body.`, 'Check the service endpoint setting; a proxy may be in the way.']),
      ...[199, 600, 0].map((s): [number, string, string] => [s, `The service answered with an unexpected HTTP status ${s}.`, 'Check the service endpoint setting.']),
    ];
    for (const [status, title, hint] of expected) assert.deepEqual(describeHttpStatus(status), { title, hint }, String(status));
    assert.equal(describeHttpStatus(404).title, 'Nothing answers this operation at this address (404 Not Found).');
    assert.equal(describeHttpStatus(404, '/v2/AB12/Server/GetPlayedTitleList').title, 'Nothing answers POST /v2/AB12/Server/GetPlayedTitleList at this address (404 Not Found).');
  });

  it('AccountNotFound means "already gone" for the operations on a PlatformId, "title-specific" for a lookup, by name or code', () => {
    for (const op of ['DeleteMasterPlayerAccount', 'GetPlayedTitleList', 'ExportMasterPlayerData', 'DeleteMasterPlayerEventData']) {
      assert.deepEqual(describeServiceError(op, 'AccountNotFound'), NO_SUCH_PLAYER, op);
      assert.deepEqual(describeServiceError(op, ErrorCodes.AccountNotFound), NO_SUCH_PLAYER, op);
    }
    assert.equal(describeServiceError('GetUserAccountInfo', ErrorCodes.AccountNotFound).title, 'No account matches this identifier in this title.');
    for (const op of ['LoginWithLauncher', undefined, 'toString', '__proto__']) {
      assert.deepEqual(describeServiceError(op, 'AccountNotFound'), describeErrorCode('AccountNotFound'), String(op));
    }
    assert.deepEqual(describeServiceError('DeleteMasterPlayerAccount', 'InvalidParams'), describeErrorCode('InvalidParams'));
    assert.deepEqual(describeServiceError('DeleteMasterPlayerAccount', 'NoSuchName'), describeErrorCode('NoSuchName'));
    assert.deepEqual(describeServiceError('DeleteMasterPlayerAccount', 999_999), describeErrorCode(999_999));
  });

  it('each operation answers with its row\'s own texts: AccountNotFound never gives the login\'s advice outside the login', () => {
    const login = describeErrorCode('AccountNotFound');
    for (const op of Object.keys(OPERATIONS) as OperationName[]) {
      const texts = OPERATIONS[op].errors;
      for (const [name, text] of Object.entries(texts)) {
        assert.deepEqual(describeServiceError(op, name), text, `${op} ${name}`);
        if (Object.hasOwn(ErrorCodes, name)) assert.deepEqual(describeServiceError(op, ErrorCodes[name as keyof typeof ErrorCodes]), text, `${op} ${name} by code`);
      }
      if (op !== 'LoginWithLauncher') assert.notDeepEqual(describeServiceError(op, 'AccountNotFound'), login, op);
    }
    assert.match(describeServiceError('GetPlatformIDsFromStorefrontNames', 'AccountNotFound').title, /linked to these identifiers/);
    assert.equal(describeServiceError('GetEntityToken', 'EncryptionKeyBroken').title, 'The title\'s encryption key is broken, so the service cannot issue a title token.');
  });

  it('InvalidParams on a deletion whose service text says it is already queued means "wait", on that operation only', () => {
    const queued = { title: 'A master account deletion of this player is already queued.', hint: 'Nothing to do: the service e-mails the title\'s notification address when it completes. The receipt is under Deletion Jobs if it was requested from here.' };
    for (const text of ['Already queued for deletion', 'player is PENDING DELETION', 'was already marked for deletion']) {
      assert.deepEqual(describeServiceError('DeleteMasterPlayerAccount', 'InvalidParams', text), queued, text);
      assert.deepEqual(describeServiceError('DeleteMasterPlayerAccount', ErrorCodes.InvalidParams, text), queued, text);
    }
    assert.deepEqual(describeServiceError('GetPlayedTitleList', 'InvalidParams', 'already queued'), describeErrorCode('InvalidParams'));
    assert.deepEqual(describeServiceError('DeleteMasterPlayerAccount', 'InvalidParams', 'PlatformId is malformed'), describeErrorCode('InvalidParams'));
    assert.deepEqual(describeServiceError('DeleteMasterPlayerAccount', 'AccountDeleted', 'already queued'), describeErrorCode('AccountDeleted'));
  });

  it('statuses worth retrying: 408, 409, 429 and 500 to 599, nothing else', () => {
    const retried = [0, 199, 200, 404, 407, 408, 409, 410, 428, 429, 430, 499, 500, 503, 598, 599, 600, 601].filter(isRetryableStatus);
    assert.deepEqual(retried, [408, 409, 429, 500, 503, 598, 599]);
  });

  it('names of codes; an unknown name or code reads as a generic service error', () => {
    assert.equal(errorNameOf(1001), 'AccountNotFound');
    assert.equal(errorNameOf(1), undefined);
    assert.deepEqual(describeErrorCode(1), { title: 'The service reported an error.', hint: 'Read the service\'s message below; if it is unclear, check the log.' });
  });

  it('a PlatformError keeps every field given, defaults retryable and outcomeUnknown to false; withChanges copies all of them', () => {
    const all = {
      kind: 'service' as const, message: 'm', hint: 'h', operation: 'GetPlayedTitleList', httpStatus: 400, code: 400, error: 'InvalidParams',
      errorCode: 1000, errorMessage: 'em', errorDetails: { F: ['bad'] }, retryAfterSeconds: 3, retryable: true, outcomeUnknown: true, attempts: 2, elapsedMs: 1500,
    };
    const e = new PlatformError(all);
    const fields = (x: PlatformError): Record<string, unknown> => Object.fromEntries(Object.keys(all).map((k) => [k, x[k as keyof PlatformError]]));
    assert.deepEqual(fields(e), all);
    assert.equal(e.name, 'PlatformError');
    assert.ok(e instanceof Error);
    assert.deepEqual(fields(withChanges(e, {})), all);
    assert.deepEqual(fields(withChanges(e, { message: 'changed', retryable: false })), { ...all, message: 'changed', retryable: false });
    const bare = new PlatformError({ kind: 'network', message: 'x', hint: 'y' });
    assert.deepEqual([bare.retryable, bare.outcomeUnknown], [false, false]);
  });

  it('a cancellation is a cancelled PlatformError whose outcome is known, or any AbortError', () => {
    assert.equal(isCancellation(new PlatformError({ kind: 'cancelled', message: 'x', hint: 'y', outcomeUnknown: true })), false, 'the user must still be told');
    assert.equal(isCancellation({ name: 'AbortError' }), true);
    assert.equal(isCancellation({ name: 'TimeoutError' }), false);
    assert.equal(isCancellation('AbortError'), false);
    assert.equal(isCancellation(function AbortError() { /* a function named so is not an error */ }), false);
  });
});
