// Bulk lookups: distinct identifiers in requests of at most 25, a bounded number in flight, each
// identifier's PlatformId matched back from the answers (and reported per request, so that a
// cancelled run keeps what was resolved); a failure stops the rest.
import { PlatformError } from './errors';
import { MAX_IDS_PER_LOOKUP } from './operations';
import { linkSignals } from './signals';

/** One entry of a lookup answer: the identifier as the service echoed it, and its PlatformId or null. */
export interface LookupEntry {
  id?: string;
  platformId: string | null;
}

export interface BulkRun {
  concurrency: number;
  /** Called with (identifiers resolved, distinct identifiers): once with 0 at the start, then after each request. */
  onProgress?: (done: number, total: number) => void;
  /** Called with each request's identifiers and their PlatformId (or null) once its answer is merged. */
  onResolved?: (resolved: ReadonlyMap<string, string | null>) => void;
  send: (chunk: string[], signal: AbortSignal) => Promise<(LookupEntry | null)[]>;
}

/** Throws a validation error naming `field` unless `ids` is a list of non-empty identifiers. */
export function checkIdentifiers(ids: unknown, field: string): asserts ids is readonly string[] {
  const invalid = (message: string, hint: string): PlatformError => new PlatformError({ kind: 'validation', message, hint });
  if (!Array.isArray(ids)) {
    throw invalid(`${field} must be a list of identifiers.`, 'Enter one identifier per line or separate them with commas.');
  }
  ids.forEach((id: unknown, i) => {
    if (typeof id !== 'string' || id.trim().length === 0) {
      throw invalid(`${field}[${i}] is empty.`, 'Remove empty entries from the list.');
    }
  });
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
    // A failure aborts `stop`, so the link's signal also tells a worker that another one failed.
    while (!link.signal.aborted && next < chunks.length) {
      const chunk = chunks[next++];
      try {
        const answered = mergeLookup(chunk, await run.send(chunk, link.signal), found);
        done += chunk.length;
        run.onResolved?.(answered);
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
function mergeLookup(chunk: string[], entries: (LookupEntry | null)[], found: Map<string, string | null>): Map<string, string | null> {
  const answered = new Map<string, string | null>();
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
    answered.set(id, value ?? null);
    found.set(id, value ?? null);
  });
  return answered;
}
