// What to do after a failed attempt: a pure decision (no HTTP, no clock), so every rule of
// docs/service-behaviour.md on retries and deletions is testable on its own.
import { PlatformError, withChanges } from './errors';
import { ErrorCodes } from './types';

export const RETRY_MAX_DELAY_MS = 8_000;

export interface FailedAttempt {
  error: PlatformError;
  /** The service may have acted on the request (time-out, reset after sending, garbled 2xx, 5xx). */
  ambiguous: boolean;
}

export interface RetryState {
  /** The operation changes state (the table's `mutating`): never re-sent after an ambiguous failure. */
  mutating: boolean;
  /** The operation sends a title entity token (refreshed once when the service refuses it). */
  usesEntityToken: boolean;
  refreshedToken: boolean;
  /** Retries made so far. */
  retries: number;
  maxRetries: number;
  maxRetryAfterSeconds: number;
  retryBaseDelayMs: number;
}

export type Decision =
  | { kind: 'fail'; error: PlatformError }
  | { kind: 'refreshToken' }
  | { kind: 'retry'; delayMs: number };

const REFRESH_TOKEN_CODES: ReadonlySet<number> = new Set([ErrorCodes.EntityTokenExpired, ErrorCodes.EntityTokenInvalid, ErrorCodes.EntityTokenRevoked]);

const OUTCOME_UNKNOWN_HINT = 'Check whether it was deleted before sending it again (GetPlayedTitleList answers AccountNotFound once a master account deletion has completed).';

/** The next step after `f`; `random` in [0, 1) spreads backoff (full jitter). */
export function decide(f: FailedAttempt, s: RetryState, random: number): Decision {
  const e = f.error;
  if (e.kind === 'cancelled') {
    // Cancelling stops the wait, not a request the service may already have acted on.
    return {
      kind: 'fail',
      error: s.mutating && f.ambiguous
        ? withChanges(e, {
          outcomeUnknown: true,
          message: 'Cancelled after the deletion request was sent: the deletion may or may not have happened.',
          hint: OUTCOME_UNKNOWN_HINT,
        })
        : e,
    };
  }
  // An expired, invalid or revoked token is a definite rejection, so even a delete may be sent
  // again once (a token without TokenExpiration is kept until the service says one of these).
  if (s.usesEntityToken && !s.refreshedToken && REFRESH_TOKEN_CODES.has(e.errorCode ?? 0)) {
    return { kind: 'refreshToken' };
  }
  if (s.mutating && f.ambiguous) {
    return {
      kind: 'fail',
      error: withChanges(e, {
        outcomeUnknown: true,
        retryable: false,
        message: `${e.message} The deletion may or may not have happened, so it was not sent again.`,
        hint: OUTCOME_UNKNOWN_HINT,
      }),
    };
  }
  if (!e.retryable || s.retries >= s.maxRetries) {
    return { kind: 'fail', error: e };
  }
  if (e.retryAfterSeconds !== undefined) {
    return e.retryAfterSeconds > s.maxRetryAfterSeconds ? { kind: 'fail', error: e } : { kind: 'retry', delayMs: e.retryAfterSeconds * 1000 };
  }
  // Exponential backoff with full jitter.
  return { kind: 'retry', delayMs: random * Math.min(RETRY_MAX_DELAY_MS, s.retryBaseDelayMs * 2 ** s.retries) };
}
