// The operation table: one row per operation of the service (path, credential, mutating or not,
// request and result schemas; the types are inferred from them). The client's one entry point reads
// the row (client.read / client.mutate: the request and answer types, the checks, never re-sending a
// mutation), the emulator dispatches and checks requests by it, the contract tests compare it with
// the published description, and Activity, the agent tools and the tests' call lists derive from it.
// Shapes follow docs/api-schema.json: a member it marks optional is optional here, unknown members
// pass through; where the spec (platform-api.md) names members the description lacks, they stay.
//
// Adding an operation (measured: 5 places by hand, package.json + nls counted as one):
//   1. its row below, as docs/api-schema.json describes it (a copy of ../shared/api-schema.json,
//      never edited by hand: `node scripts/check-api-schema.mjs --write`; test/unit/contract says
//      which member differs), with its error texts (`errors`: the compiler asks for AccountNotFound
//      and InvalidParams, the contract test for each error the description documents);
//   2. its handler in the emulator's area file (src/emulator/areas/: the compiler asks for it);
//   3. call it: client.read('Name', {...}) or client.mutate('Name', {...}); a client method only
//      where it adds behaviour (chunking, defaults, a cache);
//   4. a command that users need: its file in src/extension/commands/ ending in
//      `export const xCommand = defineCommand({ id, title, menus…, operations: ['Name'], parse, handler })`,
//      then `node scripts/check-commands.mjs --write` (generates its package.json and
//      package.nls.json entries, commandIds.ts and commands/all.ts); and its test.
import {
  anyValue, array, bool, int, map, nullable, object, optional, str, timestamp, type Infer, type Member, type Schema,
} from './schema';
import {
  general, NO_SUCH_PLAYER, NO_TITLE_ACCOUNT, NOT_IN_THIS_TITLE, NOT_LINKED, TOKEN_ERRORS, type ErrorTexts,
} from './errorTexts';

/** Lookups send at most this many identifiers per request (spec + published description). */
export const MAX_IDS_PER_LOOKUP = 25;

/** The credential headers an operation may accept. */
export type CredentialHeader = 'X-SecretKey' | 'X-EntityToken' | 'X-Authorization';

export interface OperationSpec<P extends string = string, Req = unknown, Res = unknown, M extends boolean = boolean> {
  /** `<Area>/<Operation>`, POSTed under the title's base URL. */
  readonly path: P;
  /** Accepted credentials; the client sends the first one it has (the secret key, else a title token). */
  readonly auth: readonly CredentialHeader[];
  /** An X-EntityToken must be of this entity type (else InvalidEntityType 1373). */
  readonly entityType?: 'title';
  /** Changes state: never re-sent after an ambiguous failure. */
  readonly mutating: M;
  readonly request: Schema<Req>;
  readonly result: Schema<Res>;
  /**
   * What each error means for this operation, in the user's words (errorTexts.ts): AccountNotFound,
   * InvalidParams and every error its description documents (test/unit/contract names a missing one).
   */
  readonly errors: ErrorTexts;
}

function op<P extends string, Req, Res, M extends boolean>(spec: OperationSpec<P, Req, Res, M>): OperationSpec<P, Req, Res, M> {
  return spec;
}

// ---- Shared shapes ------------------------------------------------------------------------

const entityKey = object({ Id: str, Type: optional(str), TypeString: optional(str) });
const entityTokenResponse = object({
  EntityToken: optional(str),
  /** ISO 8601 UTC; absent for a token that does not expire. */
  TokenExpiration: optional(timestamp),
  Entity: optional(entityKey),
});
const addonRequest = object({ CustomTags: optional(map(str)), Entity: optional(entityKey) });
const stringList = array(str);

// ---- Launcher login ---------------------------------------------------------------------

/** The 17 ProfileConstraints flags of the published description. */
export const PROFILE_CONSTRAINT_FLAGS = [
  'ShowAvatarUrl', 'ShowBannedUntil', 'ShowCampaignAttributions', 'ShowContactEmailAddresses', 'ShowCreated',
  'ShowDisplayName', 'ShowExperimentVariants', 'ShowLastLogin', 'ShowLinkedAccounts', 'ShowLocations',
  'ShowMemberships', 'ShowOrigination', 'ShowPushNotificationRegistrations', 'ShowStatistics', 'ShowTags',
  'ShowTotalValueToDateInUsd', 'ShowValuesToDate',
] as const;
export type ProfileConstraintFlag = (typeof PROFILE_CONSTRAINT_FLAGS)[number];

/** The ten info flags of InfoRequestParameters (marked required by the published description, yet an absent flag reads as false: docs/service-behaviour.md). */
export const INFO_REQUEST_FLAGS = [
  'GetUserAccountInfo', 'GetUserInventory', 'GetUserVirtualCurrency', 'GetUserData', 'GetUserReadOnlyData',
  'GetCharacterInventories', 'GetCharacterList', 'GetTitleData', 'GetPlayerStatistics', 'GetPlayerProfile',
] as const;
export type InfoRequestFlag = (typeof INFO_REQUEST_FLAGS)[number];

/** Request flags: the service accepts partial objects and reads an absent flag as false. */
function flags<F extends string>(names: readonly F[]): Record<F, Member<boolean> & { readonly required: false }> {
  return Object.fromEntries(names.map((f) => [f, optional(bool)])) as Record<F, Member<boolean> & { readonly required: false }>;
}
const profileConstraints = object(flags(PROFILE_CONSTRAINT_FLAGS));
const infoRequestParameters = object({
  ...flags(INFO_REQUEST_FLAGS),
  UserDataKeys: optional(stringList),
  UserReadOnlyDataKeys: optional(stringList),
  TitleDataKeys: optional(stringList),
  PlayerStatisticNames: optional(stringList),
  ProfileConstraints: optional(profileConstraints),
});

const userDataRecord = object({ LastUpdated: timestamp, Value: optional(str), Permission: optional(str) });
const itemInstance = object({
  ItemId: optional(str), ItemInstanceId: optional(str), ItemClass: optional(str), DisplayName: optional(str),
  CatalogVersion: optional(str), PurchaseDate: optional(timestamp), Expiration: optional(timestamp),
  RemainingUses: optional(int), UsesIncrementedBy: optional(int), UnitCurrency: optional(str), UnitPrice: int,
  Annotation: optional(str), BundleParent: optional(str), BundleContents: optional(stringList), CustomData: optional(map(str)),
});
const userTitleInfo = object({
  Created: timestamp, Origination: optional(str), LastLogin: optional(timestamp), FirstLogin: optional(timestamp),
  DisplayName: optional(str), AvatarUrl: optional(str), isBanned: optional(bool), TitlePlayerAccount: optional(entityKey),
});
/** A provider's info object: shown member by member, whatever members it has. */
const providerInfo = map(anyValue);
const userAccountInfo = object({
  Created: timestamp,
  PlatformId: optional(str),
  Username: optional(str),
  TitleInfo: optional(userTitleInfo),
  PrivateInfo: optional(object({ Email: optional(str) })),
  LauncherAccountInfo: optional(object({ LauncherAccountId: optional(str), LauncherTag: optional(str) })),
  ConsoleLiveInfo: optional(providerInfo),
  StorefrontInfo: optional(providerInfo),
  MobileStoreInfo: optional(providerInfo),
  HandheldStoreAccountInfo: optional(providerInfo),
  HandheldStoreDeviceIdInfo: optional(providerInfo),
  ConsoleNetBInfo: optional(providerInfo),
  CustomIdInfo: optional(providerInfo),
  ServerCustomIdInfo: optional(providerInfo),
});
const statisticValue = object({ StatisticName: optional(str), Value: int, Version: int });
const playerProfile = object({
  TitleId: optional(str), PlayerId: optional(str), PublisherId: optional(str),
  DisplayName: optional(str), AvatarUrl: optional(str), Origination: optional(str),
  Created: optional(timestamp), LastLogin: optional(timestamp), BannedUntil: optional(timestamp),
  /** Whole US cents. */
  TotalValueToDateInUSD: optional(int),
  Tags: optional(array(object({ TagValue: optional(str) }))),
  LinkedAccounts: optional(array(object({
    Platform: optional(str), PlatformUserId: optional(str), Username: optional(str), Email: optional(str),
  }))),
  ValuesToDate: optional(array(object({ Currency: optional(str), TotalValue: int, TotalValueAsDecimal: optional(str) }))),
  Statistics: optional(array(object({ Name: optional(str), Value: int, Version: int }))),
  ExperimentVariants: optional(stringList),
  // Shown as they come (member by member): each is a list of plain records.
  AdCampaignAttributions: optional(array(map(anyValue))),
  ContactEmailAddresses: optional(array(map(anyValue))),
  Locations: optional(array(map(anyValue))),
  Memberships: optional(array(map(anyValue))),
  PushNotificationRegistrations: optional(array(map(anyValue))),
});
const infoResultPayload = object({
  AccountInfo: optional(userAccountInfo),
  UserInventory: optional(array(itemInstance)),
  UserVirtualCurrency: optional(map(int)),
  UserVirtualCurrencyRechargeTimes: optional(map(object({ SecondsToRecharge: int, RechargeTime: timestamp, RechargeMax: int }))),
  UserData: optional(map(userDataRecord)),
  UserDataVersion: int,
  UserReadOnlyData: optional(map(userDataRecord)),
  UserReadOnlyDataVersion: int,
  CharacterList: optional(array(object({ CharacterId: optional(str), CharacterName: optional(str), CharacterType: optional(str) }))),
  CharacterInventories: optional(array(object({ CharacterId: optional(str), Inventory: optional(array(itemInstance)) }))),
  TitleData: optional(map(str)),
  PlayerStatistics: optional(array(statisticValue)),
  PlayerProfile: optional(playerProfile),
});

// ---- Lookups and add-ons ------------------------------------------------------------------

// An unlinked identifier's entry (or its PlatformId) may be null; the client maps entries back to inputs.
const consoleLiveLookupResult = object({
  Data: optional(array(nullable(object({ ConsoleLiveAccountId: optional(str), PlatformId: optional(nullable(str)) })))),
});
const storefrontLookupResult = object({
  Data: optional(array(nullable(object({ StorefrontName: optional(str), PlatformId: optional(nullable(str)) })))),
});

const handheldStoreEnvironment = object({ ClientID: optional(str), ClientSecret: optional(anyValue), ID: optional(str) });

// ---- The table -----------------------------------------------------------------------------

export const OPERATIONS = {
  DeleteMasterPlayerAccount: op({
    path: 'Admin/DeleteMasterPlayerAccount', auth: ['X-SecretKey'], mutating: true,
    request: object({ PlatformId: str, MetaData: optional(str) }),
    result: object({ JobReceiptId: optional(str), TitleIds: optional(stringList) }),
    errors: { ...general('InvalidParams'), AccountNotFound: NO_SUCH_PLAYER },
  }),
  GetUserAccountInfo: op({
    path: 'Admin/GetUserAccountInfo', auth: ['X-SecretKey'], mutating: false,
    // Exactly one of the four (accountLookup.ts); the description marks each optional.
    request: object({ PlatformId: optional(str), Email: optional(str), Username: optional(str), TitleDisplayName: optional(str) }),
    result: object({ UserInfo: optional(userAccountInfo) }),
    errors: { ...general('InvalidParams', 'TitleNotActivated'), AccountNotFound: NOT_IN_THIS_TITLE },
  }),
  ExportMasterPlayerData: op({
    path: 'Admin/ExportMasterPlayerData', auth: ['X-SecretKey'], mutating: true,
    request: object({ PlatformId: str }),
    // The data comes later, as a download link (the player_data_exported event or the e-mail).
    result: object({ JobReceiptId: optional(str) }),
    errors: { ...general('InvalidParams', 'EmailAddressNotAvailable'), AccountNotFound: NO_SUCH_PLAYER },
  }),
  DeleteMasterPlayerEventData: op({
    path: 'Admin/DeleteMasterPlayerEventData', auth: ['X-SecretKey'], mutating: true,
    request: object({ PlatformId: str }),
    // Queued; no receipt, no completion signal.
    result: object({}),
    errors: { ...general('InvalidParams'), AccountNotFound: NO_SUCH_PLAYER },
  }),
  GetPlayedTitleList: op({
    path: 'Admin/GetPlayedTitleList', auth: ['X-SecretKey'], mutating: false,
    request: object({ PlatformId: str }),
    result: object({ TitleIds: optional(stringList) }),
    errors: { ...general('InvalidParams'), AccountNotFound: NO_SUCH_PLAYER },
  }),
  LoginWithLauncher: op({
    path: 'Server/LoginWithLauncher', auth: ['X-SecretKey'], mutating: false,
    request: object({
      IdentityToken: str,
      CreateAccount: optional(bool),
      CustomTags: optional(map(str)),
      InfoRequestParameters: optional(infoRequestParameters),
      LoginTitlePlayerAccountEntity: optional(bool),
    }),
    result: object({
      NewlyCreated: bool,
      EntityToken: optional(entityTokenResponse),
      InfoResultPayload: optional(infoResultPayload),
      LastLoginTime: optional(timestamp),
      PlatformId: optional(str),
      SessionTicket: optional(str),
      SettingsForUser: optional(object({ GatherDeviceInfo: bool, GatherFocusInfo: bool, NeedsAttribution: bool })),
      TreatmentAssignment: optional(object({
        Variables: optional(array(object({ Name: str, Value: optional(str) }))),
        Variants: optional(stringList),
      })),
    }),
    // An unknown identity: log in with CreateAccount to create one (the general text).
    errors: general(
      'AccountNotFound', 'InvalidParams', 'LauncherNotEnabledForTitle', 'EncryptionKeyMissing', 'EvaluationModePlayerCountExceeded', 'InvalidAuthToken',
      'InvalidSignature', 'InvalidSignatureTime', 'InvalidTitleId', 'PlayerSecretAlreadyConfigured', 'PlayerSecretNotConfigured', 'RequestViewConstraintParamsNotAllowed',
    ),
  }),
  GetPlatformIDsFromConsoleLiveIDs: op({
    path: 'Server/GetPlatformIDsFromConsoleLiveIDs', auth: ['X-SecretKey'], mutating: false,
    request: object({ ConsoleLiveAccountIDs: array(str, { min: 1, max: MAX_IDS_PER_LOOKUP }), Sandbox: optional(str) }),
    result: consoleLiveLookupResult,
    errors: { ...general('InvalidParams'), AccountNotFound: NOT_LINKED },
  }),
  GetPlatformIDsFromStorefrontNames: op({
    path: 'Server/GetPlatformIDsFromStorefrontNames', auth: ['X-SecretKey'], mutating: false,
    request: object({ StorefrontNames: array(str, { min: 1, max: MAX_IDS_PER_LOOKUP }) }),
    result: storefrontLookupResult,
    errors: { ...general('InvalidParams'), AccountNotFound: NOT_LINKED },
  }),
  GetHandheldStore: op({
    path: 'Addon/GetHandheldStore', auth: ['X-EntityToken'], entityType: 'title', mutating: false,
    request: addonRequest,
    result: object({
      Created: bool,
      ApplicationID: optional(str),
      Environments: optional(array(handheldStoreEnvironment)),
      SecondarySubscriptionEnvironments: optional(array(handheldStoreEnvironment)),
      SubscriptionEnvironments: optional(array(handheldStoreEnvironment)),
    }),
    errors: { ...general('InvalidParams', 'InvalidEntityType', 'InvalidTitleId'), AccountNotFound: NO_TITLE_ACCOUNT },
  }),
  DeleteMobileStore: op({
    path: 'Addon/DeleteMobileStore', auth: ['X-EntityToken'], entityType: 'title', mutating: true,
    request: addonRequest, result: object({}),
    errors: { ...general('InvalidParams', 'InvalidEntityType', 'InvalidTitleId', 'AddonDoesntExist', 'CatalogBadRequest'), AccountNotFound: NO_TITLE_ACCOUNT },
  }),
  DeleteConsoleNetB: op({
    path: 'Addon/DeleteConsoleNetB', auth: ['X-EntityToken'], entityType: 'title', mutating: true,
    request: addonRequest, result: object({}),
    errors: { ...general('InvalidParams', 'InvalidEntityType', 'InvalidTitleId', 'AddonDoesntExist', 'CatalogBadRequest'), AccountNotFound: NO_TITLE_ACCOUNT },
  }),
  GetEntityToken: op({
    path: 'Authentication/GetEntityToken', auth: ['X-SecretKey', 'X-EntityToken', 'X-Authorization'], mutating: false,
    request: addonRequest,
    // The token itself is what the product needs; everything else may be absent.
    result: object({ EntityToken: optional(str), TokenExpiration: optional(timestamp), Entity: optional(entityKey) }),
    errors: { ...general('InvalidParams'), ...TOKEN_ERRORS, AccountNotFound: NO_TITLE_ACCOUNT },
  }),
};

export type OperationTable = typeof OPERATIONS;
export type OperationName = keyof OperationTable;
export type OperationPath = OperationTable[OperationName]['path'];
export type RequestOf<N extends OperationName> = Infer<OperationTable[N]['request']>;
export type ResultOf<N extends OperationName> = Infer<OperationTable[N]['result']>;
/** The operations that change nothing: the only ones a read path (client.read, Activity's re-run, agent tools) may send. */
export type ReadOperation = { [N in OperationName]: OperationTable[N]['mutating'] extends false ? N : never }[OperationName];
/** The operations that change state: sent only through client.mutate, never re-sent after an ambiguous failure. */
export type MutatingOperation = Exclude<OperationName, ReadOperation>;

/** Every operation's path by name. */
export const Operations = Object.fromEntries(
  Object.entries(OPERATIONS).map(([name, spec]) => [name, spec.path]),
) as { readonly [N in OperationName]: OperationTable[N]['path'] };

const BY_PATH = new Map<string, OperationName>(Object.entries(OPERATIONS).map(([name, spec]) => [spec.path, name as OperationName]));

/** The operation at `path` (`<Area>/<Operation>`), if the table has it. */
export function operationAt(path: string): OperationName | undefined {
  return BY_PATH.get(path);
}
