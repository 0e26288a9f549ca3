// Turning an HTTP answer into a typed result or a PlatformError.
// The body is classified first (X-ReportErrorAsSuccess puts the real status only there), the HTTP
// status second. Every shape problem becomes a PlatformError of kind 'malformed', never a TypeError.
import { describeHttpStatus, describeServiceError, errorNameOf, PlatformError, type PlatformErrorKind } from './errors';
import { isPlainObject, put } from './schema';
import { ErrorCodes } from './types';
import { redactionCut } from '../redact';

/** In the service's never-retry list without a name. */
const UNNAMED_NEVER_RETRY_CODE = 1191;

/** Error codes the service may answer and that may be retried (docs/service-behaviour.md). */
const RETRYABLE_ERROR_CODES: ReadonlySet<number> = new Set([
  ErrorCodes.APIClientRequestRateLimitExceeded, ErrorCodes.APIConcurrentRequestLimitExceeded,
  ErrorCodes.ConcurrentEditError, ErrorCodes.DataUpdateRateExceeded,
  ErrorCodes.DownstreamServiceUnavailable, ErrorCodes.ServiceUnavailable,
]);
/** Error codes that must never be retried, whatever the HTTP status (docs/service-behaviour.md). */
const NEVER_RETRY_ERROR_CODES: ReadonlySet<number> = new Set([
  ErrorCodes.InvalidParams, ErrorCodes.AccountNotFound, ErrorCodes.AccountBanned, ErrorCodes.InvalidTitleId,
  ErrorCodes.InvalidRequest, ErrorCodes.NotAuthenticated, ErrorCodes.NotAuthorized, ErrorCodes.AccountDeleted,
  ErrorCodes.InvalidEntityType,
  // The service's never-retry list names this code without giving its name.
  UNNAMED_NEVER_RETRY_CODE,
]);
const THROTTLE_ERROR_CODES: ReadonlySet<number> = new Set([
  ErrorCodes.APIClientRequestRateLimitExceeded, ErrorCodes.APIConcurrentRequestLimitExceeded, ErrorCodes.DataUpdateRateExceeded,
]);

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || (status >= 500 && status <= 599);
}

export function isRetryableError(status: number | undefined, errorCode: number | undefined): boolean {
  if (errorCode !== undefined && NEVER_RETRY_ERROR_CODES.has(errorCode)) {
    return false;
  }
  return (status !== undefined && isRetryableStatus(status)) || (errorCode !== undefined && RETRYABLE_ERROR_CODES.has(errorCode));
}

/** Seconds from a Retry-After header (delta-seconds or HTTP date), if it holds one. */
export function parseRetryAfter(header: string | undefined, now: number = Date.now()): number | undefined {
  if (header === undefined) {
    return undefined;
  }
  const h = header.trim();
  if (/^\d+$/.test(h)) {
    return Number(h);
  }
  const at = Date.parse(h);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export interface RawResponse {
  httpStatus: number;
  /** The path the request was sent to (our own text, from the endpoint setting): a 404 names it. */
  path?: string;
  retryAfterHeader?: string;
  body: string;
}

const MAX_SERVICE_TEXT = 300;

/** At most `n` characters of service text, never cut through a token-like run: the secrets are not known yet, and a cut key would no longer be recognised. */
function clip(s: string, n = MAX_SERVICE_TEXT): string {
  return s.length > n ? `${s.slice(0, redactionCut(s, n, [], true))}…` : s;
}

function malformed(operation: string, httpStatus: number, what: string, retryable: boolean): PlatformError {
  return new PlatformError({
    kind: 'malformed',
    operation,
    httpStatus,
    message: `${operation}: ${what}`,
    hint: 'Check the service endpoint setting (a proxy or the wrong address may be answering) and try again. If it persists, the log has details.',
    retryable,
  });
}

function optInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

function errorDetailsOf(v: unknown): Record<string, string[]> | undefined {
  if (!isPlainObject(v)) {
    return undefined;
  }
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(v)) {
    const list = Array.isArray(messages) ? messages : [messages];
    const strings = list.filter((m): m is string => typeof m === 'string').map((m) => clip(m));
    if (strings.length > 0) {
      put(out, field, strings);
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

// eslint-disable-next-line complexity -- each optional member of the error envelope read with ?? / typeof (each counted as a branch); one shape, one function
function serviceError(operation: string, raw: RawResponse, body: Record<string, unknown>, status: number, now: number): PlatformError {
  const errorCode = optInt(body.errorCode);
  const error = typeof body.error === 'string' ? clip(body.error, 80) : (errorCode !== undefined ? errorNameOf(errorCode) : undefined);
  const errorMessage = typeof body.errorMessage === 'string' ? clip(body.errorMessage) : undefined;
  const errorDetails = errorDetailsOf(body.errorDetails);
  // Whole seconds (the SDKs type it as an unsigned integer); a fraction is rounded up, never down to 0.
  const fromBody = typeof body.retryAfterSeconds === 'number' && Number.isFinite(body.retryAfterSeconds) && body.retryAfterSeconds >= 0
    ? Math.ceil(body.retryAfterSeconds) : undefined;
  const retryAfterSeconds = fromBody ?? parseRetryAfter(raw.retryAfterHeader, now);
  const known = errorCode !== undefined || error !== undefined;
  const serviceText = [errorMessage ?? '', ...Object.values(errorDetails ?? {}).flat()].join(' ');
  const described = errorCode !== undefined && errorNameOf(errorCode) !== undefined
    ? describeServiceError(operation, errorCode, serviceText)
    : error !== undefined ? describeServiceError(operation, error, serviceText) : describeHttpStatus(status, raw.path);
  const throttled = status === 429 || (errorCode !== undefined && THROTTLE_ERROR_CODES.has(errorCode));
  const kind: PlatformErrorKind = throttled ? 'throttled' : known ? 'service' : 'http';
  let message = `${operation} failed: ${described.title}`;
  if (known) {
    message += ` (${[error, errorCode].filter((x) => x !== undefined).join(' ')})`;
  }
  if (errorMessage !== undefined && errorMessage !== described.title) {
    // Its own full stop ends the sentence: no second one after the quote.
    message += ` The service said: "${errorMessage}"${/[.!?]$/.test(errorMessage) ? '' : '.'}`;
  }
  if (errorDetails !== undefined) {
    // Bounded whatever the service sends: the message ends up in a notification.
    const parts = Object.entries(errorDetails).slice(0, 5).map(([f, m]) => clip(`${clip(f, 60)}: ${m.slice(0, 3).join('; ')}`));
    const details = clip(parts.join(' | '), 1000);
    // A detail that ends a sentence itself gets no second full stop ("e-mail..").
    message += ` Details: ${details}${/[.!?…]$/.test(details) ? '' : '.'}`;
  }
  if (retryAfterSeconds !== undefined && throttled) {
    message += ` Retry after ${retryAfterSeconds} s.`;
  }
  return new PlatformError({
    kind,
    operation,
    httpStatus: raw.httpStatus,
    ...(raw.path !== undefined ? { path: raw.path } : {}),
    code: optInt(body.code),
    error,
    errorCode,
    errorMessage,
    errorDetails,
    retryAfterSeconds,
    retryable: isRetryableError(status, errorCode),
    message,
    hint: described.hint,
  });
}

/** An error for an HTTP answer whose body is not JSON (an HTML page from a proxy, a cut-off answer). */
function nonJson(operation: string, raw: RawResponse): PlatformError {
  const trimmed = raw.body.trim();
  const what = trimmed.length === 0 ? 'an empty body'
    : trimmed.startsWith('<') ? 'an HTML page instead of JSON (likely from a proxy or gateway)'
      : /^[[{]/.test(trimmed) ? 'a cut-off or invalid JSON body' : 'a body that is not JSON';
  const ok = raw.httpStatus >= 200 && raw.httpStatus <= 299;
  // A connection-level failure: worth retrying when the status says so, or when a 2xx came garbled.
  return malformed(operation, raw.httpStatus, `the service answered HTTP ${raw.httpStatus} with ${what}.`, ok || isRetryableStatus(raw.httpStatus));
}

/** Thrown by a result validator for an answer whose shape breaks the contract. */
export class ShapeError extends Error {}

/** A GetEntityToken answer the description allows but that carries no token to use. */
export class NoTokenError extends ShapeError {
  constructor() {
    super('the service returned no token (its answer has no EntityToken).');
  }
}

/**
 * The validated `data` of a success envelope, or a thrown PlatformError built from the error
 * wrapper, the HTTP status, or the shape problem.
 */
export function parseEnvelope<T>(operation: string, raw: RawResponse, validate: (data: unknown) => T, now: number = Date.now()): T {
  let body: unknown;
  try {
    body = JSON.parse(raw.body);
  } catch {
    throw nonJson(operation, raw);
  }
  if (!isPlainObject(body)) {
    throw malformed(operation, raw.httpStatus, `the service answered HTTP ${raw.httpStatus} with JSON that is not an envelope object.`, false);
  }
  const bodyCode = optInt(body.code);
  const status = bodyCode ?? raw.httpStatus;
  if ('errorCode' in body || status < 200 || status > 299) {
    throw serviceError(operation, raw, body, status, now);
  }
  if (bodyCode === undefined && !('data' in body)) {
    throw malformed(operation, raw.httpStatus, 'the service answered with JSON that has neither "code" nor "data".', false);
  }
  try {
    return validate(body.data);
  } catch (e) {
    if (e instanceof NoTokenError) throw malformed(operation, raw.httpStatus, e.message, false);
    if (e instanceof ShapeError) {
      throw malformed(operation, raw.httpStatus, `the service's answer has an unexpected shape: ${e.message}.`, false);
    }
    throw e;
  }
}
