// Shapes of a data-subject request (no I/O here): what the state file holds and what the editor's
// view and the command line read. A request's state is derived from these (model.ts), never stored.
import type { BulkOptions } from '../api/options';
import type { ConsoleLivePlatformIdPair, GetPlayedTitleListResult, StorefrontPlatformIdPair } from '../api/types';
import type { AnchorStore } from '../deletion/anchor';
import type { DeletionClient } from '../deletion/types';
import type { KeyStore, Operator, OperatorRef } from '../operator';

/** What the person asked for: a copy of their data, erasure of their accounts, erasure of their events only. */
export type Ask = 'access' | 'erasure' | 'events';
export const ASKS: readonly Ask[] = ['access', 'erasure', 'events'];

/** The kinds of identifier a request may name (the identifiers file's `kind:` prefixes). */
export type IdentifierKind = 'platformid' | 'email' | 'username' | 'displayname' | 'storefront' | 'consolelive';
export const IDENTIFIER_KINDS: readonly IdentifierKind[] = ['platformid', 'email', 'username', 'displayname', 'storefront', 'consolelive'];

export interface Identifier {
  kind: IdentifierKind;
  /** As given (a PlatformId upper-cased). */
  value: string;
  /** ConsoleLive IDs only: the sandbox they are looked up in. */
  sandbox?: string;
}

/** The request's state, derived from the state file (model.ts requestState). */
export type RequestState = 'received' | 'resolved' | 'actions-queued' | 'completed' | 'withdrawn' | 'closed';
export const REQUEST_STATES: readonly RequestState[] = ['received', 'resolved', 'actions-queued', 'completed', 'withdrawn', 'closed'];

/** One lookup or check sent while resolving, for the evidence. */
export interface ResolutionCall {
  at: string;
  titleId: string;
  /** The operation's name in the service's words (GetUserAccountInfo, GetPlatformIDsFromStorefrontNames, GetPlayedTitleList...). */
  operation: string;
  /** Indexes into the request's identifiers this call asked about (lookups), or the PlatformId it checked. */
  identifiers?: number[];
  platformId?: string;
  /** 'found' / 'not-found' / 'answered' or the failure, made safe. */
  outcome: string;
}

/** What one identifier gave in one title. */
export interface Finding {
  /** Index into the request's identifiers. */
  identifier: number;
  titleId: string;
  /** The account it found; null when the title knows no such account. */
  platformId: string | null;
  /** Set when the lookup failed (the identifier is unresolved in that title, not "nothing found"). */
  error?: string;
}

/** One master account the request acts on (one per PlatformId: a publisher namespace holds it once). */
export interface Account {
  platformId: string;
  /** Titles of the account's publisher it played (GetPlayedTitleList). */
  titleIds: string[];
  /** Configured titles whose lookups found it. */
  foundIn: string[];
  /** Indexes of the identifiers that found it. */
  identifiers: number[];
  /** The title whose key sends its actions (the first configured title that found it). */
  senderTitleId: string;
  /** Set when GetPlayedTitleList failed for it (its titles are unknown). */
  error?: string;
}

export interface Resolution {
  at: string;
  /** Configured titles asked (those with a key). */
  titlesAsked: string[];
  /** Configured titles not asked, and why (no key). */
  titlesSkipped: { titleId: string; reason: string }[];
  findings: Finding[];
  accounts: Account[];
  /** PlatformIds found by a lookup that GetPlayedTitleList reports gone (AccountNotFound): nothing to act on. */
  gone: string[];
  calls: ResolutionCall[];
  /** Lookups not sent, and why: display names on a title that allows non-unique ones (absent: none). */
  lookupsSkipped?: { identifier: number; titleId: string; reason: string }[];
}

/** What an action does, in the service's operation names: */
export type ActionKind = 'export' | 'erasure' | 'events';
export const ACTION_OPERATIONS: Record<ActionKind, 'ExportMasterPlayerData' | 'DeleteMasterPlayerAccount' | 'DeleteMasterPlayerEventData'> = {
  export: 'ExportMasterPlayerData', erasure: 'DeleteMasterPlayerAccount', events: 'DeleteMasterPlayerEventData',
};

/**
 * planned: not sent; waiting: held until the account's export is completed (erasing first would
 * destroy the data asked for); queued: the service took it (receipt kept); unknown: sent, no answer
 * recorded (never sent again by `run`); failed: refused (sent again by the next run); completed;
 * accepted: an events-only erasure the service took, which gives no completion signal (never
 * "completed"; it settles the action: the erasure after it is sent and the request can close).
 */
export type ActionStatus = 'planned' | 'waiting' | 'queued' | 'unknown' | 'failed' | 'completed' | 'accepted';

/** An action that needs nothing more: completed, or accepted with no completion signal to wait for. */
export const isSettled = (a: { status: ActionStatus }): boolean => a.status === 'completed' || a.status === 'accepted';

/** What `accepted` means, wherever the product records or shows it (the state, the view, the evidence). */
export const NO_COMPLETION_SIGNAL = 'no completion signal';

export interface Action {
  kind: ActionKind;
  platformId: string;
  /** The title whose key sends it. */
  titleId: string;
  status: ActionStatus;
  requestedAt?: string;
  /** JobReceiptId (export and erasure; events-only erasure gets none). */
  jobReceiptId?: string;
  completedAt?: string;
  /** How completion was seen: 'AccountNotFound' (erasure), 'event' or 'recorded' (export link), NO_COMPLETION_SIGNAL (events-only, accepted). */
  completedBy?: string;
  /** Export only: the download link (a bearer link to the person's data: kept in the state file, never shown or put in evidence). */
  downloadUrl?: string;
  /** The last failure, made safe. */
  error?: string;
}

/** The state file of one request (request.json in its folder). */
export interface DataRequest {
  version: 1;
  id: string;
  /** The ticket. */
  reference: string;
  /** YYYY-MM-DD */
  received: string;
  dueDays: number;
  /** YYYY-MM-DD: received + dueDays. */
  due: string;
  asks: Ask[];
  identifiers: Identifier[];
  /** Configured titles, in the order given (the first that finds an account sends its actions). */
  titles: string[];
  endpoint: string;
  createdAt: string;
  resolution?: Resolution;
  actions: Action[];
  /** Set by close. */
  closedAt?: string;
  /** SHA-256 head of the evidence chain, written on close (an anchor outside the evidence files). */
  evidenceHead?: string;
  /** Set once personal identifiers were replaced by their hashes (retention). */
  identifiersHashedAt?: string;
  /** Set once the request's pseudonymisation key was destroyed (request shred): the hashes are then anonymous. */
  shreddedAt?: string;
  /** Who ran each step, when (the evidence names the operator of each entry from these). */
  steps?: { at: string; step: string; operator: OperatorRef }[];
  /** Days an erasure is held after the request is made (0 or absent: none), and when the hold ends (ISO time). */
  holdDays?: number;
  holdUntil?: string;
  /**
   * Titles that allow non-unique display names (the user says so: the service does not tell): a
   * lookup by TitleDisplayName there always answers AccountNotFound, so none is sent.
   */
  displayNamesNotUnique?: string[];
  /** Set by withdraw: nothing more is sent. */
  withdrawn?: { at: string; reason: string };
  /** The state file's seal (seal.ts): written by the store on every save. */
  seal?: StateSeal;
}

/** The client calls a request needs (PlatformClient has them all). */
export interface RequestClient extends DeletionClient {
  getUserAccountInfo(r: { PlatformId?: string; Email?: string; Username?: string; TitleDisplayName?: string }, o?: { signal?: AbortSignal }): Promise<{ UserInfo?: { PlatformId?: string } }>;
  mutate(name: 'ExportMasterPlayerData' | 'DeleteMasterPlayerEventData', request: { PlatformId: string }, o?: { signal?: AbortSignal }): Promise<unknown>;
  getPlayedTitleList(platformId: string, o?: { signal?: AbortSignal }): Promise<GetPlayedTitleListResult>;
  getPlatformIdsFromStorefrontNames(names: readonly string[], o?: BulkOptions): Promise<StorefrontPlatformIdPair[]>;
  getPlatformIdsFromConsoleLiveIds(ids: readonly string[], sandbox?: string, o?: BulkOptions): Promise<ConsoleLivePlatformIdPair[]>;
}

/** The service's events where they can be read (the emulator's /_emulator/events); undefined elsewhere. */
export interface ServiceEvent {
  type: string;
  JobReceiptId?: string;
  ExportDownloadUrl?: string;
  RequestTime?: string;
  ReceiptId?: string;
  PlayerId?: string;
  MetaData?: string;
}
export type EventReader = (type: string, o?: { signal?: AbortSignal }) => Promise<ServiceEvent[]>;

/** What resolving, running and verifying need: per title a client (undefined: no key) and the key for its journals. */
export interface RequestServices {
  client(titleId: string): RequestClient | undefined;
  /** The title's secret key (authenticates the request's journals; never written). */
  key(titleId: string): Promise<string | undefined>;
  /** Where the journals' anchors are kept, outside the request's folder (core/deletion/anchor.ts): the CLI's state folder, the editor's storage. */
  anchors: AnchorStore;
  events?: EventReader;
  /** Who runs the step (named in the evidence; signs it on close). */
  operator?: Operator;
  /** Where the requests' pseudonymisation keys are kept, outside the store (core/operator.ts). */
  keys?: KeyStore;
  signal?: AbortSignal;
  now?: () => Date;
  /** The user accepted journals with no anchor here (--no-anchor, the editor's modal). */
  noAnchor?: boolean;
}

export interface StateSeal {
  /** The title whose secret key authenticates this save. */
  titleId: string;
  /** Saves so far (1 for the new request). */
  generation: number;
  /** The MAC of the save before ('' for the first). */
  prev: string;
  mac: string;
  /** Where its anchor was written (for the message when it is missing here). */
  anchors: string;
}

/** What authenticates a store's state files (seal.ts): the titles' keys and the anchors outside the store. */
export interface RequestAuth {
  /** The title's secret key (for the CLI's one-title request, PLATFORM_SECRET_KEY counts: hence the titles). */
  key(titleId: string, titles: readonly string[]): Promise<string | undefined>;
  anchors: AnchorStore;
  /** The user accepted a state file (and journals) with no anchor here (--no-anchor, the editor's modal). */
  noAnchor?: boolean;
  /** Told once when a state file with no anchor is used under noAnchor. */
  onNotice?: (message: string) => void;
}

export class RequestError extends Error {}
