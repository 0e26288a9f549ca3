// GetPlayedTitleList for many players: a few in flight, paced like the deletions (Pacer), each
// answer reported as it comes so that a cancelled run keeps what it learned. The deletion dry run
// (deletion/plan.ts) and Show Played Titles for a list of PlatformIds both run it.
import { PlatformError } from './api/errors';
import { linkSignals } from './api/signals';
import { ErrorCodes, type GetPlayedTitleListResult } from './api/types';
import { Pacer } from './pacing/pacer';

/** What GetPlayedTitleList said about one player. */
export type PlayedTitlesCheck =
  | { status: 'found'; titleIds: string[] }
  /** AccountNotFound: no such player (never created, or already deleted). */
  | { status: 'not-found' }
  /** Throttled or failed past the client's retries: this player is unknown, the others go on. */
  | { status: 'failed'; reason: string };

export interface PlayedTitlesClient {
  getPlayedTitleList(platformId: string, o?: { signal?: AbortSignal }): Promise<GetPlayedTitleListResult>;
}

export interface PlayedTitlesOptions {
  signal?: AbortSignal;
  /** Requests in flight at most (default 4). */
  concurrency?: number;
  /** Called with (players checked, players): once with 0 at the start, then after each answer. */
  onProgress?: (done: number, total: number) => void;
  /** Called with each player's answer as it comes; what was reported stays true if the run is cancelled later. */
  onChecked?: (platformId: string, check: PlayedTitlesCheck) => void;
  /** The error thrown once `signal` aborts. */
  cancelled?: () => Error;
}

const PLAYED_TITLES_CONCURRENCY = 4;

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The played titles of each distinct PlatformId. A refused key or a bad request fails every player
 * alike, so it stops the run and is thrown; so is the cancellation once `signal` aborts.
 */
export async function checkPlayedTitles(
  client: PlayedTitlesClient, platformIds: readonly string[], o: PlayedTitlesOptions = {},
): Promise<Map<string, PlayedTitlesCheck>> {
  const todo = [...new Set(platformIds)];
  const concurrency = o.concurrency ?? PLAYED_TITLES_CONCURRENCY;
  const pacer = new Pacer({ maxInFlight: concurrency });
  const stop = new AbortController();
  const link = linkSignals([o.signal, stop.signal]);
  const signal = link.signal;
  const checked = new Map<string, PlayedTitlesCheck>();
  const record = (id: string, check: PlayedTitlesCheck): void => {
    checked.set(id, check);
    o.onChecked?.(id, check);
  };
  let failure: unknown;
  let next = 0;
  let done = 0;
  o.onProgress?.(0, todo.length);
  // eslint-disable-next-line complexity -- one player's request and each answer kind (found, not found, a refusal that stops the run, failed), as in deletion/run.ts
  const worker = async (): Promise<void> => {
    // Stryker disable next-line ConditionalExpression: a shortcut; a failure aborts the run's signal with it, so acquire() refuses the next player anyway
    while (next < todo.length && failure === undefined) {
      const id = todo[next++];
      // Stryker disable next-line ConditionalExpression: acquire() refuses only once the signal aborted; the request would then fail at once as cancelled, unrecorded, and the run end with the same error
      if (!(await pacer.acquire(signal))) return;
      try {
        record(id, { status: 'found', titleIds: [...(await client.getPlayedTitleList(id, { signal })).TitleIds] });
        pacer.onSuccess();
      } catch (err) {
        if (err instanceof PlatformError && err.errorCode === ErrorCodes.AccountNotFound) {
          record(id, { status: 'not-found' });
        } else if (err instanceof PlatformError && (err.kind === 'cancelled' || (err.httpStatus !== undefined && err.httpStatus >= 400 && err.httpStatus < 500 && err.httpStatus !== 429))) {
          // A refused key or a bad request fails every player alike: stop the run, not one player.
          // Stryker disable next-line CallExpression: the other workers stop before their next player anyway (failure is set); this only aborts what they have in flight, which the same refusal would answer
          stop.abort();
          failure ??= err;
        } else {
          if (err instanceof PlatformError && err.httpStatus === 429) pacer.onThrottle(err.retryAfterSeconds);
          record(id, { status: 'failed', reason: errorText(err) });
        }
      } finally {
        pacer.release();
      }
      if (checked.has(id)) o.onProgress?.(++done, todo.length);
    }
  };
  // Stryker disable next-line MethodExpression,ArrowFunction: workers past the number of players find nothing to do (the Pacer holds the in-flight cap); dispose only releases the caller's signal's listener (memory)
  await Promise.all(Array.from({ length: Math.min(concurrency, todo.length) }, worker)).finally(() => link.dispose());
  if (o.signal?.aborted === true) {
    throw o.cancelled?.() ?? new PlatformError({ kind: 'cancelled', message: 'Cancelled.', hint: 'Run it again when ready.' });
  }
  if (failure !== undefined) throw failure;
  return checked;
}
