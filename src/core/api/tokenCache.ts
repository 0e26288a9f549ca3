// The title entity token cache: one token per client, reused until about an hour before it expires.
import { parseServiceTime } from '../time';
import type { EntityTokenResult } from './types';

/** Tokens live 24 h; we refresh about an hour before expiry (docs/service-behaviour.md). */
export const TOKEN_REFRESH_MARGIN_MS = 60 * 60 * 1000;

export class TitleTokenCache {
  private cached: EntityTokenResult | undefined;
  private refreshAt = 0;
  private inflight: Promise<EntityTokenResult> | undefined;

  /**
   * @param fetchToken gets a fresh token; it must not depend on any one caller's signal, because
   *   concurrent callers share the fetch and one of them giving up must not fail the others.
   */
  constructor(
    private readonly fetchToken: () => Promise<EntityTokenResult>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached token if still fresh, else the result of one shared fetch. */
  get(signal?: AbortSignal): Promise<EntityTokenResult> {
    if (this.cached !== undefined && this.now() < this.refreshAt) {
      return Promise.resolve(this.cached);
    }
    if (this.inflight === undefined) {
      const p = this.fetchToken().then((t) => {
        this.store(t);
        return t;
      });
      this.inflight = p;
      const clear = (): void => {
        // Stryker disable next-line ConditionalExpression: always true; a new fetch starts only once this one cleared
        if (this.inflight === p) {
          this.inflight = undefined;
        }
      };
      p.then(clear, clear);
    }
    return raceAbort(this.inflight, signal);
  }

  /** Forget `token` (or any token) so the next get() fetches a new one. */
  invalidate(token?: string): void {
    if (token === undefined || this.cached?.EntityToken === token) {
      this.cached = undefined;
      this.refreshAt = 0;
    }
  }

  private store(t: EntityTokenResult): void {
    this.cached = t;
    if (t.TokenExpiration === undefined) {
      // A token that does not expire is used until the service refuses it (then refreshed once).
      this.refreshAt = Infinity;
      return;
    }
    const fetchedAt = this.now();
    const expiresAt = parseServiceTime(t.TokenExpiration);
    // Short-lived tokens (e.g. from a test service) are kept for half their life instead.
    const margin = Math.min(TOKEN_REFRESH_MARGIN_MS, Math.max(0, (expiresAt - fetchedAt) / 2));
    this.refreshAt = expiresAt - margin;
  }
}

/** `p`, or a rejection with an AbortError as soon as `signal` aborts (p itself keeps running). */
function raceAbort<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) {
    return p;
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new DOMException('The operation was aborted', 'AbortError'));
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => { signal.removeEventListener('abort', onAbort); resolve(v); },
      (e: unknown) => { signal.removeEventListener('abort', onAbort); reject(e); },
    );
  });
}
