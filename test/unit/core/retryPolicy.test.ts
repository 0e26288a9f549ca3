// The retry policy on its own: no HTTP, no clock.
import * as assert from 'node:assert/strict';
import { PlatformError, type PlatformErrorInit } from '../../../src/core/api/errors';
import { decide, RETRY_MAX_DELAY_MS, type RetryState } from '../../../src/core/api/retryPolicy';

const base: RetryState = {
  mutating: false, usesEntityToken: false, refreshedToken: false, retries: 0, maxRetries: 3, maxRetryAfterSeconds: 60, retryBaseDelayMs: 250,
};
const err = (o: Partial<PlatformErrorInit>): PlatformError => new PlatformError({ kind: 'service', message: 'm', hint: 'h', ...o });

describe('core: retry policy', () => {
  it('retries a retryable failure with full-jitter backoff, doubling per retry up to the cap', () => {
    const e = err({ retryable: true, httpStatus: 503 });
    assert.deepEqual(decide({ error: e, ambiguous: false }, base, 0.5), { kind: 'retry', delayMs: 125 });
    assert.deepEqual(decide({ error: e, ambiguous: false }, { ...base, retries: 2 }, 0.5), { kind: 'retry', delayMs: 500 });
    assert.deepEqual(decide({ error: e, ambiguous: false }, { ...base, retries: 2, maxRetries: 10, retryBaseDelayMs: 10_000 }, 0.999), { kind: 'retry', delayMs: 0.999 * RETRY_MAX_DELAY_MS });
    assert.equal(decide({ error: e, ambiguous: false }, { ...base, retries: 3 }, 0.5).kind, 'fail', 'no retries left');
  });

  it('waits exactly Retry-After, and gives up at once when it is longer than the limit', () => {
    const throttled = err({ kind: 'throttled', retryable: true, retryAfterSeconds: 2, errorCode: 1199 });
    assert.deepEqual(decide({ error: throttled, ambiguous: false }, base, 0.1), { kind: 'retry', delayMs: 2000 });
    assert.equal(decide({ error: throttled, ambiguous: false }, { ...base, maxRetryAfterSeconds: 1 }, 0.1).kind, 'fail');
  });

  it('a Retry-After exactly at the limit is waited for; one second more gives up with the service\'s error', () => {
    const after = (s: number): PlatformError => err({ kind: 'throttled', retryable: true, retryAfterSeconds: s, errorCode: 1199 });
    assert.deepEqual(decide({ error: after(60), ambiguous: false }, base, 0.1), { kind: 'retry', delayMs: 60_000 });
    const over = after(61);
    assert.deepEqual(decide({ error: over, ambiguous: false }, base, 0.1), { kind: 'fail', error: over });
    // Retry-After 0 is "now", not "no Retry-After": no backoff.
    assert.deepEqual(decide({ error: after(0), ambiguous: false }, { ...base, maxRetryAfterSeconds: 0 }, 0.9), { kind: 'retry', delayMs: 0 });
  });

  it('never re-sends a mutation after an ambiguous failure: the outcome is unknown', () => {
    const timeout = err({ kind: 'timeout', retryable: true });
    const d = decide({ error: timeout, ambiguous: true }, { ...base, mutating: true }, 0.5);
    assert.equal(d.kind, 'fail');
    assert.ok(d.kind === 'fail' && d.error.outcomeUnknown && !d.error.retryable);
    assert.match(d.kind === 'fail' ? d.error.message : '', /may or may not have happened/);
    // A definite rejection (a 429 is one) of a mutation may be retried.
    assert.equal(decide({ error: err({ retryable: true, retryAfterSeconds: 1 }), ambiguous: false }, { ...base, mutating: true }, 0.5).kind, 'retry');
  });

  it('a cancelled mutation that was sent is outcome-unknown; a cancelled read is a plain cancel', () => {
    const cancelled = err({ kind: 'cancelled' });
    const sent = decide({ error: cancelled, ambiguous: true }, { ...base, mutating: true }, 0);
    assert.ok(sent.kind === 'fail' && sent.error.outcomeUnknown);
    const read = decide({ error: cancelled, ambiguous: true }, base, 0);
    assert.ok(read.kind === 'fail' && !read.error.outcomeUnknown);
  });

  it('cancelling ends the call whatever else holds: no retry, no token refresh; a sent deletion says it may have happened', () => {
    const cancelled = err({ kind: 'cancelled', retryable: true, errorCode: 1335 });
    const read = decide({ error: cancelled, ambiguous: false }, { ...base, usesEntityToken: true }, 0);
    assert.deepEqual(read, { kind: 'fail', error: cancelled });
    const sent = decide({ error: cancelled, ambiguous: true }, { ...base, mutating: true, usesEntityToken: true }, 0);
    assert.ok(sent.kind === 'fail');
    assert.equal(sent.error.message, 'Cancelled after the deletion request was sent: the deletion may or may not have happened.');
    assert.match(sent.error.hint, /GetPlayedTitleList answers AccountNotFound/);
  });

  it('refreshes an expired, invalid or revoked entity token once, even for a delete; never twice, never for a secret key', () => {
    for (const code of [1335, 1336, 1337]) {
      const e = err({ errorCode: code });
      assert.deepEqual(decide({ error: e, ambiguous: false }, { ...base, usesEntityToken: true, mutating: true }, 0), { kind: 'refreshToken' });
      assert.equal(decide({ error: e, ambiguous: false }, { ...base, usesEntityToken: true, refreshedToken: true }, 0).kind, 'fail');
      assert.equal(decide({ error: e, ambiguous: false }, base, 0).kind, 'fail');
    }
  });
});
