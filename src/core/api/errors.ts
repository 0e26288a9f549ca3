// PlatformError: every failure of a Platform call, with a plain-English message and a hint.
import { brand } from '../brand';
import { CHECK_KEY, GENERAL, RETRY_LATER, type ErrorText } from './errorTexts';
import { OPERATIONS, type OperationName } from './operations';
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
  /** Attempts made and time spent in all, when the call was retried (retryReport.ts). */
  attempts?: number;
  elapsedMs?: number;
  /** The path the request was sent to (our own text, from the endpoint setting): shown as it is, known secrets only masked. */
  path?: string;
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
  readonly attempts?: number;
  readonly elapsedMs?: number;
  readonly path?: string;

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
    this.attempts = init.attempts;
    this.elapsedMs = init.elapsedMs;
    this.path = init.path;
    this.hint = init.hint;
  }
}
brand(PlatformError, 'PlatformError');

/** A copy of `e` with some fields changed (PlatformError's fields are read-only). */
export function withChanges(e: PlatformError, patch: Partial<PlatformErrorInit>): PlatformError {
  return new PlatformError({
    kind: e.kind, message: e.message, hint: e.hint, operation: e.operation, httpStatus: e.httpStatus, code: e.code,
    error: e.error, errorCode: e.errorCode, errorMessage: e.errorMessage, errorDetails: e.errorDetails,
    retryAfterSeconds: e.retryAfterSeconds, retryable: e.retryable, outcomeUnknown: e.outcomeUnknown, attempts: e.attempts, elapsedMs: e.elapsedMs, path: e.path, ...patch,
  });
}

/** Plain-English title and hint for every code in ErrorCodes (the rows carry their own: errorTexts.ts). */
const DESCRIPTIONS: Record<ErrorName, ErrorText> = GENERAL;

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
  // The operation's row carries its texts for the codes it documents (operations.ts).
  const texts = operation !== undefined && Object.hasOwn(OPERATIONS, operation) ? OPERATIONS[operation as OperationName].errors : undefined;
  return texts !== undefined && name !== undefined && Object.hasOwn(texts, name) ? texts[name] : describeErrorCode(nameOrCode);
}

/** The service error name for a numeric code, if known. */
export function errorNameOf(code: number): ErrorName | undefined {
  return NAME_BY_CODE.get(code);
}

/** A request path as shown: at most 200 characters, control characters as spaces (not masked: it is ours). */
const shownPath = (p: string): string => (p.length > 200 ? `${p.slice(0, 200)}…` : p).replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');

/**
 * Plain-English title and hint for an HTTP status without a service error code. `path`, the path
 * the request went to, is our own text (from the endpoint setting): a 404 shows it as it is, since
 * it is what shows a wrong endpoint.
 */
// eslint-disable-next-line complexity -- a switch with one case per HTTP status
export function describeHttpStatus(status: number, path?: string): { title: string; hint: string } {
  switch (status) {
    case 400: return { title: 'The service rejected the request (400 Bad Request).', hint: 'Check the input values.' };
    case 401: return { title: 'The service did not accept the credentials (401 Unauthorized).', hint: CHECK_KEY };
    case 403: return { title: 'The credentials are not allowed for this title (403 Forbidden).', hint: CHECK_KEY };
    case 404: return {
      title: path === undefined ? 'Nothing answers this operation at this address (404 Not Found).' : `Nothing answers POST ${shownPath(path)} at this address (404 Not Found).`,
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
