// Sends a batch's deletions from its journal: paced (AIMD, Retry-After), each send between an
// intent and an outcome on disk. Cancel stops before the next send; requests in flight finish
// and are recorded. A player whose outcome is unknown is sent again only when the caller says
// the user confirmed resuming; the service then refuses a second deletion while one is queued.
import { PlatformError } from '../api/errors';
import { ErrorCodes } from '../api/types';
import { stateAfter, type BatchRecord, type JournalOperation, type JournalRecord, type OutcomeState, type PlayerRecord } from './journal';
import { Pacer } from '../pacing/pacer';
import type { DeletionClient, JobState, LedgerEntry } from './types';

export interface RunProgress {
  /** Players of the whole batch. */
  total: number;
  /** Requests sent in this run (a player sent again after a throttle counts each time). */
  sent: number;
  /**
   * Players this run set out to send (those not answered when it started, less the ones the ledger
   * shows done), less those another run took over: what "n of toSend" counts against.
   */
  toSend: number;
  /** Of `toSend`, the players sent in this run (each once, however often it was throttled). */
  playersSent: number;
  queued: number;
  failed: number;
  /** Players whose deletion may or may not have happened (sent, no answer recorded). */
  unknown: number;
  /** Requests sent in this run whose answer has not come yet. */
  awaiting: number;
  /** Players not yet sent. */
  pending: number;
  /** True while waiting out the service's throttle. */
  waiting: boolean;
  /** Throttled answers in this run. */
  throttled: number;
}

export interface RunOptions {
  /** Resend players whose outcome is unknown (only in a resumed run the user confirmed). */
  resendUnknown: boolean;
  signal?: AbortSignal;
  pacer?: Pacer;
  onProgress?: (p: RunProgress) => void;
  /** Called after each outcome is on disk. */
  onOutcome?: (platformId: string, state: JobState) => void;
  /** Throttled answers one player may get before it is left pending (default 50). */
  maxThrottlesPerPlayer?: number;
  /**
   * Deletions recorded outside this journal (the editor's ledger): a player they show queued or
   * deleted is not sent, even when the journal lost its record of it; the journal records why.
   */
  ledger?: readonly LedgerEntry[];
}

/**
 * What a run needs from where its batch is recorded: the file journal (journal.ts) or a team store
 * (core/store). `claim` is the store's own step before a send: it records the intent and says
 * whether this run may send (false: another run holds or has sent the player; nothing is sent).
 * Without it, the intent is appended like any record.
 */
export interface RunJournal {
  readonly batch: BatchRecord;
  players(): Map<string, PlayerRecord>;
  append(record: JournalRecord): Promise<void>;
  claim?(platformId: string, o: { resendUnknown: boolean }): Promise<boolean>;
  /**
   * The store's last check just before a claimed send goes out: undefined while this run's claim
   * still holds, else why it does not (its lease ran out, another run claimed the player); the
   * player is then not sent by this run.
   */
  stillHeld?(platformId: string): Promise<string | undefined>;
}

export interface RunResult extends RunProgress {
  cancelled: boolean;
  /** Players this run claimed but did not send: its claim no longer held when the send was due (a team store's lease). */
  lost: { platformId: string; why: string }[];
}

/** The service's refusal of a second deletion while one is queued (the emulator: InvalidParams "already queued"). */
export function isAlreadyQueued(e: PlatformError): boolean {
  if (e.errorCode === ErrorCodes.AccountDeleted) return true;
  const text = [e.errorMessage ?? '', ...Object.values(e.errorDetails ?? {}).flat()].join(' ');
  return e.errorCode === ErrorCodes.InvalidParams && /already\s+(been\s+)?queued|pending deletion/i.test(text);
}

/** A JobReceiptId the refusal quotes, if it does. */
function quotedReceipt(e: PlatformError): string | undefined {
  const text = [e.errorMessage ?? '', ...Object.values(e.errorDetails ?? {}).flat()].join(' ');
  return /JobReceiptId[:\s]+([0-9A-Za-z-]{8,64})/.exec(text)?.[1];
}

function isThrottle(e: PlatformError): boolean {
  return e.httpStatus === 429 || e.code === 429
    || e.errorCode === ErrorCodes.APIClientRequestRateLimitExceeded || e.errorCode === ErrorCodes.APIConcurrentRequestLimitExceeded;
}

interface Outcome {
  state: OutcomeState;
  jobReceiptId?: string;
  titleIds?: string[];
  error?: string;
  retryAfterSeconds?: number;
  concurrency?: boolean;
}

function classify(e: unknown): Outcome {
  if (!(e instanceof PlatformError)) return { state: 'unknown', error: String((e as Error)?.message ?? e) };
  if (e.outcomeUnknown) return { state: 'unknown', error: e.message };
  if (e.kind === 'cancelled') return { state: 'not-sent', error: e.message };
  if (isThrottle(e)) {
    return { state: 'throttled', retryAfterSeconds: e.retryAfterSeconds, concurrency: e.errorCode === ErrorCodes.APIConcurrentRequestLimitExceeded, error: e.message };
  }
  if (isAlreadyQueued(e)) return { state: 'queued', jobReceiptId: quotedReceipt(e), error: 'the service reports a deletion already queued' };
  if (e.errorCode === ErrorCodes.AccountNotFound) return { state: 'already-deleted', error: 'the service reports no such player (AccountNotFound)' };
  return { state: 'failed', error: e.message };
}

/** The call a journal's batch sends for one player (DeleteMasterPlayerAccount unless the batch names another operation). */
function sender(client: DeletionClient, operation: JournalOperation | undefined, metaData: string | undefined): (pid: string) => Promise<{ JobReceiptId?: string; TitleIds?: string[] }> {
  if (operation === undefined) return (pid) => client.deleteMasterPlayerAccount(metaData !== undefined ? { PlatformId: pid, MetaData: metaData } : { PlatformId: pid });
  const mutate = client.mutate;
  if (mutate === undefined) throw new Error(`This client cannot send ${operation}, which the journal's batch sends.`);
  return async (pid) => ((await mutate.call(client, operation, { PlatformId: pid })) ?? {}) as { JobReceiptId?: string };
}

/** Takes out of `todo` the players `ledger` shows queued or deleted, recording each in the journal as such (nothing sent). */
async function skipRecorded(journal: RunJournal, todo: string[], players: Map<string, { state: JobState }>, ledger: readonly LedgerEntry[]): Promise<void> {
  const recorded = new Map<string, LedgerEntry>();
  for (const e of ledger) if (e.state === 'queued' || e.state === 'verified-deleted') recorded.set(e.platformId.toUpperCase(), e);
  for (const pid of [...todo]) {
    const e = recorded.get(pid);
    if (e === undefined) continue;
    todo.splice(todo.indexOf(pid), 1);
    const state: OutcomeState = e.state === 'verified-deleted' ? 'already-deleted' : 'queued';
    await journal.append({
      type: 'outcome', platformId: pid, state, at: new Date().toISOString(), ...(e.jobReceiptId !== undefined ? { jobReceiptId: e.jobReceiptId } : {}),
      error: `not sent: the ledger records its deletion (title ${e.titleId}, requested ${e.requestedAt}${e.batchId !== undefined ? `, batch ${e.batchId}` : ''})`,
    });
    players.get(pid)!.state = stateAfter(state);
  }
}

// eslint-disable-next-line max-lines-per-function -- the run loop shares the pacer, the journal and the counters with its workers; split apart they would pass all of them around
export async function runBatch(client: DeletionClient, journal: RunJournal, o: RunOptions): Promise<RunResult> {
  const pacer = o.pacer ?? new Pacer();
  const players = journal.players();
  const metaData = journal.batch.metaData;
  const send = sender(client, journal.batch.operation, metaData);
  const todo: string[] = [];
  for (const [pid, p] of players) {
    if (p.state === 'pending' || p.state === 'failed' || (p.state === 'unknown' && o.resendUnknown)) todo.push(pid);
  }
  const count = (s: JobState): number => [...players.values()].filter((p) => p.state === s).length;
  const progress: RunProgress = { total: players.size, sent: 0, toSend: 0, playersSent: 0, queued: 0, failed: 0, unknown: 0, awaiting: 0, pending: 0, waiting: false, throttled: 0 };
  const inFlight = new Set<string>();
  const report = (): void => {
    Object.assign(progress, {
      queued: count('queued') + count('verified-deleted'), failed: count('failed'),
      unknown: count('unknown') - inFlight.size, awaiting: inFlight.size, pending: count('pending'),
      waiting: pacer.waitingMs() > 0,
    });
    o.onProgress?.({ ...progress });
  };
  const throttles = new Map<string, number>();
  const maxThrottles = o.maxThrottlesPerPlayer ?? 50;
  let cancelled = false;
  const lost: RunResult['lost'] = [];
  await skipRecorded(journal, todo, players, o.ledger ?? []);
  progress.toSend = todo.length;
  const sentPlayers = new Set<string>();
  report();

  // A journal that cannot be written stops every sender: nothing is sent unrecorded.
  let broken = false;
  // eslint-disable-next-line complexity -- one player's steps in the journal's order (pace, claim, send, record the outcome), each failure handled where it happens
  const worker = async (): Promise<void> => {
    for (;;) {
      const pid = broken ? undefined : todo.shift();
      if (pid === undefined) return;
      if (!(await pacer.acquire(o.signal))) {
        cancelled = true;
        todo.unshift(pid);
        return;
      }
      let claimed = true;
      try {
        if (journal.claim !== undefined) claimed = await journal.claim(pid, { resendUnknown: o.resendUnknown });
        else await journal.append({ type: 'intent', platformId: pid, at: new Date().toISOString() });
      } catch (e) {
        broken = true;
        pacer.release();
        throw e;
      }
      if (!claimed) {
        // Another run holds or has sent this player: this run leaves it alone.
        pacer.release();
        if (!sentPlayers.has(pid)) progress.toSend--;
        continue;
      }
      let lostWhy: string | undefined;
      try {
        lostWhy = await journal.stillHeld?.(pid);
      } catch (e) {
        broken = true;
        pacer.release();
        throw e;
      }
      if (lostWhy !== undefined) {
        // The claim ran out before the send (this process was paused): another run may be sending it; this one does not.
        pacer.release();
        lost.push({ platformId: pid, why: lostWhy });
        if (!sentPlayers.has(pid)) progress.toSend--;
        continue;
      }
      let outcome: Outcome;
      try {
        players.get(pid)!.state = 'unknown';
        inFlight.add(pid);
        progress.sent++;
        sentPlayers.add(pid);
        progress.playersSent = sentPlayers.size;
        report();
        // No signal: once sent, a request is let finish so its outcome is recorded.
        const r = await send(pid);
        outcome = { state: 'queued', jobReceiptId: r.JobReceiptId, titleIds: Array.isArray(r.TitleIds) ? [...r.TitleIds] : undefined };
        pacer.onSuccess();
      } catch (e) {
        outcome = classify(e);
        if (outcome.state === 'throttled') {
          progress.throttled++;
          pacer.onThrottle(outcome.retryAfterSeconds, outcome.concurrency);
        }
      } finally {
        pacer.release();
      }
      const { retryAfterSeconds: _r, concurrency: _c, ...recorded } = outcome;
      try {
        await journal.append({ type: 'outcome', platformId: pid, at: new Date().toISOString(), ...recorded });
      } catch (e) {
        // The player stays "unknown" in the journal: only a confirmed resume sends it again.
        inFlight.delete(pid);
        broken = true;
        throw e;
      }
      // Sent only from pending, failed or unknown (never queued), so its outcome alone says where it stands.
      const state = stateAfter(outcome.state);
      players.get(pid)!.state = state;
      // Awaiting until the answer is on disk: in between, the player is not "unknown".
      inFlight.delete(pid);
      if (outcome.state === 'throttled') {
        const n = (throttles.get(pid) ?? 0) + 1;
        throttles.set(pid, n);
        if (n < maxThrottles) todo.unshift(pid);
      }
      o.onOutcome?.(pid, state);
      report();
    }
  };
  const width = Math.max(1, Math.min(pacer.inFlightCap, todo.length));
  const ended = await Promise.allSettled(Array.from({ length: width }, worker));
  const failure = ended.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
  report();
  return { ...progress, cancelled: cancelled || o.signal?.aborted === true, lost };
}
