// One HTTP attempt of an operation: the request over the transport, the answer read within a size
// cap and parsed, every failure turned into a PlatformError that says whether the service may
// have acted on the request. Never throws; logs one entry per attempt (no secrets).
import { MAX_MESSAGE, redactText } from '../redact';
import { parseEnvelope, ShapeError, type RawResponse } from './envelope';
import { PlatformError } from './errors';
import { OPERATIONS, type OperationName, type ResultOf } from './operations';
import { validate, type Schema } from './schema';
import type { FailedAttempt } from './retryPolicy';
import { linkSignals } from './signals';
import { classifyTransportError, type Transport } from './transport';

/** Answers larger than this are refused (the biggest real answer is a few kB). */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** `data` checked with the row's result schema; the first problem is thrown as a ShapeError (a "malformed" answer). */
export function checkResult<N extends OperationName>(name: N, data: unknown): ResultOf<N> {
  const r = validate(data, OPERATIONS[name].result as Schema<ResultOf<N>>, 'data');
  if (r.issues.length > 0) {
    const more = r.issues.length > 1 ? ` (and ${r.issues.length - 1} more)` : '';
    throw new ShapeError(`${r.issues[0].message}${more}`);
  }
  return r.value;
}

export interface RequestLogEntry {
  operation: string;
  titleId: string;
  httpStatus?: number;
  errorCode?: number;
  error?: string;
  durationMs: number;
  attempt: number;
  ok: boolean;
}

export interface ExchangeContext {
  titleId: string;
  baseUrl: URL;
  transport: Transport;
  timeoutMs: number;
  reportErrorAsSuccess: boolean;
  /** Secrets this client has seen, masked out of what is logged. */
  secrets(): string[];
  cancelled(): PlatformError;
  log(e: RequestLogEntry): void;
}

export interface Exchange<T> {
  operation: OperationName;
  body: unknown;
  /** The checked answer's `data` (checkResult), with what the caller adds on top. */
  validate: (data: unknown) => T;
  /** The credential header, name and value. */
  header: [string, string];
  signal: AbortSignal;
  attempt: number;
}

export type Attempt<T> = { ok: true; value: T } | ({ ok: false } & FailedAttempt);

// Connection errors that prove the request never reached the service.
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

export async function exchange<T>(ctx: ExchangeContext, x: Exchange<T>): Promise<Attempt<T>> {
  const operation = x.operation;
  const url = new URL(OPERATIONS[operation].path, ctx.baseUrl);
  const started = performance.now();
  const ac = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ac.abort();
  }, ctx.timeoutMs);
  const link = linkSignals([x.signal, ac.signal]);
  let httpStatus: number | undefined;
  let result: Attempt<T>;
  try {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      [x.header[0]]: x.header[1],
    };
    if (ctx.reportErrorAsSuccess) {
      headers['x-reporterrorassuccess'] = 'true';
    }
    const res = await ctx.transport.dispatcher.request({
      origin: ctx.baseUrl.origin, path: url.pathname, method: 'POST', headers, body: JSON.stringify(x.body), signal: link.signal,
    });
    httpStatus = res.statusCode;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
      size += buf.length;
      // Throwing out of the loop destroys the body (the async iterator's return()).
      if (size > MAX_RESPONSE_BYTES) {
        throw new PlatformError({
          kind: 'malformed', operation, httpStatus,
          message: `${operation}: the service's answer is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB, which is not expected.`,
          hint: 'Check the service endpoint setting.',
        });
      }
      chunks.push(buf);
    }
    const retryAfter = res.headers['retry-after'];
    const raw: RawResponse = {
      httpStatus: res.statusCode,
      path: url.pathname,
      retryAfterHeader: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    result = { ok: true, value: parseEnvelope(operation, raw, x.validate, Date.now()) };
  } catch (err) {
    result = { ok: false, ...failure(ctx, err, operation, httpStatus, timedOut, x.signal) };
  } finally {
    clearTimeout(timer);
    link.dispose();
  }
  ctx.log({
    operation, titleId: ctx.titleId, attempt: x.attempt, ok: result.ok, durationMs: Math.round(performance.now() - started),
    httpStatus: result.ok ? httpStatus : (result.error.httpStatus ?? httpStatus),
    errorCode: result.ok ? undefined : result.error.errorCode,
    error: result.ok ? undefined : redactText(result.error.error ?? result.error.kind, ctx.secrets(), MAX_MESSAGE),
  });
  return result;
}

function failure(
  ctx: ExchangeContext, err: unknown, operation: string, httpStatus: number | undefined, timedOut: boolean, signal: AbortSignal,
): FailedAttempt {
  if (err instanceof PlatformError) {
    const status = err.code ?? err.httpStatus ?? 0;
    // A 2xx that came garbled or a 5xx may have been acted on; a 4xx is a definite rejection.
    return { error: err, ambiguous: status < 400 || status >= 500 };
  }
  if (timedOut) {
    return {
      ambiguous: true,
      error: new PlatformError({
        kind: 'timeout', operation, httpStatus, retryable: true,
        message: `${operation}: the service did not answer within ${ctx.timeoutMs / 1000} s.`,
        hint: 'Try again; if it keeps timing out, check the network and the service endpoint setting.',
      }),
    };
  }
  if (signal.aborted) {
    // Everything before the request is synchronous, so a failure here comes after it was handed to
    // the connection: it may have reached the service.
    return { ambiguous: true, error: ctx.cancelled() };
  }
  const transport = classifyTransportError(err, operation, ctx.baseUrl.host, ctx.transport);
  if (transport !== undefined) {
    return { ambiguous: !transport.notSent, error: new PlatformError({ ...transport.error, httpStatus }) };
  }
  const code = typeof (err as { code?: unknown })?.code === 'string' ? (err as { code: string }).code : undefined;
  const notSent = code !== undefined && NOT_SENT_CODES.has(code);
  const text = redactText(err instanceof Error ? err.message : String(err), ctx.secrets(), MAX_MESSAGE);
  return {
    ambiguous: !notSent,
    error: new PlatformError({
      kind: 'network', operation, httpStatus, retryable: true,
      message: notSent
        ? `${operation}: could not connect to ${ctx.baseUrl.host} (${code}).`
        : `${operation}: the connection to ${ctx.baseUrl.host} failed before a full answer arrived (${code ?? text}).`,
      hint: 'Check the network and the service endpoint setting, then try again.',
    }),
  };
}
