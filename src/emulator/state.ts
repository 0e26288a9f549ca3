// The emulator's model: plain JSON-serialisable records (persisted as they are) plus
// Map indexes rebuilt from them, so lookups cost one Map read per identifier.

import type { JWK } from 'jose';

export interface LauncherSettings {
  enabled: boolean;
  issuer: string;
  audience: string;
  /** ES256 key pair of the launcher identity provider the emulator plays. */
  publicJwk: JWK;
  privateJwk: JWK;
}

export interface HandheldStoreEnvironmentState {
  ClientID: string;
  /** Kept server-side only: never returned by GetHandheldStore. */
  ClientSecret: string;
  ID: string;
}

export interface HandheldStoreState {
  ApplicationID: string;
  Environments: HandheldStoreEnvironmentState[];
  SecondarySubscriptionEnvironments: HandheldStoreEnvironmentState[];
  SubscriptionEnvironments: HandheldStoreEnvironmentState[];
}

export interface AddonsState {
  HandheldStore: HandheldStoreState | null;
  MobileStore: { PackageName: string } | null;
  ConsoleNetB: { ProductId: string } | null;
}

export { ADDON_NAMES, type AddonName } from '../core/api/types';

export interface CurrencyDefinition {
  code: string;
  initial: number;
  /** Recharging currencies report UserVirtualCurrencyRechargeTimes. */
  rechargeMax?: number;
  rechargeSeconds?: number;
}

export interface TitleState {
  titleId: string;
  name: string;
  publisherId: string;
  secretKey: string;
  /** Where the service mails deletion receipts and export links; null: none (export answers 1006). */
  notificationEmail: string | null;
  launcher: LauncherSettings;
  /** ProfileConstraints flags a login may ask for; others fail with 1303. */
  allowedProfileConstraints: string[];
  /** Display names need not be unique: a lookup by TitleDisplayName always answers AccountNotFound (documented). */
  allowNonUniqueDisplayNames?: boolean;
  currencies: CurrencyDefinition[];
  addons: AddonsState;
  /** Title data (GetTitleData); absent in state files of older emulators. */
  titleData?: Record<string, string>;
}

export interface UserDataEntry {
  Value: string;
  /** Emulator time, ms since epoch. */
  LastUpdated: number;
  Permission?: string;
}

/** A player's per-title record (the title player account and its data). */
export interface PlayerTitleState {
  titlePlayerAccountId: string;
  /** The player's display name in this title, when it differs from the player's displayName. */
  displayName?: string;
  created: number;
  firstLogin: number;
  lastLogin: number;
  userData: Record<string, UserDataEntry>;
  userDataVersion: number;
  virtualCurrency: Record<string, number>;
  // The parts below are absent in state files of older emulators: read as empty.
  readOnlyData?: Record<string, UserDataEntry>;
  readOnlyDataVersion?: number;
  inventory?: ItemState[];
  characters?: CharacterState[];
  statistics?: Record<string, { value: number; version: number }>;
}

export interface ItemState {
  ItemId: string;
  ItemInstanceId: string;
  ItemClass: string;
  DisplayName: string;
  /** Emulator time, ms since epoch. */
  PurchaseDate: number;
  RemainingUses?: number;
  UnitCurrency: string;
  UnitPrice: number;
}

export interface CharacterState {
  CharacterId: string;
  CharacterName: string;
  CharacterType: string;
  inventory: ItemState[];
}

export interface ConsoleLiveLink {
  sandbox: string;
  id: string;
}

export interface PlayerState {
  platformId: string;
  publisherId: string;
  created: number;
  username?: string;
  displayName?: string;
  bannedUntil?: number;
  /** Whole US cents (the service's TotalValueToDateInUSD). */
  totalValueToDateInUSD: number;
  avatarUrl?: string;
  tags?: string[];
  contactEmail?: string;
  /** The profile's contact e-mail when it is not the account's (ContactEmailAddresses only; lookups by Email never match it). */
  profileContactEmail?: string;
  /** ISO 3166 country code of the last login. */
  country?: string;
  consoleLive: ConsoleLiveLink[];
  storefrontNames: string[];
  launcherSubjects: string[];
  /** Keyed by titleId: the titles this player has played. */
  titles: Record<string, PlayerTitleState>;
  /** The player's event-stream and telemetry events (a due DeleteMasterPlayerEventData empties it); absent in older state files: none. */
  events?: PlayerEvent[];
  /** When a queued DeleteMasterPlayerEventData takes effect (ms, the deletion delay after it was taken). */
  eventsErasureDueAt?: number;
}

/** The player's events at `now`: none once a queued events-only erasure is due. */
export function eventsAt(p: PlayerState, now: number): PlayerEvent[] {
  return p.eventsErasureDueAt !== undefined && p.eventsErasureDueAt <= now ? [] : (p.events ?? []);
}

/** One event the player's game sent (the seed's, or none). */
export interface PlayerEvent {
  name: string;
  titleId: string;
  /** Emulator time, ms since epoch. */
  time: number;
  data?: Record<string, string>;
}

/** An export queued by ExportMasterPlayerData; completed after the deletion delay. */
export interface ExportJob {
  JobReceiptId: string;
  PlatformId: string;
  /** The title whose Admin API queued it (its notification address gets the link). */
  titleId: string;
  createdAt: number;
  dueAt: number;
  status: 'queued' | 'completed';
  completedAt?: number;
  /** The download link's unguessable part: served once (then downloadedAt is set), until expiresAt. */
  token?: string;
  expiresAt?: number;
  downloadedAt?: number;
  /** What the link serves (exportDocument.ts); dropped once downloaded. */
  document?: unknown;
}

/** An event the service emits (player_data_exported, title_deleted_master_player): flat, as the service's events are. */
export interface EmittedEvent {
  type: 'player_data_exported' | 'title_deleted_master_player';
  titleId: string;
  /** ISO 8601 UTC. */
  Timestamp: string;
  [member: string]: string | null;
}

export interface DeletionJob {
  JobReceiptId: string;
  PlatformId: string;
  /** The title whose Admin API queued the job (its notification address gets the mail). */
  titleId: string;
  TitleIds: string[];
  MetaData?: string;
  createdAt: number;
  dueAt: number;
  status: 'queued' | 'completed';
  completedAt?: number;
}

export interface OutboxMessage {
  to: string;
  subject: string;
  body: string;
  JobReceiptId: string;
  titleId: string;
  sentAt: string;
  /** The event the mail goes with (its members are the event's: ExportDownloadUrl, RequestTime, ReceiptId, MetaData, PlayerId); absent in older state files. */
  type?: EmittedEvent['type'];
  [member: string]: string | null | undefined;
}

export interface EmulatorData {
  titles: Record<string, TitleState>;
  players: Record<string, PlayerState>;
  jobs: DeletionJob[];
  outbox: OutboxMessage[];
  /** Absent in state files of older emulators: none. */
  exports?: ExportJob[];
  /** The service's emitted events, oldest first (GET /_emulator/events); absent in older state files: none. */
  events?: EmittedEvent[];
}

/** What the state file holds: the data plus server-wide settings that survive a reset. */
export interface PersistedState {
  /** 2 since TotalValueToDateInUSD is kept in cents (version 1 files are converted on load). */
  version: 2;
  /** The seed reset goes back to: a built-in name, or `file:PATH` for a seed file. */
  seed: string;
  /** HMAC key of the stateless entity tokens (base64). */
  tokenSecret: string;
  /** Tokens issued at or before this emulator time count as expired (tokens/expire). */
  tokensExpiredBefore: number;
  /** Added to the wall clock by clock/advance. */
  clockOffsetMs: number;
  data: EmulatorData;
}

const SEP = '\u0000';

/** The Map indexes over EmulatorData; rebuilt whenever players change in bulk. */
export class Indexes {
  readonly consoleLive = new Map<string, string>();
  readonly storefront = new Map<string, string>();
  readonly launcher = new Map<string, string>();
  /** By publisher and lower-case e-mail (GetUserAccountInfo's Email). */
  readonly email = new Map<string, string>();
  /** By publisher and username. */
  readonly username = new Map<string, string>();
  /** By title and the player's display name there (GetUserAccountInfo's TitleDisplayName). */
  readonly titleDisplayName = new Map<string, string>();
  readonly queuedJobByPlayer = new Map<string, DeletionJob>();

  constructor(data: EmulatorData) {
    for (const p of Object.values(data.players)) this.addPlayer(p);
    for (const j of data.jobs) if (j.status === 'queued') this.queuedJobByPlayer.set(j.PlatformId, j);
  }

  static consoleLiveKey(publisherId: string, sandbox: string, id: string): string {
    return publisherId + SEP + sandbox + SEP + id;
  }

  static nameKey(publisherId: string, name: string): string {
    return publisherId + SEP + name;
  }

  addPlayer(p: PlayerState): void {
    for (const l of p.consoleLive) this.consoleLive.set(Indexes.consoleLiveKey(p.publisherId, l.sandbox, l.id), p.platformId);
    for (const n of p.storefrontNames) this.storefront.set(Indexes.nameKey(p.publisherId, n), p.platformId);
    for (const s of p.launcherSubjects) this.launcher.set(Indexes.nameKey(p.publisherId, s), p.platformId);
    for (const [map, key] of this.accountKeys(p)) map.set(key, p.platformId);
  }

  removePlayer(p: PlayerState): void {
    for (const l of p.consoleLive) this.consoleLive.delete(Indexes.consoleLiveKey(p.publisherId, l.sandbox, l.id));
    for (const n of p.storefrontNames) this.storefront.delete(Indexes.nameKey(p.publisherId, n));
    for (const s of p.launcherSubjects) this.launcher.delete(Indexes.nameKey(p.publisherId, s));
    for (const [map, key] of this.accountKeys(p)) map.delete(key);
  }

  /** The account identifiers of `p` GetUserAccountInfo finds it by, with their index. */
  private accountKeys(p: PlayerState): [Map<string, string>, string][] {
    const out: [Map<string, string>, string][] = [];
    if (p.contactEmail) out.push([this.email, Indexes.nameKey(p.publisherId, p.contactEmail.toLowerCase())]);
    if (p.username) out.push([this.username, Indexes.nameKey(p.publisherId, p.username)]);
    for (const [titleId, t] of Object.entries(p.titles)) {
      const name = titleDisplayName(p, t);
      if (name) out.push([this.titleDisplayName, Indexes.nameKey(titleId, name)]);
    }
    return out;
  }
}

/** The player's display name in a title: the title's own, else the player's. */
export function titleDisplayName(p: PlayerState, t: PlayerTitleState): string | undefined {
  return t.displayName ?? p.displayName;
}

/** Timestamps in results are ISO 8601 without an offset (spec samples), except TokenExpiration. */
export function isoNoZone(ms: number): string {
  return new Date(ms).toISOString().slice(0, -1);
}

export function isoUtc(ms: number): string {
  return new Date(ms).toISOString();
}
