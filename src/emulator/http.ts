// Envelopes, the error wrapper and request-field checks shared by the operations and controls.

import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { ErrorCodes } from '../core/api/types';
import type { ErrorName, ErrorWrapper, SuccessEnvelope } from '../core/api/types';
import { isPlainObject } from '../core/api/schema';

export { isPlainObject };

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  421: 'MisdirectedRequest',
  404: 'NotFound',
  410: 'Gone',
  413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType',
  429: 'TooManyRequests',
  500: 'InternalServerError',
  502: 'BadGateway',
  503: 'ServiceUnavailable',
};

function statusText(code: number): string {
  return STATUS_TEXT[code] ?? 'Error';
}

/** A failure answered with the error wrapper. */
export class ApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly error: ErrorName,
    message: string,
    readonly errorDetails?: Record<string, string[]>,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  toWrapper(): ErrorWrapper {
    const w: ErrorWrapper = {
      code: this.httpStatus,
      status: statusText(this.httpStatus),
      error: this.error,
      errorCode: ErrorCodes[this.error],
      errorMessage: this.message,
    };
    if (this.errorDetails) w.errorDetails = this.errorDetails;
    if (this.retryAfterSeconds !== undefined) w.retryAfterSeconds = this.retryAfterSeconds;
    return w;
  }
}

/** A 400 with the service's name for the failure. */
export function badRequest(error: ErrorName, message: string, details?: Record<string, string[]>): ApiError {
  return new ApiError(400, error, message, details);
}

export function invalidParams(details: Record<string, string[]>, message = 'Invalid input parameters'): ApiError {
  return new ApiError(400, 'InvalidParams', message, details);
}

export function success<T>(data: T): SuccessEnvelope<T> {
  return { code: 200, status: 'OK', data };
}

/** Sends `body` as JSON; returns the text sent. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): string {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
  return text;
}

type Json = Record<string, unknown>;

/** Collects per-field problems, then throws one InvalidParams naming every field and the fix. */
export class FieldCheck {
  private readonly details: Record<string, string[]> = {};

  add(field: string, message: string): void {
    (this.details[field] ??= []).push(message);
  }

  string(o: Json, field: string, required: boolean, path = field): string | undefined {
    const v = o[field];
    if (v === undefined || v === null) {
      if (required) this.add(path, `${path} is required: send it as a non-empty string.`);
      return undefined;
    }
    if (typeof v !== 'string') {
      this.add(path, `${path} must be a string, not ${describe(v)}.`);
      return undefined;
    }
    if (required && v.trim() === '') {
      this.add(path, `${path} must not be empty.`);
      return undefined;
    }
    return v;
  }

  bool(o: Json, field: string, path = field): boolean | undefined {
    const v = o[field];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean') {
      this.add(path, `${path} must be true or false, not ${describe(v)}.`);
      return undefined;
    }
    return v;
  }

  /** A string array; `max` bounds its length, `minOne` rejects an empty list. */
  stringArray(o: Json, field: string, opts: { required: boolean; max?: number; minOne?: boolean }, path = field): string[] | undefined {
    const v = o[field];
    if (v === undefined || v === null) {
      if (opts.required) this.add(path, `${path} is required: send an array of strings.`);
      return undefined;
    }
    if (!Array.isArray(v)) {
      this.add(path, `${path} must be an array of strings, not ${describe(v)}.`);
      return undefined;
    }
    if (opts.minOne && v.length === 0) {
      this.add(path, `${path} must contain at least one entry.`);
      return undefined;
    }
    if (opts.max !== undefined && v.length > opts.max) {
      this.add(path, `${path} has ${v.length} entries; send at most ${opts.max} per request.`);
      return undefined;
    }
    const bad = v.findIndex((x) => typeof x !== 'string');
    if (bad >= 0) {
      this.add(path, `${path}[${bad}] must be a string, not ${describe(v[bad])}.`);
      return undefined;
    }
    return v as string[];
  }

  object(o: Json, field: string, path = field): Json | undefined {
    const v = o[field];
    if (v === undefined || v === null) return undefined;
    if (!isPlainObject(v)) {
      this.add(path, `${path} must be a JSON object, not ${describe(v)}.`);
      return undefined;
    }
    return v;
  }

  /** An object whose values are all strings (CustomTags). */
  stringMap(o: Json, field: string, path = field): Record<string, string> | undefined {
    const m = this.object(o, field, path);
    if (!m) return undefined;
    for (const [k, v] of Object.entries(m)) {
      if (typeof v !== 'string') {
        this.add(path, `${path}.${k} must be a string, not ${describe(v)}.`);
        return undefined;
      }
    }
    return m as Record<string, string>;
  }

  done(): void {
    if (Object.keys(this.details).length > 0) throw invalidParams(this.details);
  }
}


function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}

/** Host names the emulator answers to: loopback, and `*.localhost` (title routing by host; never resolved by DNS). */
function isOwnHostName(name: string): boolean {
  const n = name.toLowerCase();
  return n === '127.0.0.1' || n === '[::1]' || n === 'localhost' || /^([a-z0-9-]{1,63}\.)+localhost$/.test(n);
}

/**
 * Why a request is not for this emulator, or undefined when it is: its Host must be a loopback
 * name with the emulator's own port (a DNS-rebinding page sends its own name), and an Origin, when
 * sent, must be the emulator's own (any other web page).
 */
export function foreignRequest(headers: IncomingHttpHeaders, port: number, allowedHosts: readonly string[] = []): ApiError | undefined {
  const host = headers.host;
  const m = host === undefined ? null : /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(host);
  const own = (name: string): boolean => isOwnHostName(name) || allowedHosts.some((a) => a.toLowerCase() === name.toLowerCase().replace(/^\[(.*)\]$/, '$1'));
  if (!m || !own(m[1]) || Number(m[2] ?? 80) !== port) {
    const names = ['127.0.0.1', '[::1]', 'localhost', ...allowedHosts].map((n) => `${n}:${port}`).join(', ');
    return new ApiError(421, 'InvalidRequest', `This emulator answers only requests for ${names}; the Host header names another server.`);
  }
  const origin = headers.origin;
  if (origin !== undefined) {
    let ok = false;
    try {
      const u = new URL(origin);
      ok = u.protocol === 'http:' && own(u.hostname) && Number(u.port || 80) === port;
    } catch { /* "null" and other non-URLs are foreign */ }
    if (!ok) return new ApiError(403, 'NotAuthorized', 'Requests from web pages are refused: the Origin is not this emulator.');
  }
  return undefined;
}

export function isJsonContentType(ct: string | undefined): boolean {
  if (!ct) return false;
  const semi = ct.indexOf(';');
  return (semi >= 0 ? ct.slice(0, semi) : ct).trim().toLowerCase() === 'application/json';
}
