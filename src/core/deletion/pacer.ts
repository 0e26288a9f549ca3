// Pace of deletion requests: a send rate with additive increase and multiplicative decrease
// (AIMD), a cap on requests in flight, and a pause until the service's Retry-After.
// Before the first throttled answer the rate grows fast (slow start) to find the limit.
import { sleep } from '../api/signals';

export interface PacerOptions {
  /** Requests per second at the start (default 20). */
  initialRate?: number;
  minRate?: number;
  maxRate?: number;
  /** Rate added per second of sending once the limit was found (default 20/s). */
  additivePerSecond?: number;
  /** Rate kept after a throttled answer (default 0.85). */
  decrease?: number;
  /** Most requests in flight (default 4); halved on a concurrency refusal (1342). */
  maxInFlight?: number;
  now?: () => number;
}

/** A signal that never aborts, for waits the caller cannot cancel. */
const NEVER = new AbortController().signal;

export class Pacer {
  rate: number;
  inFlightCap: number;
  private inFlight = 0;
  private nextAt = 0;
  private pausedUntil = 0;
  private slowStart = true;
  private readonly minRate: number;
  private readonly maxRate: number;
  private readonly additive: number;
  private readonly decrease: number;
  private readonly maxInFlight: number;
  private readonly now: () => number;

  constructor(o: PacerOptions = {}) {
    this.rate = o.initialRate ?? 20;
    this.minRate = o.minRate ?? 0.5;
    this.maxRate = o.maxRate ?? 1000;
    this.additive = o.additivePerSecond ?? 20;
    this.decrease = o.decrease ?? 0.85;
    this.maxInFlight = o.maxInFlight ?? 4;
    this.inFlightCap = this.maxInFlight;
    this.now = o.now ?? (() => performance.now());
  }

  /** Milliseconds left of a throttle pause (0 when sending). */
  waitingMs(): number {
    return Math.max(0, this.pausedUntil - this.now());
  }

  /** Waits for a send slot; false when `signal` aborted first (nothing taken). */
  async acquire(signal?: AbortSignal): Promise<boolean> {
    // Bounded: each pass either returns or sleeps until the slot, the pause or a release.
    for (;;) {
      if (signal?.aborted === true) return false;
      const now = this.now();
      const at = Math.max(this.nextAt, this.pausedUntil);
      if (this.inFlight < this.inFlightCap && at <= now) {
        this.inFlight++;
        this.nextAt = Math.max(now, this.nextAt) + 1000 / this.rate;
        return true;
      }
      if (!(await sleep(at > now ? at - now : 2, signal ?? NEVER))) return false;
    }
  }

  /** The request ended, whatever its outcome. */
  release(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
  }

  onSuccess(): void {
    this.rate = Math.min(this.maxRate, this.slowStart ? this.rate * 1.1 : this.rate + this.additive / this.rate);
    if (this.inFlightCap < this.maxInFlight) this.inFlightCap += 1 / this.inFlightCap;
  }

  /**
   * A throttled answer: no send before Retry-After, and a slower rate. Several answers of one
   * burst count once, so requests already in flight do not collapse the rate.
   */
  onThrottle(retryAfterSeconds: number | undefined, concurrency = false): void {
    const now = this.now();
    const burst = this.pausedUntil > now;
    const waitMs = retryAfterSeconds !== undefined ? retryAfterSeconds * 1000 : 1000 / this.rate;
    this.pausedUntil = Math.max(this.pausedUntil, now + waitMs);
    if (burst) return;
    this.slowStart = false;
    this.rate = Math.max(this.minRate, this.rate * this.decrease);
    if (concurrency) this.inFlightCap = Math.max(1, Math.floor(this.inFlightCap / 2));
  }
}
