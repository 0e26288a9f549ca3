// The Platform API's request and result shapes, with the spec's member names.
// Shared by the client (src/core), the extension and the emulator (types only).
// Request and result types are inferred from the operation table (operations.ts); the names here
// are the ones the rest of the product uses.
import type { RequestOf, ResultOf } from './operations';

export {
  MAX_IDS_PER_LOOKUP, Operations, type OperationName, type OperationPath, type RequestOf, type ResultOf,
} from './operations';

/** The store add-ons a title may have. */
export const ADDON_NAMES = ['HandheldStore', 'MobileStore', 'ConsoleNetB'] as const;
export type AddonName = (typeof ADDON_NAMES)[number];

/** Default Sandbox for ConsoleLive lookups (case-sensitive free text). */
export const DEFAULT_SANDBOX = 'RETAIL';

/** Service error names and their numeric codes (spec table + docs/service-behaviour.md). */
export const ErrorCodes = {
  InvalidParams: 1000,
  AccountNotFound: 1001,
  AccountBanned: 1002,
  InvalidTitleId: 1004,
  EmailAddressNotAvailable: 1006,
  TitleNotActivated: 1042,
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

// ---- Requests and results (inferred from the operation table) ----------------

/** A GetEntityToken answer once checked: it carries a token (a tokenless answer is refused). */
export type EntityTokenResult = ResultOf<'GetEntityToken'> & { EntityToken: string };

export type DeleteMasterPlayerAccountRequest = RequestOf<'DeleteMasterPlayerAccount'>;
/** TitleIds is always a list here (empty when the service sent none); JobReceiptId may be absent. */
export type DeleteMasterPlayerAccountResult = ResultOf<'DeleteMasterPlayerAccount'> & { TitleIds: string[] };
export type GetPlayedTitleListResult = ResultOf<'GetPlayedTitleList'> & { TitleIds: string[] };
export type GetUserAccountInfoRequest = RequestOf<'GetUserAccountInfo'>;
export type GetUserAccountInfoResult = ResultOf<'GetUserAccountInfo'>;
export type UserAccountInfo = NonNullable<GetUserAccountInfoResult['UserInfo']>;
/** JobReceiptId may be absent (the description makes it optional). */
export type ExportMasterPlayerDataResult = ResultOf<'ExportMasterPlayerData'>;

export type LoginWithLauncherRequest = RequestOf<'LoginWithLauncher'>;
/** What a caller may ask for: every flag optional (the client sends the ones left out as false). */
export type InfoRequestParameters = Partial<NonNullable<LoginWithLauncherRequest['InfoRequestParameters']>>;
export type PlayerProfileViewConstraints = NonNullable<NonNullable<LoginWithLauncherRequest['InfoRequestParameters']>['ProfileConstraints']>;
/** A login request as callers write it: info flags and constraints left out mean false. */
export type LoginRequestInput = Omit<LoginWithLauncherRequest, 'InfoRequestParameters'> & {
  InfoRequestParameters?: Omit<InfoRequestParameters, 'ProfileConstraints'> & { ProfileConstraints?: Partial<PlayerProfileViewConstraints> };
};
export type LoginResult = ResultOf<'LoginWithLauncher'>;
export type InfoResultPayload = NonNullable<LoginResult['InfoResultPayload']>;
export type AccountInfo = NonNullable<InfoResultPayload['AccountInfo']>;
export type PlayerProfile = NonNullable<InfoResultPayload['PlayerProfile']>;
export type UserDataRecord = NonNullable<InfoResultPayload['UserData']>[string];
export type ItemInstance = NonNullable<InfoResultPayload['UserInventory']>[number];

export interface ConsoleLivePlatformIdPair {
  ConsoleLiveAccountId: string;
  /** null when the identifier is not linked to an account. */
  PlatformId: string | null;
}

export interface StorefrontPlatformIdPair {
  StorefrontName: string;
  /** null when the name is not linked to an account. */
  PlatformId: string | null;
}

export type HandheldStoreConfig = ResultOf<'GetHandheldStore'>;
export type HandheldStoreEnvironment = NonNullable<HandheldStoreConfig['Environments']>[number];
