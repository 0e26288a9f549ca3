// PlatformClient's options: their defaults and bounds, checked once in the constructor.
import type { RequestLogEntry } from './exchange';
import type { RetryNotice } from './retryReport';
import { optionError, type TransportOptions } from './transport';

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 3;
/** Lookup requests in flight at once per bulk call. */
export const BULK_CONCURRENCY = 8;
export const RETRY_BASE_DELAY_MS = 250;
/** A throttled answer asking for a longer wait than this fails at once instead of blocking the user. */
export const MAX_RETRY_AFTER_SECONDS = 60;

export interface CallOptions {
  signal?: AbortSignal;
  /** Only these operations may be sent for this call (an agent tool's declared ones); any other fails before its request. */
  only?: { operations: ReadonlySet<string>; caller: string };
}

export interface BulkOptions extends CallOptions {
  concurrency?: number;
  /** Called with (identifiers resolved, distinct identifiers): once with 0 at the start, then after each request. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Called after each request with its identifiers and their PlatformId (null: unlinked). What was
   * reported stays true when the call is later cancelled or fails, so a caller can keep it.
   */
  onResolved?: (resolved: ReadonlyMap<string, string | null>) => void;
}

export interface PlatformClientOptions extends TransportOptions {
  titleId: string;
  /** Service endpoint template with {titleId}. */
  endpoint: string;
  getSecretKey: () => Promise<string | undefined>;
  timeoutMs?: number;
  maxRetries?: number;
  concurrency?: number;
  reportErrorAsSuccess?: boolean;
  /** One call per HTTP attempt; never carries secrets. */
  onRequest?: (e: RequestLogEntry) => void;
  /** Before each retry: which attempt comes next, of how many, and why (retryReport.ts). */
  onRetry?: (n: RetryNotice) => void;
  /** First backoff step (full jitter doubles it per retry); tests make it small. */
  retryBaseDelayMs?: number;
  /** Longest Retry-After the client waits for before giving up (default MAX_RETRY_AFTER_SECONDS). */
  maxRetryAfterSeconds?: number;
  /** Clock for the token cache; tests move it forward. */
  now?: () => number;
}


export function intOption(v: number | undefined, field: string, min: number, max: number, dflt: number): number {
  if (v === undefined) {
    return dflt;
  }
  if (!Number.isInteger(v) || v < min || v > max) {
    throw optionError(field, `must be a whole number from ${min} to ${max}`);
  }
  return v;
}
