// What a caller learns about retries, kept out of the retry loop itself: a notice before each
// retry ("retrying (attempt 2 of 4)…") and, on the final failure, how long the call waited and
// how many attempts it made.
import { seconds } from '../time';
import { PlatformError, withChanges } from './errors';

export interface RetryNotice {
  operation: string;
  /** The attempt about to start (2 for the first retry). */
  attempt: number;
  /** Attempts the client makes at most. */
  of: number;
  /** Wait before that attempt. */
  delayMs: number;
  /** Why the last attempt failed, already a user-facing sentence. */
  reason: string;
  /** Settles when the call ends (answered, failed or cancelled): the same promise for each retry of one call. */
  settled: Promise<void>;
}

/** The final error of a call that made more than one attempt says so: waited, attempts. */
export function afterAttempts(e: PlatformError, attempts: number, elapsedMs: number): PlatformError {
  if (attempts <= 1 || e.kind === 'cancelled') return e;
  return withChanges(e, { message: `${e.message} Waited ${seconds(elapsedMs)} in all over ${attempts} attempts.`, attempts, elapsedMs });
}

/** The end of one call, as a promise made at its first retry (RetryNotice.settled). */
export class CallEnd {
  private end: (() => void) | undefined;
  private promise: Promise<void> | undefined;

  get settled(): Promise<void> {
    return (this.promise ??= new Promise<void>((resolve) => { this.end = resolve; }));
  }

  done(): void {
    this.end?.();
  }
}
