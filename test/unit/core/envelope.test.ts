import * as assert from 'node:assert/strict';
import { isRetryableError, parseEnvelope, parseRetryAfter } from '../../../src/core/api/envelope';
import { checkResult } from '../../../src/core/api/exchange';
import type { OperationName } from '../../../src/core/api/operations';
import { describeErrorCode, describeHttpStatus, isCancellation, PlatformError } from '../../../src/core/api/errors';
import { ErrorCodes } from '../../../src/core/api/types';

function parse<T>(body: unknown, httpStatus = 200, validate: (d: unknown) => T = (d) => d as T, retryAfterHeader?: string): T {
  return parseEnvelope('TestOp', { httpStatus, body: typeof body === 'string' ? body : JSON.stringify(body), retryAfterHeader }, validate, Date.parse('2030-01-01T00:00:00Z'));
}

/** The row's own result check, as the client applies it. */
const rowOf = (name: OperationName) => (d: unknown): unknown => checkResult(name, d);

function parseError(body: unknown, httpStatus = 200, validate?: (d: unknown) => unknown, retryAfterHeader?: string): PlatformError {
  try {
    parse(body, httpStatus, validate, retryAfterHeader);
  } catch (e) {
    assert.ok(e instanceof PlatformError, `not a PlatformError: ${String(e)}`);
    return e;
  }
  assert.fail('expected a PlatformError');
}

describe('core/errors', () => {
  it('describes every error code by name and number, each with its own title and a hint', () => {
    const titles = new Set<string>();
    for (const [name, code] of Object.entries(ErrorCodes)) {
      const byName = describeErrorCode(name);
      assert.deepEqual(describeErrorCode(code), byName, name);
      assert.ok(byName.title.length > 10 && byName.hint.length > 10, name);
      assert.notEqual(byName.title, 'The service reported an error.', name);
      titles.add(byName.title);
    }
    assert.equal(titles.size, Object.keys(ErrorCodes).length, 'titles are distinct');
    assert.equal(describeErrorCode(424242).title, 'The service reported an error.');
    assert.equal(describeErrorCode('toString').title, 'The service reported an error.');
  });

  it('describes each HTTP status class', () => {
    for (const s of [200, 302, 400, 401, 403, 404, 408, 409, 413, 418, 429, 500, 502, 503, 599, 600, 99]) {
      const d = describeHttpStatus(s);
      assert.ok(d.title.length > 10 && d.hint.length > 5, String(s));
    }
    assert.match(describeHttpStatus(401).hint, /secret key/);
    // A 404 is most often the wrong address: the endpoint setting, or an emulator that is gone.
    assert.match(describeHttpStatus(404).hint, /serviceEndpoint setting.*emulator/);
  });

  it('isCancellation recognises cancelled PlatformErrors and AbortErrors only', () => {
    assert.ok(isCancellation(new PlatformError({ kind: 'cancelled', message: 'x', hint: 'y' })));
    assert.ok(isCancellation(new DOMException('a', 'AbortError')));
    assert.equal(isCancellation(new PlatformError({ kind: 'timeout', message: 'x', hint: 'y' })), false);
    assert.equal(isCancellation(new Error('x')), false);
    assert.equal(isCancellation(null), false);
  });
});

describe('core/envelope', () => {
  it('returns validated data of a success envelope', () => {
    const r = parse({ code: 200, status: 'OK', data: { JobReceiptId: 'r1', TitleIds: ['F71AC'] } }, 200, rowOf('DeleteMasterPlayerAccount'));
    assert.deepEqual(r, { JobReceiptId: 'r1', TitleIds: ['F71AC'] });
  });

  it('maps an error wrapper to a service PlatformError with every member', () => {
    const e = parseError({ code: 400, status: 'BadRequest', error: 'InvalidParams', errorCode: 1000, errorMessage: 'Invalid input parameters', errorDetails: { StorefrontNames: ['too many'] } }, 400);
    assert.equal(e.kind, 'service');
    assert.equal(e.httpStatus, 400);
    assert.equal(e.code, 400);
    assert.equal(e.error, 'InvalidParams');
    assert.equal(e.errorCode, 1000);
    assert.equal(e.errorMessage, 'Invalid input parameters');
    assert.deepEqual(e.errorDetails, { StorefrontNames: ['too many'] });
    assert.equal(e.retryable, false);
    assert.equal(e.operation, 'TestOp');
    assert.match(e.message, /invalid parameters.*InvalidParams 1000.*StorefrontNames: too many/);
    assert.equal(e.hint, describeErrorCode('InvalidParams').hint);
  });

  it('the service\'s message, quoted, keeps its own full stop and gets one when it has none', () => {
    const ended = parseError({ code: 401, status: 'Unauthorized', error: 'SecretKeyNotFound', errorCode: 1293, errorMessage: 'Copy the key again.' }, 401);
    assert.match(ended.message, /The service said: "Copy the key again\."$/);
    assert.ok(!ended.message.includes('.".'), ended.message);
    const bare = parseError({ code: 401, status: 'Unauthorized', error: 'SecretKeyNotFound', errorCode: 1293, errorMessage: 'Copy the key again' }, 401);
    assert.match(bare.message, /The service said: "Copy the key again"\.$/);
  });

  it('a detail that ends its own sentence gets no second full stop', () => {
    const e = parseError({ code: 400, status: 'BadRequest', error: 'InvalidParams', errorCode: 1000, errorDetails: { PlatformId: ['Already queued; wait for its confirmation e-mail.'] } }, 400);
    assert.match(e.message, /confirmation e-mail\.$/);
    assert.doesNotMatch(e.message, /\.\./);
  });

  it('classifies by body first under X-ReportErrorAsSuccess (HTTP 200, real status in code)', () => {
    const e = parseError({ code: 429, status: 'TooManyRequests', error: 'APIClientRequestRateLimitExceeded', errorCode: 1199, retryAfterSeconds: 3 }, 200);
    assert.equal(e.kind, 'throttled');
    assert.equal(e.httpStatus, 200);
    assert.equal(e.code, 429);
    assert.equal(e.retryAfterSeconds, 3);
    assert.equal(e.retryable, true);
    const e2 = parseError({ code: 503, status: 'ServiceUnavailable', error: 'ServiceUnavailable', errorCode: 1123 }, 200);
    assert.equal(e2.retryable, true);
  });

  it('takes Retry-After from the header when the body has none (seconds or date)', () => {
    assert.equal(parseError({ code: 429, errorCode: 1199 }, 429, undefined, '7').retryAfterSeconds, 7);
    // Whole seconds: a fraction is rounded up, never down to no wait at all.
    assert.equal(parseError({ code: 429, errorCode: 1199, retryAfterSeconds: 0.2 }, 429).retryAfterSeconds, 1);
    assert.equal(parseError({ code: 429, errorCode: 1199, retryAfterSeconds: 2.5 }, 429).retryAfterSeconds, 3);
    assert.equal(parseError({ code: 429, errorCode: 1199 }, 429, undefined, 'Tue, 01 Jan 2030 00:00:05 GMT').retryAfterSeconds, 5);
    // Boundaries: 0 in the body is a Retry-After of 0 (the header is not consulted); a date
    // already past is 0, never negative; a date within the current second rounds up to 1.
    assert.equal(parseError({ code: 429, errorCode: 1199, retryAfterSeconds: 0 }, 429, undefined, '9').retryAfterSeconds, 0);
    assert.equal(parseError({ code: 429, errorCode: 1199, retryAfterSeconds: -1 }, 429, undefined, '9').retryAfterSeconds, 9);
    assert.equal(parseRetryAfter('Tue, 01 Jan 2030 00:00:00 GMT', Date.parse('2030-01-01T00:00:10Z')), 0);
    assert.equal(parseRetryAfter('Tue, 01 Jan 2030 00:00:01 GMT', Date.parse('2030-01-01T00:00:00.500Z')), 1);
    assert.equal(parseRetryAfter(' 12 '), 12);
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter(undefined), undefined);
  });

  it('follows the retry table: statuses 408/409/429/5xx and the retryable codes, never the listed codes', () => {
    for (const s of [408, 409, 429, 500, 502, 503, 504]) assert.ok(isRetryableError(s, undefined), String(s));
    for (const s of [400, 401, 403, 404]) assert.equal(isRetryableError(s, undefined), false, String(s));
    for (const c of [1199, 1342, 1133, 1287, 1127, 1123]) assert.ok(isRetryableError(400, c), String(c));
    for (const c of [1000, 1001, 1002, 1004, 1071, 1074, 1089, 1191, 1322, 1373]) assert.equal(isRetryableError(503, c), false, String(c));
  });

  it('maps a bare HTTP error with an unusable body to an http PlatformError', () => {
    const e = parseError({ message: 'nope' }, 403);
    assert.equal(e.kind, 'http');
    assert.equal(e.httpStatus, 403);
    assert.equal(e.errorCode, undefined);
    assert.match(e.hint, /secret key/);
  });

  it('turns non-JSON, truncated and wrongly typed bodies into malformed errors, never TypeErrors', () => {
    const html = parseError('<html><body>502 Bad Gateway</body></html>', 502);
    assert.equal(html.kind, 'malformed');
    assert.match(html.message, /HTML page/);
    assert.equal(html.retryable, true);
    assert.equal(parseError('{"code":200,"status":"OK","da', 200).kind, 'malformed');
    assert.equal(parseError('', 200).kind, 'malformed');
    assert.equal(parseError('<html>not found</html>', 404).retryable, false);
    for (const body of ['null', '[]', '42', '"text"', '{}', '{"status":"OK"}']) {
      assert.equal(parseError(body, 200).kind, 'malformed', body);
    }
    const wrong: [unknown, (d: unknown) => unknown, RegExp][] = [
      [{ code: 200, data: { JobReceiptId: 5 } }, rowOf('DeleteMasterPlayerAccount'), /data\.JobReceiptId should be a string/],
      [{ code: 200, data: { TitleIds: 'F71AC' } }, rowOf('GetPlayedTitleList'), /data\.TitleIds should be an array/],
      [{ code: 200, data: { Data: {} } }, rowOf('GetPlatformIDsFromStorefrontNames'), /data\.Data should be an array/],
      [{ code: 200, data: { Data: [{ StorefrontName: 'a', PlatformId: 7 }] } }, rowOf('GetPlatformIDsFromStorefrontNames'), /PlatformId should be a string/],
      [{ code: 200, data: { Created: 'yes' } }, rowOf('GetHandheldStore'), /data\.Created should be true or false/],
      [{ code: 200, data: { Created: true, Environments: [1] } }, rowOf('GetHandheldStore'), /Environments\[0\] should be an object/],
      [{ code: 200, data: { NewlyCreated: false, InfoResultPayload: { UserVirtualCurrency: { GO: '5' }, UserDataVersion: 1, UserReadOnlyDataVersion: 1 } } }, rowOf('LoginWithLauncher'), /UserVirtualCurrency\.GO should be a whole number/],
      [{ code: 200, data: { NewlyCreated: false, InfoResultPayload: {} } }, rowOf('LoginWithLauncher'), /UserDataVersion is missing/],
      [{ code: 200, data: { NewlyCreated: false, TreatmentAssignment: { Variables: [{ Value: 'a' }] } } }, rowOf('LoginWithLauncher'), /Variables\[0\]\.Name is missing/],
      [{ code: 200, data: {} }, rowOf('GetHandheldStore'), /data\.Created is missing/],
      [{ code: 200 }, rowOf('LoginWithLauncher'), /data is missing/],
      [{ code: 200, data: 'done' }, rowOf('DeleteMobileStore'), /data should be an object but is a string/],
    ];
    for (const [body, validate, re] of wrong) {
      const e = parseError(body, 200, validate);
      assert.equal(e.kind, 'malformed', JSON.stringify(body));
      assert.match(e.message, re);
    }
  });

  it('drops null optional members', () => {
    const login = parse({ code: 200, data: { PlatformId: null, NewlyCreated: false, SessionTicket: 's' } }, 200, rowOf('LoginWithLauncher'));
    assert.deepEqual(login, { NewlyCreated: false, SessionTicket: 's' });
    const hs = parse({ code: 200, data: { Created: true, Environments: [{ ClientID: 'c', ClientSecret: null, ID: null }] } }, 200, rowOf('GetHandheldStore'));
    assert.deepEqual(hs, { Created: true, Environments: [{ ClientID: 'c' }] });
  });

  it('a "__proto__" member in service data stays a plain member and never supplies a checked value', () => {
    const r = parse('{"code":200,"data":{"__proto__":{"TitleIds":5}}}', 200, rowOf('GetPlayedTitleList')) as { TitleIds?: unknown };
    assert.equal(r.TitleIds, undefined);
    assert.equal(Object.getPrototypeOf(r), Object.prototype);
    const e = parseError('{"code":400,"errorCode":1000,"errorDetails":{"__proto__":["bad"]}}', 400);
    assert.equal(Object.getPrototypeOf(e.errorDetails), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(e.errorDetails, '__proto__')?.value, ['bad']);
  });

  it('keeps null lookup entries and null PlatformIds', () => {
    const data = { Data: [null, { StorefrontName: 'a', PlatformId: null }, { StorefrontName: 'b', PlatformId: '9437A5ADDAE3012D' }] };
    // A null PlatformId reads as absent (unlinked); the null entry stays, in its place.
    assert.deepEqual(parse({ code: 200, data }, 200, rowOf('GetPlatformIDsFromStorefrontNames')), { Data: [null, { StorefrontName: 'a' }, data.Data[2]] });
  });
});
