// Pace of deletion requests: a send rate that grows fast until the first throttled answer (slow
// start), a cap on requests in flight, and a pause until the service's Retry-After. The service's
// Retry-After is whole seconds, so each throttled burst can cost up to a second of sending: once
// the limit is found the rate settles just under the successes the service took in the last
// second, and probes above that only after a quiet spell, instead of creeping into the limit again.
import { sleep } from '../api/signals';

export interface PacerOptions {
  /** Requests per second at the start (default 20). */
  initialRate?: number;
  minRate?: number;
  maxRate?: number;
  /** Rate added per second of sending once the limit was found (default 20/s). */
  additivePerSecond?: number;
  /** Rate kept after a throttled answer when no success was seen in the last second (default 0.85). */
  decrease?: number;
  /** Share of the last second's successes kept as the rate after a throttled answer (default 0.95). */
  settle?: number;
  /** Time without a throttled answer after which the rate may probe 5% higher (default 10 s). */
  probeAfterMs?: number;
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
  /** Highest rate allowed until the next probe (Infinity before the limit is found). */
  private ceiling = Infinity;
  private lastThrottleAt = 0;
  /** Times of the successes of the last second (at most the rate's worth). */
  private readonly recent: number[] = [];
  private readonly minRate: number;
  private readonly maxRate: number;
  private readonly additive: number;
  private readonly decrease: number;
  private readonly settle: number;
  private readonly probeAfterMs: number;
  private readonly maxInFlight: number;
  private readonly now: () => number;

  constructor(o: PacerOptions = {}) {
    this.rate = o.initialRate ?? 20;
    this.minRate = o.minRate ?? 0.5;
    this.maxRate = o.maxRate ?? 1000;
    this.additive = o.additivePerSecond ?? 20;
    this.decrease = o.decrease ?? 0.85;
    this.settle = o.settle ?? 0.95;
    this.probeAfterMs = o.probeAfterMs ?? 10_000;
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
      // Stryker disable next-line EqualityOperator: only how long a pass waits; one that finds no slot waits again
      if (!(await sleep(at > now ? at - now : 2, signal ?? NEVER))) return false;
    }
  }

  /** The request ended, whatever its outcome. */
  release(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
  }

  onSuccess(): void {
    const now = this.now();
    this.recent.push(now);
    // Bounded: entries older than a second go, and at most maxRate successes fit in one.
    while (this.recent.length > 0 && (this.recent[0] <= now - 1000 || this.recent.length > this.maxRate)) this.recent.shift();
    if (!this.slowStart && now - this.lastThrottleAt >= this.probeAfterMs) {
      // A quiet spell: the limit may have risen, so probe a little above the settled rate.
      this.ceiling *= 1.05;
      this.lastThrottleAt = now;
    }
    const grown = this.slowStart ? this.rate * 1.1 : this.rate + this.additive / this.rate;
    this.rate = Math.min(this.maxRate, this.ceiling, grown);
    // Back up by about one per cap's worth of successes, to maxInFlight and never past it.
    this.inFlightCap = Math.min(this.maxInFlight, this.inFlightCap + 1 / this.inFlightCap);
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
    this.lastThrottleAt = now;
    // The successes of the last second are what the service took: settle just under them.
    const taken = this.recent.filter((t) => t > now - 1000).length;
    const settled = taken > 0 ? Math.min(this.rate, taken) * this.settle : this.rate * this.decrease;
    this.rate = Math.max(this.minRate, settled);
    this.ceiling = this.rate;
    if (concurrency) this.inFlightCap = Math.max(1, Math.floor(this.inFlightCap / 2));
  }
}
