// The ledger of deletions (single and batch): built from journals, verified against the
// service (GetPlayedTitleList answers AccountNotFound once a deletion completed), exported.
import { PlatformError } from '../api/errors';
import { ErrorCodes } from '../api/types';
import { toCsv } from '../csv';
import type { BatchRecord, PlayerRecord } from './journal';
import type { DeletionClient, LedgerEntry } from './types';

/**
 * The ledger entries of one batch journal: every player a request was sent for, and with
 * `unsent`, also the players of the batch not sent yet (state pending: "not sent"), so that a
 * cancelled batch shows the rest of its players as such rather than leaving them out.
 */
// eslint-disable-next-line complexity -- one ledger row per player state, each member defaulted with ?? (counted as branches)
export function ledgerFromJournal(batch: BatchRecord, players: ReadonlyMap<string, PlayerRecord>, o: { unsent?: boolean } = {}): LedgerEntry[] {
  const inputs = new Map(batch.entries.filter((e) => e.status === 'delete').map((e) => [e.platformId!, e]));
  const out: LedgerEntry[] = [];
  for (const [platformId, p] of players) {
    if (p.intents === 0 && p.state === 'pending' && o.unsent !== true) continue;
    const e: LedgerEntry = {
      input: inputs.get(platformId)?.input ?? platformId,
      platformId,
      titleId: batch.titleId,
      titleIds: p.titleIds ?? inputs.get(platformId)?.titleIds ?? [],
      requestedAt: p.requestedAt ?? batch.createdAt,
      state: p.state,
      batchId: batch.batchId,
    };
    if (p.jobReceiptId !== undefined) e.jobReceiptId = p.jobReceiptId;
    if (batch.metaData !== undefined) e.metaData = batch.metaData;
    if (p.verifiedAt !== undefined) e.verifiedAt = p.verifiedAt;
    if (p.error !== undefined && p.state !== 'queued' && p.state !== 'verified-deleted') e.error = p.error;
    out.push(e);
  }
  return out;
}

export interface VerifyResult {
  /** PlatformIds found deleted in this pass. */
  verified: string[];
  /** Still present (deletion not finished). */
  stillQueued: string[];
  /** Could not be checked, with why. */
  errors: { platformId: string; error: string }[];
}

/** Entries verification checks: queued deletions, and deletions whose outcome is unknown. */
export function awaitsVerification(e: LedgerEntry): boolean {
  return e.state === 'queued' || e.state === 'unknown';
}

/** Checks every queued (or unknown) entry once; `onVerified` records each player found deleted. */
export async function verifyQueued(
  client: DeletionClient, entries: readonly LedgerEntry[], onVerified: (platformId: string, at: string) => Promise<void> | void,
  o: { signal?: AbortSignal } = {},
): Promise<VerifyResult> {
  const r: VerifyResult = { verified: [], stillQueued: [], errors: [] };
  const queued = [...new Set(entries.filter(awaitsVerification).map((e) => e.platformId))];
  for (const platformId of queued) {
    if (o.signal?.aborted === true) break;
    try {
      await client.getPlayedTitleList(platformId, { signal: o.signal });
      r.stillQueued.push(platformId);
    } catch (e) {
      if (e instanceof PlatformError && e.errorCode === ErrorCodes.AccountNotFound) {
        await onVerified(platformId, new Date().toISOString());
        r.verified.push(platformId);
      } else {
        r.errors.push({ platformId, error: e instanceof Error ? e.message : String(e) });
      }
    }
  }
  return r;
}

/** Backoff for background verification: from `first` ms, doubling to `max`, reset when something is verified. */
export function nextVerifyDelay(previousMs: number | undefined, progressed: boolean, first = 30_000, max = 30 * 60_000): number {
  if (previousMs === undefined || progressed) return first;
  return Math.min(max, previousMs * 2);
}

const CSV_COLUMNS = ['Input', 'PlatformId', 'TitleId', 'TitleIds', 'JobReceiptId', 'MetaData', 'RequestedAt', 'State', 'VerifiedAt', 'BatchId', 'Error'] as const;

export function ledgerCsv(entries: readonly LedgerEntry[]): string {
  return toCsv(CSV_COLUMNS, entries.map((e) => [
    e.input, e.platformId, e.titleId, e.titleIds.join(' '), e.jobReceiptId ?? '', e.metaData ?? '',
    e.requestedAt, e.state, e.verifiedAt ?? '', e.batchId ?? '', e.error ?? '',
  ]));
}

export function ledgerJson(entries: readonly LedgerEntry[], exportedAt = new Date().toISOString()): string {
  return JSON.stringify({
    exportedAt,
    // A receipt the service did not return (or a player not sent) is null, never a string in its place.
    deletions: entries.map((e) => ({ ...e, jobReceiptId: e.jobReceiptId ?? null })),
  }, null, 2) + '\n';
}
