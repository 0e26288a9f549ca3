// Throttling like the service's: a fixed window per title and per operation. Past N requests
// in a window of S seconds: 429 with Retry-After, retryAfterSeconds and 1199. Set by
// --rate-limit N/SECONDS, or through the faults control ({"rateLimit": "N/SECONDS" | null}).
import { ApiError, invalidParams } from './http';

export interface RateLimit {
  limit: number;
  windowMs: number;
}

const MAX_LIMIT = 1_000_000;
const MAX_WINDOW_SECONDS = 3600;

/** Parses "N/SECONDS" (e.g. 100/1); the error names the field and the fix. */
export function parseRateLimit(text: string, field = '--rate-limit'): RateLimit {
  const m = /^(\d{1,7})\/(\d{1,4}(?:\.\d{1,3})?)$/.exec(text.trim());
  const limit = m ? Number(m[1]) : NaN;
  const seconds = m ? Number(m[2]) : NaN;
  if (!m || limit < 1 || limit > MAX_LIMIT || seconds <= 0 || seconds > MAX_WINDOW_SECONDS) {
    throw new Error(`${field} must be N/SECONDS with N from 1 to ${MAX_LIMIT} and SECONDS above 0 up to ${MAX_WINDOW_SECONDS} (e.g. 100/1), not "${text}".`);
  }
  return { limit, windowMs: seconds * 1000 };
}

export class RateLimiter {
  /** From the command line; the faults control may replace it until reset. */
  private base: RateLimit | undefined;
  private current: RateLimit | undefined;
  private readonly windows = new Map<string, { start: number; count: number }>();
  /** Throttled answers since the last reset (for tests and the bench). */
  throttled = 0;

  constructor(limit?: RateLimit, private readonly now: () => number = () => performance.now()) {
    this.base = limit;
    this.current = limit;
  }

  get config(): RateLimit | undefined {
    return this.current;
  }

  /** The faults control's `rateLimit`: "N/SECONDS" sets it, null restores the command line's. */
  configure(value: unknown): void {
    if (value === null) this.current = this.base;
    else if (typeof value === 'string') {
      try {
        this.current = parseRateLimit(value, 'rateLimit');
      } catch (e) {
        throw invalidParams({ rateLimit: [(e as Error).message] });
      }
    } else throw invalidParams({ rateLimit: ['rateLimit must be "N/SECONDS" (e.g. "100/1") or null.'] });
    this.windows.clear();
  }

  reset(): void {
    this.current = this.base;
    this.windows.clear();
    this.throttled = 0;
  }

  /** Counts one request; throws the throttled answer when it is over the limit. */
  take(titleKey: string, operation: string): void {
    const rl = this.current;
    if (rl === undefined) return;
    const now = this.now();
    const key = `${titleKey}\n${operation}`;
    let w = this.windows.get(key);
    if (w === undefined || now - w.start >= rl.windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    if (++w.count <= rl.limit) return;
    this.throttled++;
    // Whole seconds, as the service sends them (the SDKs type retryAfterSeconds as an unsigned integer).
    const after = Math.max(1, Math.ceil((w.start + rl.windowMs - now) / 1000));
    throw new ApiError(429, 'APIClientRequestRateLimitExceeded', `The title has exceeded its API request rate for ${operation}; retry after the delay.`, undefined, after);
  }
}
