// Bulk lookups: distinct identifiers in requests of at most 25, a bounded number in flight, each
// identifier's PlatformId matched back from the answers; a failure stops the rest.
import { MAX_IDS_PER_LOOKUP } from './operations';
import type { LookupEntry } from './results';
import { linkSignals } from './signals';

export interface BulkRun {
  concurrency: number;
  /** Called with (identifiers resolved, distinct identifiers): once with 0 at the start, then after each request. */
  onProgress?: (done: number, total: number) => void;
  send: (chunk: string[], signal: AbortSignal) => Promise<(LookupEntry | null)[]>;
}

/** PlatformId (or null) per distinct identifier; throws the first failure, or `cancelled()` once `signal` aborts. */
export async function runBulk(ids: readonly string[], signal: AbortSignal, run: BulkRun, cancelled: () => Error): Promise<Map<string, string | null>> {
  const unique = [...new Set(ids)];
  const chunks: string[][] = [];
  for (let i = 0; i < unique.length; i += MAX_IDS_PER_LOOKUP) {
    chunks.push(unique.slice(i, i + MAX_IDS_PER_LOOKUP));
  }
  const found = new Map<string, string | null>();
  const progress = (done: number): void => run.onProgress?.(done, unique.length);
  progress(0);
  // A failed request stops the others: their answers would be thrown away.
  const stop = new AbortController();
  const link = linkSignals([signal, stop.signal]);
  let next = 0;
  let done = 0;
  let failure: unknown;
  const worker = async (): Promise<void> => {
    while (failure === undefined && !link.signal.aborted && next < chunks.length) {
      const chunk = chunks[next++];
      try {
        mergeLookup(chunk, await run.send(chunk, link.signal), found);
        done += chunk.length;
        progress(done);
      } catch (e) {
        failure ??= e;
        stop.abort();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(run.concurrency, chunks.length) }, worker));
  } finally {
    link.dispose();
  }
  if (signal.aborted) {
    throw cancelled();
  }
  if (failure !== undefined) {
    throw failure;
  }
  return found;
}

/**
 * Records each requested identifier's PlatformId. Entries are matched by the identifier the service
 * echoes (exactly, then ignoring case); entries without one are matched by position.
 */
function mergeLookup(chunk: string[], entries: (LookupEntry | null)[], found: Map<string, string | null>): void {
  const exact = new Map<string, string | null>();
  const folded = new Map<string, string | null>();
  for (const e of entries) {
    if (e?.id !== undefined) {
      exact.set(e.id, e.platformId);
      folded.set(e.id.toLowerCase(), e.platformId);
    }
  }
  chunk.forEach((id, i) => {
    const positional = entries.length === chunk.length ? entries[i] : undefined;
    const value = exact.has(id) ? exact.get(id)
      : folded.has(id.toLowerCase()) ? folded.get(id.toLowerCase())
        : positional != null && positional.id === undefined ? positional.platformId : null;
    found.set(id, value ?? null);
  });
}
