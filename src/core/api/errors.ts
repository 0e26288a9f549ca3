// PlatformError: every failure of a Platform call, with a plain-English message and a hint.
import { ErrorCodes, type ErrorName } from './types';

export type PlatformErrorKind = 'service' | 'http' | 'network' | 'timeout' | 'cancelled' | 'malformed' | 'validation' | 'throttled';

export interface PlatformErrorInit {
  kind: PlatformErrorKind;
  message: string;
  hint: string;
  operation?: string;
  httpStatus?: number;
  code?: number;
  error?: string;
  errorCode?: number;
  errorMessage?: string;
  errorDetails?: Record<string, string[]>;
  retryAfterSeconds?: number;
  retryable?: boolean;
  outcomeUnknown?: boolean;
}

export class PlatformError extends Error {
  readonly kind: PlatformErrorKind;
  readonly operation?: string;
  readonly httpStatus?: number;
  /** The `code` member of the body (the real status under X-ReportErrorAsSuccess). */
  readonly code?: number;
  readonly error?: string;
  readonly errorCode?: number;
  readonly errorMessage?: string;
  readonly errorDetails?: Record<string, string[]>;
  readonly retryAfterSeconds?: number;
  readonly retryable: boolean;
  /** True when a change may or may not have been applied (a delete that failed ambiguously). */
  readonly outcomeUnknown: boolean;
  /** What the user can do about it. */
  readonly hint: string;

  constructor(init: PlatformErrorInit) {
    super(init.message);
    this.name = 'PlatformError';
    this.kind = init.kind;
    this.operation = init.operation;
    this.httpStatus = init.httpStatus;
    this.code = init.code;
    this.error = init.error;
    this.errorCode = init.errorCode;
    this.errorMessage = init.errorMessage;
    this.errorDetails = init.errorDetails;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.retryable = init.retryable ?? false;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.hint = init.hint;
  }
}

/** A copy of `e` with some fields changed (PlatformError's fields are read-only). */
export function withChanges(e: PlatformError, patch: Partial<PlatformErrorInit>): PlatformError {
  return new PlatformError({
    kind: e.kind, message: e.message, hint: e.hint, operation: e.operation, httpStatus: e.httpStatus, code: e.code,
    error: e.error, errorCode: e.errorCode, errorMessage: e.errorMessage, errorDetails: e.errorDetails,
    retryAfterSeconds: e.retryAfterSeconds, retryable: e.retryable, outcomeUnknown: e.outcomeUnknown, ...patch,
  });
}

const CHECK_KEY = 'Check that the secret key saved for this title is the current one from the title\'s management portal, and set it again if it changed.';
const RETRY_LATER = 'Wait a moment and try again.';

/** Plain-English title and hint for every code in ErrorCodes. */
const DESCRIPTIONS: Record<ErrorName, { title: string; hint: string }> = {
  InvalidParams: { title: 'The request had invalid parameters.', hint: 'Check the fields named in the details and correct them.' },
  AccountNotFound: { title: 'No player account matches this identity.', hint: 'Check the identity, or log in with "create account" turned on to create one.' },
  AccountBanned: { title: 'The player account is banned.', hint: 'Lift the ban in the title\'s management portal if it was a mistake.' },
  InvalidTitleId: { title: 'The title ID does not match the address the request was sent to.', hint: 'Check the title ID and the service endpoint setting.' },
  EmailAddressNotAvailable: {
    title: 'The title has no notification e-mail address, so the service cannot send the export\'s download link.',
    hint: 'Configure the title\'s notification address in the title\'s management portal (the title\'s settings, e-mail), then request the export again.',
  },
  TitleNotActivated: { title: 'The title is not activated.', hint: 'Activate the title in its management portal, then try again.' },
  InvalidRequest: { title: 'The service rejected the request as invalid.', hint: 'Check the input; if it looks right, report it with the log.' },
  NotAuthenticated: { title: 'The request was not authenticated.', hint: CHECK_KEY },
  NotAuthorized: { title: 'The credentials are not allowed to do this.', hint: 'Use a secret key with the needed permissions for this title.' },
  InternalServerError: { title: 'The service had an internal error.', hint: RETRY_LATER },
  ServiceUnavailable: { title: 'The service is temporarily unavailable.', hint: RETRY_LATER },
  DownstreamServiceUnavailable: { title: 'A service the Platform depends on is temporarily unavailable.', hint: RETRY_LATER },
  ConcurrentEditError: { title: 'Someone else changed the same data at the same time.', hint: 'Try again; reload first if you were looking at old data.' },
  InvalidContentType: { title: 'The request was not sent as JSON.', hint: 'This is a bug in Platform Explorer; please report it with the log.' },
  APIClientRequestRateLimitExceeded: { title: 'Too many requests: the service is throttling this title.', hint: 'Wait for the time given, then try again with fewer identifiers at once.' },
  InvalidSignature: { title: 'The identity token\'s signature is not valid for this title.', hint: 'Check that the launcher token was issued for this title, and that the title\'s launcher key is set up.' },
  DataUpdateRateExceeded: { title: 'Data is being updated too fast.', hint: RETRY_LATER },
  EncryptionKeyMissing: { title: 'The title has no launcher encryption key set up.', hint: 'Set up the launcher key in the title\'s management portal.' },
  SecretKeyNotFound: { title: 'The service does not accept this secret key for the title.', hint: CHECK_KEY },
  PlayerSecretAlreadyConfigured: { title: 'The player secret is already configured.', hint: 'No action needed unless you meant to replace it.' },
  RequestViewConstraintParamsNotAllowed: { title: 'The requested profile fields are not allowed for this title.', hint: 'Ask for fewer profile fields, or allow them in the title\'s client profile settings.' },
  AccountDeleted: { title: 'This player account is being deleted.', hint: 'Wait until the deletion finishes (a confirmation e-mail is sent) before creating the account again.' },
  PlayerSecretNotConfigured: { title: 'The player secret is not configured.', hint: 'Configure the player secret for this title, then try again.' },
  InvalidSignatureTime: { title: 'The identity token is expired or not yet valid.', hint: 'Get a fresh launcher token and check the computer\'s clock.' },
  InvalidAuthToken: { title: 'The identity token is not valid.', hint: 'Get a fresh launcher token and paste it whole.' },
  EntityTokenMissing: { title: 'The entity token was missing.', hint: 'Try again; Platform Explorer fetches a new title token automatically.' },
  EntityTokenInvalid: { title: 'The entity token is not valid.', hint: 'Try again; if it keeps failing, check the secret key for this title.' },
  EntityTokenExpired: { title: 'The entity token has expired.', hint: 'Try again; Platform Explorer fetches a new title token automatically.' },
  EntityTokenRevoked: { title: 'The entity token was revoked.', hint: 'Try again to get a new token; if it keeps failing, check the secret key.' },
  APIConcurrentRequestLimitExceeded: { title: 'Too many requests at the same time for this title.', hint: 'Wait a moment and try again with fewer parallel requests.' },
  InvalidEntityType: { title: 'The token is of the wrong kind for this operation (add-on operations need a title token, not a player token).', hint: 'Use the title\'s secret key so Platform Explorer can get a title token.' },
  EvaluationModePlayerCountExceeded: { title: 'The title has reached its evaluation-mode player limit.', hint: 'Upgrade the title\'s plan in the management portal to add more players.' },
  LauncherNotEnabledForTitle: { title: 'Launcher login is not enabled for this title.', hint: 'Enable the Launcher add-on in the title\'s management portal.' },
  CatalogBadRequest: { title: 'The store catalog rejected the request.', hint: 'Check the add-on\'s configuration in the title\'s management portal.' },
  AddonAlreadyExists: { title: 'The add-on already exists.', hint: 'No action needed; refresh to see it.' },
  AddonDoesntExist: { title: 'The add-on does not exist (it may already have been deleted).', hint: 'Refresh the view; nothing needs deleting.' },
};

const NAME_BY_CODE = new Map<number, ErrorName>(
  (Object.entries(ErrorCodes) as [ErrorName, number][]).map(([name, code]) => [code, name]),
);

/** Plain-English title and hint for a service error, by name or numeric code. */
export function describeErrorCode(nameOrCode: string | number): { title: string; hint: string } {
  const name = typeof nameOrCode === 'number' ? NAME_BY_CODE.get(nameOrCode) : nameOrCode;
  if (name !== undefined && Object.prototype.hasOwnProperty.call(DESCRIPTIONS, name)) {
    return DESCRIPTIONS[name as ErrorName];
  }
  return { title: 'The service reported an error.', hint: 'Read the service\'s message below; if it is unclear, check the log.' };
}

const NO_SUCH_PLAYER = {
  title: 'No player with this PlatformId exists for this title (it may already have been deleted).',
  hint: 'Check the PlatformId. A player whose master account deletion has completed no longer exists, so there is nothing left to do for it.',
};

/** Where an error means something else for one operation: its own title and hint. */
const FOR_OPERATION: Readonly<Record<string, Partial<Record<ErrorName, { title: string; hint: string }>>>> = {
  DeleteMasterPlayerAccount: { AccountNotFound: NO_SUCH_PLAYER },
  GetPlayedTitleList: { AccountNotFound: NO_SUCH_PLAYER },
  ExportMasterPlayerData: { AccountNotFound: NO_SUCH_PLAYER },
  DeleteMasterPlayerEventData: { AccountNotFound: NO_SUCH_PLAYER },
  GetUserAccountInfo: {
    AccountNotFound: {
      title: 'No account matches this identifier in this title.',
      hint: 'Lookups are title-specific: a player is found only through a title the player has played. Ask each title (with its own key), or check the identifier.',
    },
  },
};

const ALREADY_QUEUED = {
  title: 'A master account deletion of this player is already queued.',
  hint: 'Nothing to do: the service e-mails the title\'s notification address when it completes. The receipt is under Deletion Jobs if it was requested from here.',
};

/**
 * Title and hint for a service error of `operation`, fitting that operation: e.g. AccountNotFound
 * on a delete means the player is gone, not "create an account"; InvalidParams for a second
 * deletion while one is queued means "wait", not "correct the fields".
 */
export function describeServiceError(operation: string | undefined, nameOrCode: string | number, serviceText = ''): { title: string; hint: string } {
  const name = typeof nameOrCode === 'number' ? NAME_BY_CODE.get(nameOrCode) : nameOrCode;
  if (operation === 'DeleteMasterPlayerAccount' && name === 'InvalidParams' && /already queued|pending deletion|already.*delet/i.test(serviceText)) {
    return ALREADY_QUEUED;
  }
  const special = operation !== undefined && name !== undefined && Object.hasOwn(FOR_OPERATION, operation)
    ? FOR_OPERATION[operation][name as ErrorName] : undefined;
  return special ?? describeErrorCode(nameOrCode);
}

/** The service error name for a numeric code, if known. */
export function errorNameOf(code: number): ErrorName | undefined {
  return NAME_BY_CODE.get(code);
}

/** Plain-English title and hint for an HTTP status without a service error code. */
export function describeHttpStatus(status: number): { title: string; hint: string } {
  switch (status) {
    case 400: return { title: 'The service rejected the request (400 Bad Request).', hint: 'Check the input values.' };
    case 401: return { title: 'The service did not accept the credentials (401 Unauthorized).', hint: CHECK_KEY };
    case 403: return { title: 'The credentials are not allowed for this title (403 Forbidden).', hint: CHECK_KEY };
    case 404: return {
      title: 'Nothing answers this operation at this address (404 Not Found).',
      hint: 'The address likely does not point at the service: check the platformExplorer.serviceEndpoint setting, or for a local emulator title, that the emulator on that port is still running (Start Local Emulator).',
    };
    case 408: return { title: 'The service timed out waiting for the request (408).', hint: RETRY_LATER };
    case 409: return { title: 'The request conflicted with a concurrent change (409).', hint: 'Try again.' };
    case 413: return { title: 'The request was too large for the service (413).', hint: 'Send fewer identifiers at once.' };
    case 429: return { title: 'The service is throttling requests (429 Too Many Requests).', hint: 'Wait for the time given, then try again.' };
    default:
      break;
  }
  if (status >= 500 && status <= 599) {
    return { title: `The service had a problem (HTTP ${status}).`, hint: RETRY_LATER };
  }
  if (status >= 400 && status <= 499) {
    return { title: `The service rejected the request (HTTP ${status}).`, hint: 'Check the input and the service endpoint setting.' };
  }
  if (status >= 300 && status <= 399) {
    return { title: `The service answered with a redirect (HTTP ${status}), which is not expected.`, hint: 'Check the service endpoint setting; a proxy or wrong address may be in the way.' };
  }
  if (status >= 200 && status <= 299) {
    return { title: `The service answered HTTP ${status} without a usable body.`, hint: 'Check the service endpoint setting; a proxy may be in the way.' };
  }
  return { title: `The service answered with an unexpected HTTP status ${status}.`, hint: 'Check the service endpoint setting.' };
}

/**
 * True for a cancellation by the user (a PlatformError of kind 'cancelled' or a raw AbortError).
 * A cancelled delete whose outcome is unknown is not one: the user must still be told.
 */
export function isCancellation(e: unknown): boolean {
  if (e instanceof PlatformError) {
    return e.kind === 'cancelled' && !e.outcomeUnknown;
  }
  return typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'AbortError';
}
