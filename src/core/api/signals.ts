// Cancellation helpers shared by the client's calls, retries and bulk lookups.
import { setMaxListeners } from 'node:events';

/** One signal that aborts when any of `signals` does; dispose() detaches it. */
export function linkSignals(signals: (AbortSignal | undefined)[]): { signal: AbortSignal; dispose: () => void } {
  const ac = new AbortController();
  // Every request in flight of a bulk call listens on it: more than Node's default warning limit of 10.
  setMaxListeners(0, ac.signal);
  const abort = (): void => ac.abort();
  const used = signals.filter((s): s is AbortSignal => s !== undefined);
  for (const s of used) {
    if (s.aborted) {
      ac.abort();
    } else {
      s.addEventListener('abort', abort, { once: true });
    }
  }
  return { signal: ac.signal, dispose: () => used.forEach((s) => s.removeEventListener('abort', abort)) };
}

/** Resolves true after `ms`, false as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
