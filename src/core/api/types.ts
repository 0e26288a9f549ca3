// The Platform API's request and result shapes, with the spec's member names.
// Shared by the client (src/core), the extension and the emulator (types only).
// Members the spec marks "not shown" as always-present are optional here.

/** Every operation this product calls, as `<Area>/<Operation>`. */
export const Operations = {
  DeleteMasterPlayerAccount: 'Admin/DeleteMasterPlayerAccount',
  GetPlayedTitleList: 'Admin/GetPlayedTitleList',
  LoginWithLauncher: 'Server/LoginWithLauncher',
  GetPlatformIDsFromConsoleLiveIDs: 'Server/GetPlatformIDsFromConsoleLiveIDs',
  GetPlatformIDsFromStorefrontNames: 'Server/GetPlatformIDsFromStorefrontNames',
  GetHandheldStore: 'Addon/GetHandheldStore',
  DeleteMobileStore: 'Addon/DeleteMobileStore',
  DeleteConsoleNetB: 'Addon/DeleteConsoleNetB',
  GetEntityToken: 'Authentication/GetEntityToken',
} as const;
export type OperationName = keyof typeof Operations;
export type OperationPath = (typeof Operations)[OperationName];

/** Lookups send at most this many identifiers per request (spec + api-facts). */
export const MAX_IDS_PER_LOOKUP = 25;
/** Default Sandbox for ConsoleLive lookups (case-sensitive free text). */
export const DEFAULT_SANDBOX = 'RETAIL';

/** Service error names and their numeric codes (spec table + api-facts.md). */
export const ErrorCodes = {
  InvalidParams: 1000,
  AccountNotFound: 1001,
  AccountBanned: 1002,
  InvalidTitleId: 1004,
  InvalidRequest: 1071,
  NotAuthenticated: 1074,
  NotAuthorized: 1089,
  InternalServerError: 1110,
  ServiceUnavailable: 1123,
  DownstreamServiceUnavailable: 1127,
  ConcurrentEditError: 1133,
  InvalidContentType: 1144,
  APIClientRequestRateLimitExceeded: 1199,
  InvalidSignature: 1273,
  DataUpdateRateExceeded: 1287,
  EncryptionKeyMissing: 1290,
  SecretKeyNotFound: 1293,
  PlayerSecretAlreadyConfigured: 1294,
  RequestViewConstraintParamsNotAllowed: 1303,
  AccountDeleted: 1322,
  PlayerSecretNotConfigured: 1323,
  InvalidSignatureTime: 1324,
  InvalidAuthToken: 1326,
  EntityTokenMissing: 1334,
  EntityTokenInvalid: 1335,
  EntityTokenExpired: 1336,
  EntityTokenRevoked: 1337,
  APIConcurrentRequestLimitExceeded: 1342,
  InvalidEntityType: 1373,
  EvaluationModePlayerCountExceeded: 1490,
  LauncherNotEnabledForTitle: 1602,
  CatalogBadRequest: 4013,
  AddonAlreadyExists: 19008,
  AddonDoesntExist: 19009,
} as const;
export type ErrorName = keyof typeof ErrorCodes;

// ---- Envelopes -------------------------------------------------------------

export interface SuccessEnvelope<T> {
  code: number;
  status: string;
  data: T;
}

export interface ErrorWrapper {
  code: number;
  status?: string;
  error?: string;
  errorCode: number;
  errorMessage?: string;
  /** Maps a request field to a list of messages. */
  errorDetails?: Record<string, string[]>;
  /** Present on throttled answers. */
  retryAfterSeconds?: number;
}

// ---- Entities and tokens ----------------------------------------------------

export interface EntityKey {
  Id: string;
  /** `title` for title tokens, `title_player_account` for player tokens. */
  Type: string;
  TypeString?: string;
}

export interface EntityTokenResult {
  EntityToken: string;
  /** ISO 8601 UTC with trailing Z. */
  TokenExpiration: string;
  Entity: EntityKey;
}

// ---- Admin ------------------------------------------------------------------

export interface DeleteMasterPlayerAccountRequest {
  PlatformId: string;
  MetaData?: string;
}

export interface DeleteMasterPlayerAccountResult {
  JobReceiptId: string;
  TitleIds: string[];
}

export interface GetPlayedTitleListRequest {
  PlatformId: string;
}

export interface GetPlayedTitleListResult {
  TitleIds: string[];
}

// ---- Server: launcher login -------------------------------------------------

export interface PlayerProfileViewConstraints {
  ShowDisplayName?: boolean;
  ShowCreated?: boolean;
  ShowLastLogin?: boolean;
  ShowBannedUntil?: boolean;
  ShowTotalValueToDateInUsd?: boolean;
  [flag: string]: boolean | undefined;
}

export interface InfoRequestParameters {
  GetUserAccountInfo?: boolean;
  GetUserInventory?: boolean;
  GetUserVirtualCurrency?: boolean;
  GetUserData?: boolean;
  GetUserReadOnlyData?: boolean;
  GetCharacterInventories?: boolean;
  GetCharacterList?: boolean;
  GetTitleData?: boolean;
  GetPlayerStatistics?: boolean;
  GetPlayerProfile?: boolean;
  UserDataKeys?: string[];
  UserReadOnlyDataKeys?: string[];
  TitleDataKeys?: string[];
  PlayerStatisticNames?: string[];
  ProfileConstraints?: PlayerProfileViewConstraints;
}

export interface LoginWithLauncherRequest {
  IdentityToken: string;
  CreateAccount?: boolean;
  CustomTags?: Record<string, string>;
  InfoRequestParameters?: InfoRequestParameters;
}

export interface TitleInfo {
  Origination?: string;
  Created?: string;
  LastLogin?: string;
  FirstLogin?: string;
  TitlePlayerAccount?: EntityKey;
}

export interface AccountInfo {
  PlatformId?: string;
  Created?: string;
  Username?: string;
  TitleInfo?: TitleInfo;
  /** Per-provider info objects (e.g. LauncherInfo); members beyond samples not shown. */
  [providerInfo: string]: unknown;
}

export interface VirtualCurrencyRechargeTime {
  SecondsToRecharge?: number;
  RechargeTime?: string;
  RechargeMax?: number;
}

export interface UserDataRecord {
  Value?: string;
  LastUpdated?: string;
  Permission?: string;
}

export interface PlayerProfile {
  TitleId?: string;
  PlayerId?: string;
  Created?: string;
  LastLogin?: string;
  BannedUntil?: string;
  DisplayName?: string;
  TotalValueToDateInUSD?: number;
}

export interface InfoResultPayload {
  AccountInfo?: AccountInfo;
  UserVirtualCurrency?: Record<string, number>;
  UserVirtualCurrencyRechargeTimes?: Record<string, VirtualCurrencyRechargeTime>;
  UserData?: Record<string, UserDataRecord>;
  UserDataVersion?: number;
  PlayerProfile?: PlayerProfile;
}

export interface SettingsForUser {
  GatherDeviceInfo?: boolean;
  GatherFocusInfo?: boolean;
  NeedsAttribution?: boolean;
}

export interface TreatmentAssignment {
  Variables?: { Name: string; Value: string }[];
  Variants?: string[];
}

export interface LoginResult {
  NewlyCreated?: boolean;
  EntityToken?: EntityTokenResult;
  InfoResultPayload?: InfoResultPayload;
  LastLoginTime?: string;
  PlatformId?: string;
  SessionTicket?: string;
  SettingsForUser?: SettingsForUser;
  TreatmentAssignment?: TreatmentAssignment;
}

// ---- Server: identifier lookups ---------------------------------------------

export interface GetPlatformIDsFromConsoleLiveIDsRequest {
  ConsoleLiveAccountIDs: string[];
  Sandbox: string;
}

export interface ConsoleLivePlatformIdPair {
  ConsoleLiveAccountId: string;
  /** null when the identifier is not linked to an account. */
  PlatformId: string | null;
}

export interface GetPlatformIDsFromStorefrontNamesRequest {
  StorefrontNames: string[];
}

export interface StorefrontPlatformIdPair {
  StorefrontName: string;
  /** null when the name is not linked to an account. */
  PlatformId: string | null;
}

/** Wire shape of both lookup results: `data.Data`; entries may be null. */
export interface LookupResult<T> {
  Data: (T | null)[];
}

// ---- Addon -------------------------------------------------------------------

export interface HandheldStoreEnvironment {
  ClientID?: string;
  /** The service omits it (null or absent); never shown by this product either way. */
  ClientSecret?: string | null;
  ID?: string;
}

export interface HandheldStoreConfig {
  Created: boolean;
  ApplicationID?: string;
  Environments?: HandheldStoreEnvironment[];
  SecondarySubscriptionEnvironments?: HandheldStoreEnvironment[];
  SubscriptionEnvironments?: HandheldStoreEnvironment[];
}

/** Body of every Addon request (may be empty). */
export interface AddonRequest {
  CustomTags?: Record<string, string>;
  Entity?: EntityKey;
}

export type EmptyResult = Record<string, never>;
