// Turning an HTTP answer into a typed result or a PlatformError.
// The body is classified first (X-ReportErrorAsSuccess puts the real status only there), the HTTP
// status second. Every shape problem becomes a PlatformError of kind 'malformed', never a TypeError.
import { describeErrorCode, describeHttpStatus, errorNameOf, PlatformError, type PlatformErrorKind } from './errors';
import { ErrorCodes } from './types';
import type {
  DeleteMasterPlayerAccountResult, EntityTokenResult, GetPlayedTitleListResult, HandheldStoreConfig,
  HandheldStoreEnvironment, LoginResult,
} from './types';

/** Error codes api-facts.md says may be retried. */
export const RETRYABLE_ERROR_CODES: ReadonlySet<number> = new Set([
  ErrorCodes.APIClientRequestRateLimitExceeded, ErrorCodes.APIConcurrentRequestLimitExceeded,
  ErrorCodes.ConcurrentEditError, ErrorCodes.DataUpdateRateExceeded,
  ErrorCodes.DownstreamServiceUnavailable, ErrorCodes.ServiceUnavailable,
]);
/** Error codes api-facts.md says must never be retried, whatever the HTTP status. */
export const NEVER_RETRY_ERROR_CODES: ReadonlySet<number> = new Set([1000, 1001, 1002, 1004, 1071, 1074, 1089, 1191, 1322, 1373]);
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
  retryAfterHeader?: string;
  body: string;
}

const MAX_SERVICE_TEXT = 300;

function clip(s: string, n = MAX_SERVICE_TEXT): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
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

/**
 * Sets an own property. Plain assignment of a key named "__proto__" (which JSON.parse makes an
 * own member) would instead replace the copy's prototype, letting unchecked service data show
 * through as inherited members.
 */
function put(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
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

function serviceError(operation: string, raw: RawResponse, body: Record<string, unknown>, status: number, now: number): PlatformError {
  const errorCode = optInt(body.errorCode);
  const error = typeof body.error === 'string' ? clip(body.error, 80) : (errorCode !== undefined ? errorNameOf(errorCode) : undefined);
  const errorMessage = typeof body.errorMessage === 'string' ? clip(body.errorMessage) : undefined;
  const errorDetails = errorDetailsOf(body.errorDetails);
  const fromBody = typeof body.retryAfterSeconds === 'number' && Number.isFinite(body.retryAfterSeconds) && body.retryAfterSeconds >= 0
    ? body.retryAfterSeconds : undefined;
  const retryAfterSeconds = fromBody ?? parseRetryAfter(raw.retryAfterHeader, now);
  const known = errorCode !== undefined || error !== undefined;
  const described = errorCode !== undefined && errorNameOf(errorCode) !== undefined
    ? describeErrorCode(errorCode)
    : error !== undefined ? describeErrorCode(error) : describeHttpStatus(status);
  const throttled = status === 429 || (errorCode !== undefined && THROTTLE_ERROR_CODES.has(errorCode));
  const kind: PlatformErrorKind = throttled ? 'throttled' : known ? 'service' : 'http';
  let message = `${operation} failed: ${described.title}`;
  if (known) {
    message += ` (${[error, errorCode].filter((x) => x !== undefined).join(' ')})`;
  }
  if (errorMessage !== undefined && errorMessage !== described.title) {
    message += ` The service said: "${errorMessage}".`;
  }
  if (errorDetails !== undefined) {
    // Bounded whatever the service sends: the message ends up in a notification.
    const parts = Object.entries(errorDetails).slice(0, 5).map(([f, m]) => clip(`${clip(f, 60)}: ${m.slice(0, 3).join('; ')}`));
    message += ` Details: ${clip(parts.join(' | '), 1000)}.`;
  }
  if (retryAfterSeconds !== undefined && throttled) {
    message += ` Retry after ${retryAfterSeconds} s.`;
  }
  return new PlatformError({
    kind,
    operation,
    httpStatus: raw.httpStatus,
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
    if (e instanceof ShapeError) {
      throw malformed(operation, raw.httpStatus, `the service's answer has an unexpected shape: ${e.message}.`, false);
    }
    throw e;
  }
}

// ---- Result shapes -------------------------------------------------------------------------

class ShapeError extends Error {}

type Schema =
  | 'string' | 'number' | 'boolean' | 'any'
  | { object: Record<string, Schema>; required?: readonly string[] }
  | { array: Schema }
  | { map: Schema }
  | { nullable: Schema };

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** `v` checked against `schema`, as a copy in which optional members that are null are dropped. */
function check(v: unknown, schema: Schema, path: string): unknown {
  const fail = (expected: string): never => {
    throw new ShapeError(v === undefined ? `${path} is missing` : `${path} should be ${expected} but is ${describeValue(v)}`);
  };
  if (schema === 'any') return v;
  if (schema === 'string') return typeof v === 'string' ? v : fail('a string');
  if (schema === 'boolean') return typeof v === 'boolean' ? v : fail('true or false');
  if (schema === 'number') return typeof v === 'number' && Number.isFinite(v) ? v : fail('a number');
  if ('nullable' in schema) return v === null ? null : check(v, schema.nullable, path);
  if ('array' in schema) {
    if (!Array.isArray(v)) return fail('an array');
    return v.map((item, i) => check(item, schema.array, `${path}[${i}]`));
  }
  if (!isPlainObject(v)) return fail('an object');
  const out: Record<string, unknown> = {};
  if ('map' in schema) {
    for (const [k, item] of Object.entries(v)) {
      put(out, k, check(item, schema.map, `${path}.${k}`));
    }
    return out;
  }
  for (const [k, item] of Object.entries(v)) {
    put(out, k, item);
  }
  for (const [k, member] of Object.entries(schema.object)) {
    const item = v[k];
    if (item === undefined || item === null) {
      if (schema.required?.includes(k)) {
        throw new ShapeError(`${path}.${k} is missing`);
      }
      if (!(typeof member === 'object' && 'nullable' in member)) {
        delete out[k];
      }
      continue;
    }
    put(out, k, check(item, member, `${path}.${k}`));
  }
  return out;
}

const entityKey: Schema = { object: { Id: 'string', Type: 'string', TypeString: 'string' }, required: ['Id', 'Type'] };
const entityToken: Schema = {
  object: { EntityToken: 'string', TokenExpiration: 'string', Entity: entityKey },
  required: ['EntityToken', 'TokenExpiration', 'Entity'],
};
const stringArray: Schema = { array: 'string' };

const loginResult: Schema = {
  object: {
    NewlyCreated: 'boolean',
    EntityToken: entityToken,
    InfoResultPayload: {
      object: {
        AccountInfo: {
          object: {
            PlatformId: 'string', Created: 'string', Username: 'string',
            TitleInfo: {
              object: {
                Origination: 'string', Created: 'string', LastLogin: 'string', FirstLogin: 'string',
                TitlePlayerAccount: entityKey,
              },
            },
          },
        },
        UserVirtualCurrency: { map: 'number' },
        UserVirtualCurrencyRechargeTimes: { map: { object: { SecondsToRecharge: 'number', RechargeTime: 'string', RechargeMax: 'number' } } },
        UserData: { map: { object: { Value: 'string', LastUpdated: 'string', Permission: 'string' } } },
        UserDataVersion: 'number',
        PlayerProfile: {
          object: {
            TitleId: 'string', PlayerId: 'string', Created: 'string', LastLogin: 'string', BannedUntil: 'string',
            DisplayName: 'string', TotalValueToDateInUSD: 'number',
          },
        },
      },
    },
    LastLoginTime: 'string',
    PlatformId: 'string',
    SessionTicket: 'string',
    SettingsForUser: { object: { GatherDeviceInfo: 'boolean', GatherFocusInfo: 'boolean', NeedsAttribution: 'boolean' } },
    TreatmentAssignment: {
      object: {
        Variables: { array: { object: { Name: 'string', Value: 'string' }, required: ['Name', 'Value'] } },
        Variants: stringArray,
      },
    },
  },
};

const environment: Schema = { object: { ClientID: 'string', ClientSecret: 'any', ID: 'string' } };
const handheldStore: Schema = {
  object: {
    Created: 'boolean', ApplicationID: 'string',
    Environments: { array: environment },
    SecondarySubscriptionEnvironments: { array: environment },
    SubscriptionEnvironments: { array: environment },
  },
};

function lookupSchema(idMember: string): Schema {
  return {
    object: { Data: { array: { nullable: { object: { [idMember]: 'string', PlatformId: { nullable: 'string' } } } } } },
    required: ['Data'],
  };
}

function withoutSecret(envs: HandheldStoreEnvironment[] | undefined): HandheldStoreEnvironment[] | undefined {
  return envs?.map(({ ClientSecret: _omitted, ...rest }) => rest);
}

/** One entry of a lookup answer: the identifier as the service echoed it, and its PlatformId or null. */
export interface LookupEntry {
  id?: string;
  platformId: string | null;
}

/** Per-operation validators of `data`. */
export const validators = {
  deleteMasterPlayerAccount(data: unknown): DeleteMasterPlayerAccountResult {
    const r = check(data, { object: { JobReceiptId: 'string', TitleIds: stringArray }, required: ['JobReceiptId'] }, 'data') as DeleteMasterPlayerAccountResult;
    return { ...r, TitleIds: r.TitleIds ?? [] };
  },
  getPlayedTitleList(data: unknown): GetPlayedTitleListResult {
    const r = check(data, { object: { TitleIds: stringArray } }, 'data') as GetPlayedTitleListResult;
    return { ...r, TitleIds: r.TitleIds ?? [] };
  },
  loginWithLauncher(data: unknown): LoginResult {
    return check(data, loginResult, 'data') as LoginResult;
  },
  entityToken(data: unknown): EntityTokenResult {
    const r = check(data, entityToken, 'data') as EntityTokenResult;
    if (Number.isNaN(Date.parse(r.TokenExpiration))) {
      throw new ShapeError('data.TokenExpiration is not a date');
    }
    return r;
  },
  handheldStore(data: unknown): HandheldStoreConfig {
    const r = check(data, handheldStore, 'data') as Partial<HandheldStoreConfig>;
    const out: HandheldStoreConfig = {
      ...r,
      // The service says Created:false for an absent add-on; without the member, a configuration means it exists.
      Created: r.Created ?? r.ApplicationID !== undefined,
    };
    for (const k of ['Environments', 'SecondarySubscriptionEnvironments', 'SubscriptionEnvironments'] as const) {
      if (r[k] !== undefined) {
        out[k] = withoutSecret(r[k]);
      }
    }
    return out;
  },
  empty(_data: unknown): void {
    // Deletes answer with an empty object; anything else there carries nothing we use.
  },
  lookup(idMember: 'ConsoleLiveAccountId' | 'StorefrontName'): (data: unknown) => (LookupEntry | null)[] {
    return (data) => {
      const r = check(data, lookupSchema(idMember), 'data') as { Data: (Record<string, string | null> | null)[] };
      return r.Data.map((e) => (e === null ? null : { id: e[idMember] ?? undefined, platformId: e.PlatformId ?? null }));
    };
  },
};
