// Shapes shared by the deletion planner, runner, journal and ledger (no I/O here).
import type {
  ConsoleLivePlatformIdPair, DeleteMasterPlayerAccountRequest, GetPlayedTitleListResult, StorefrontPlatformIdPair,
} from '../api/types';

/** The kind of identifier a deletion list holds (one kind per list). */
export type IdKind = 'platform-id' | 'consolelive' | 'storefront';
export const ID_KINDS: readonly IdKind[] = ['platform-id', 'consolelive', 'storefront'];

/** What the planner decided for one input line. */
export type PlanStatus = 'delete' | 'unlinked' | 'invalid' | 'duplicate' | 'already-queued' | 'already-deleted' | 'failed';

export interface PlanEntry {
  /** 1-based line of the input. */
  line: number;
  input: string;
  /** The text line the identifier was found in, when the line was more than the identifier. */
  from?: string;
  status: PlanStatus;
  platformId?: string;
  /** Titles the deletion wipes (GetPlayedTitleList), for `delete`. */
  titleIds?: string[];
  /** Why: the format rule broken, the line it duplicates, the ledger's receipt, the service's error. */
  reason?: string;
}

export interface Plan {
  titleId: string;
  kind: IdKind;
  sandbox?: string;
  createdAt: string;
  entries: PlanEntry[];
}

/** Final state of one player in a run (and in the ledger). */
export type JobState = 'queued' | 'verified-deleted' | 'failed' | 'unknown' | 'pending';

/** One deletion as the ledger keeps it, single or from a batch. */
export interface LedgerEntry {
  /** The identifier the user gave (the PlatformId itself for single deletions). */
  input: string;
  platformId: string;
  /** Title whose key sent the request. */
  titleId: string;
  /** Titles the deletion wipes (the service's answer, else the plan's). */
  titleIds: string[];
  /** undefined when the service returned none. */
  jobReceiptId?: string;
  metaData?: string;
  requestedAt: string;
  state: JobState;
  verifiedAt?: string;
  /** Groups the players of one batch. */
  batchId?: string;
  /** The last failure, for `failed` and `unknown`. */
  error?: string;
}

/** The client calls the deletion workflow needs (PlatformClient has them all). */
export interface DeletionClient {
  deleteMasterPlayerAccount(r: DeleteMasterPlayerAccountRequest, o?: { signal?: AbortSignal }): Promise<{ JobReceiptId?: string; TitleIds?: string[] }>;
  getPlayedTitleList(platformId: string, o?: { signal?: AbortSignal }): Promise<GetPlayedTitleListResult>;
  getPlatformIdsFromConsoleLiveIds(ids: readonly string[], sandbox?: string, o?: { signal?: AbortSignal }): Promise<ConsoleLivePlatformIdPair[]>;
  getPlatformIdsFromStorefrontNames(names: readonly string[], o?: { signal?: AbortSignal }): Promise<StorefrontPlatformIdPair[]>;
  /** Needed only to run a journal whose batch sends ExportMasterPlayerData (a data request's export). */
  exportMasterPlayerData?(platformId: string, o?: { signal?: AbortSignal }): Promise<{ JobReceiptId?: string }>;
  /** Needed only to run a journal whose batch sends DeleteMasterPlayerEventData (events-only erasure). */
  deleteMasterPlayerEventData?(platformId: string, o?: { signal?: AbortSignal }): Promise<unknown>;
}

/** Shown where the service gave no JobReceiptId. */
export const NONE_RETURNED = 'none returned';
