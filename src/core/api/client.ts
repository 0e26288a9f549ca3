// PlatformClient: one method per operation over an undici keep-alive pool, with time-outs,
// cancellation, retries where api-facts.md allows them, bulk lookups and the title token cache.
import { setMaxListeners } from 'node:events';
import { Pool } from 'undici';
import { buildBaseUrl } from '../endpoint';
import { validatePlatformId } from '../ids';
import { redactText } from '../redact';
import { parseEnvelope, validators, type LookupEntry, type RawResponse } from './envelope';
import { PlatformError, type PlatformErrorInit } from './errors';
import { TitleTokenCache } from './tokenCache';
import {
  DEFAULT_SANDBOX, ErrorCodes, MAX_IDS_PER_LOOKUP, Operations,
  type ConsoleLivePlatformIdPair, type DeleteMasterPlayerAccountRequest, type DeleteMasterPlayerAccountResult,
  type EntityTokenResult, type GetPlayedTitleListResult, type HandheldStoreConfig, type LoginResult,
  type LoginWithLauncherRequest, type OperationPath, type StorefrontPlatformIdPair,
} from './types';

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 3;
/** Lookup requests in flight at once per bulk call. */
export const BULK_CONCURRENCY = 8;
export const RETRY_BASE_DELAY_MS = 250;
export const RETRY_MAX_DELAY_MS = 8_000;
/** A throttled answer asking for a longer wait than this fails at once instead of blocking the user. */
export const MAX_RETRY_AFTER_SECONDS = 60;
/** Answers larger than this are refused (the biggest real answer is a few kB). */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

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

export interface CallOptions {
  signal?: AbortSignal;
}

export interface BulkOptions extends CallOptions {
  concurrency?: number;
  /** Called with (identifiers resolved, distinct identifiers): once with 0 at the start, then after each request. */
  onProgress?: (done: number, total: number) => void;
}

export interface PlatformClientOptions {
  titleId: string;
  /** Service endpoint template with {titleId}. */
  endpoint: string;
  getSecretKey: () => Promise<string | undefined>;
  timeoutMs?: number;
  maxRetries?: number;
  concurrency?: number;
  reportErrorAsSuccess?: boolean;
  /** One call per HTTP attempt; never carries secrets. */
  onRequest?: (e: RequestLogEntry) => void;
  /** First backoff step (full jitter doubles it per retry); tests make it small. */
  retryBaseDelayMs?: number;
  /** Longest Retry-After the client waits for before giving up (default MAX_RETRY_AFTER_SECONDS). */
  maxRetryAfterSeconds?: number;
  /** Clock for the token cache; tests move it forward. */
  now?: () => number;
}

type Auth = 'secretKey' | 'entityToken';

interface Call<T> {
  operation: OperationPath;
  auth: Auth;
  body: unknown;
  validate: (data: unknown) => T;
  /** Deletes are never re-sent after an ambiguous failure. */
  isDelete?: boolean;
  signal: AbortSignal;
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: PlatformError; ambiguous: boolean };

// Connection errors that prove the request never reached the service.
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function opName(operation: OperationPath): string {
  return operation.slice(operation.indexOf('/') + 1);
}

function derive(e: PlatformError, patch: Partial<PlatformErrorInit>): PlatformError {
  return new PlatformError({
    kind: e.kind, message: e.message, hint: e.hint, operation: e.operation, httpStatus: e.httpStatus, code: e.code,
    error: e.error, errorCode: e.errorCode, errorMessage: e.errorMessage, errorDetails: e.errorDetails,
    retryAfterSeconds: e.retryAfterSeconds, retryable: e.retryable, outcomeUnknown: e.outcomeUnknown, ...patch,
  });
}

function optionError(field: string, rule: string): PlatformError {
  return new PlatformError({ kind: 'validation', message: `PlatformClient option ${field} ${rule}.`, hint: `Correct ${field}.` });
}

function intOption(v: number | undefined, field: string, min: number, max: number, dflt: number): number {
  if (v === undefined) {
    return dflt;
  }
  if (!Number.isInteger(v) || v < min || v > max) {
    throw optionError(field, `must be a whole number from ${min} to ${max}`);
  }
  return v;
}

/** One signal that aborts when any of `signals` does; dispose() detaches it. */
function linkSignals(signals: (AbortSignal | undefined)[]): { signal: AbortSignal; dispose: () => void } {
  const ac = new AbortController();
  // Every request in flight of a bulk call listens on it: more than Node's default warning limit of 10.
  setMaxListeners(0, ac.signal);
  const abort = (): void => ac.abort();
  const used = signals.filter((s): s is AbortSignal => s !== undefined);
  for (const s of used) {
    if (s.aborted) {
      ac.abort();
    } else {
      s.addEventListener('abort', abort, { once: true });
    }
  }
  return { signal: ac.signal, dispose: () => used.forEach((s) => s.removeEventListener('abort', abort)) };
}

function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  // Resolves true after the delay, false when aborted first.
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class PlatformClient {
  readonly titleId: string;
  readonly baseUrl: URL;
  private readonly pool: Pool;
  private readonly getSecretKey: () => Promise<string | undefined>;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly concurrency: number;
  private readonly reportErrorAsSuccess: boolean;
  private readonly onRequest?: (e: RequestLogEntry) => void;
  private readonly retryBaseDelayMs: number;
  private readonly maxRetryAfterSeconds: number;
  private readonly now: () => number;
  private readonly tokens: TitleTokenCache;
  /** Aborted by close(); every call in flight listens on it. */
  private readonly closing = new AbortController();
  /** Secrets seen by this client, masked out of every error message. */
  private readonly knownSecrets = new Set<string>();
  private closed: Promise<void> | undefined;

  constructor(o: PlatformClientOptions) {
    if (typeof o !== 'object' || o === null) {
      throw optionError('options', 'must be an object');
    }
    if (typeof o.getSecretKey !== 'function') {
      throw optionError('getSecretKey', 'must be a function');
    }
    this.baseUrl = buildBaseUrl(o.endpoint, o.titleId);
    this.titleId = o.titleId;
    this.getSecretKey = o.getSecretKey;
    this.timeoutMs = intOption(o.timeoutMs, 'timeoutMs', 1, 10 * 60_000, DEFAULT_TIMEOUT_MS);
    this.maxRetries = intOption(o.maxRetries, 'maxRetries', 0, 10, DEFAULT_MAX_RETRIES);
    this.concurrency = intOption(o.concurrency, 'concurrency', 1, 64, BULK_CONCURRENCY);
    this.retryBaseDelayMs = intOption(o.retryBaseDelayMs, 'retryBaseDelayMs', 0, 60_000, RETRY_BASE_DELAY_MS);
    this.maxRetryAfterSeconds = intOption(o.maxRetryAfterSeconds, 'maxRetryAfterSeconds', 0, 3600, MAX_RETRY_AFTER_SECONDS);
    this.reportErrorAsSuccess = o.reportErrorAsSuccess === true;
    this.onRequest = o.onRequest;
    this.now = o.now ?? Date.now;
    this.pool = new Pool(this.baseUrl.origin, {
      connections: Math.max(BULK_CONCURRENCY, this.concurrency),
      keepAliveTimeout: 30_000,
      connect: { timeout: this.timeoutMs },
    });
    this.tokens = new TitleTokenCache(() => this.fetchEntityToken(), this.now);
    setMaxListeners(0, this.closing.signal);
  }

  // ---- Admin ----------------------------------------------------------------------------

  deleteMasterPlayerAccount(r: DeleteMasterPlayerAccountRequest, o?: CallOptions): Promise<DeleteMasterPlayerAccountResult> {
    return this.run(o, (signal) => {
      this.checkPlatformId(r?.PlatformId, 'PlatformId');
      if (r.MetaData !== undefined && typeof r.MetaData !== 'string') {
        throw this.invalid('MetaData must be text when given.', 'Leave MetaData empty or enter text.');
      }
      const body: DeleteMasterPlayerAccountRequest = { PlatformId: r.PlatformId };
      if (r.MetaData !== undefined) {
        body.MetaData = r.MetaData;
      }
      return this.call({ operation: Operations.DeleteMasterPlayerAccount, auth: 'secretKey', body, validate: validators.deleteMasterPlayerAccount, isDelete: true, signal });
    });
  }

  getPlayedTitleList(platformId: string, o?: CallOptions): Promise<GetPlayedTitleListResult> {
    return this.run(o, (signal) => {
      this.checkPlatformId(platformId, 'PlatformId');
      return this.call({ operation: Operations.GetPlayedTitleList, auth: 'secretKey', body: { PlatformId: platformId }, validate: validators.getPlayedTitleList, signal });
    });
  }

  // ---- Server -----------------------------------------------------------------------------

  loginWithLauncher(r: LoginWithLauncherRequest, o?: CallOptions): Promise<LoginResult> {
    return this.run(o, (signal) => {
      if (typeof r?.IdentityToken !== 'string' || r.IdentityToken.trim().length === 0) {
        throw this.invalid('IdentityToken is empty.', 'Paste the identity token (a JWT) the launcher returned after login.');
      }
      this.knownSecrets.add(r.IdentityToken);
      return this.call({ operation: Operations.LoginWithLauncher, auth: 'secretKey', body: r, validate: validators.loginWithLauncher, signal });
    });
  }

  getPlatformIdsFromConsoleLiveIds(ids: readonly string[], sandbox: string = DEFAULT_SANDBOX, o?: BulkOptions): Promise<ConsoleLivePlatformIdPair[]> {
    return this.run(o, async (signal) => {
      if (typeof sandbox !== 'string' || sandbox.trim().length === 0) {
        throw this.invalid('Sandbox is empty.', `Enter the sandbox name (case-sensitive), or leave it at ${DEFAULT_SANDBOX}.`);
      }
      const found = await this.bulk(ids, 'ConsoleLiveAccountIDs', o, signal, (chunk, s) =>
        this.call({
          operation: Operations.GetPlatformIDsFromConsoleLiveIDs, auth: 'secretKey',
          body: { ConsoleLiveAccountIDs: chunk, Sandbox: sandbox }, validate: validators.lookup('ConsoleLiveAccountId'), signal: s,
        }));
      return ids.map((id) => ({ ConsoleLiveAccountId: id, PlatformId: found.get(id) ?? null }));
    });
  }

  getPlatformIdsFromStorefrontNames(names: readonly string[], o?: BulkOptions): Promise<StorefrontPlatformIdPair[]> {
    return this.run(o, async (signal) => {
      const found = await this.bulk(names, 'StorefrontNames', o, signal, (chunk, s) =>
        this.call({
          operation: Operations.GetPlatformIDsFromStorefrontNames, auth: 'secretKey',
          body: { StorefrontNames: chunk }, validate: validators.lookup('StorefrontName'), signal: s,
        }));
      return names.map((name) => ({ StorefrontName: name, PlatformId: found.get(name) ?? null }));
    });
  }

  // ---- Addon ------------------------------------------------------------------------------

  getHandheldStore(o?: CallOptions): Promise<HandheldStoreConfig> {
    return this.run(o, (signal) =>
      this.call({ operation: Operations.GetHandheldStore, auth: 'entityToken', body: {}, validate: validators.handheldStore, signal }));
  }

  deleteMobileStore(o?: CallOptions): Promise<void> {
    return this.run(o, (signal) =>
      this.call({ operation: Operations.DeleteMobileStore, auth: 'entityToken', body: {}, validate: validators.empty, isDelete: true, signal }));
  }

  deleteConsoleNetB(o?: CallOptions): Promise<void> {
    return this.run(o, (signal) =>
      this.call({ operation: Operations.DeleteConsoleNetB, auth: 'entityToken', body: {}, validate: validators.empty, isDelete: true, signal }));
  }

  // ---- Title entity token -------------------------------------------------------------------

  /** The cached title entity token, fetched or refreshed as needed. */
  getEntityToken(o?: CallOptions): Promise<EntityTokenResult> {
    return this.run(o, async (signal) => {
      try {
        return await this.tokens.get(signal);
      } catch (e) {
        throw this.asPlatformError(e, signal, Operations.GetEntityToken);
      }
    });
  }

  clearCachedToken(): void {
    this.tokens.invalidate();
  }

  /** Aborts calls in flight and closes the connection pool. */
  close(): Promise<void> {
    if (this.closed === undefined) {
      this.closing.abort();
      this.closed = this.pool.close().catch(() => undefined);
    }
    return this.closed;
  }

  // ---- Internals -----------------------------------------------------------------------------

  /** Runs `fn` with one signal for the user's cancellation and close(), and redacts what it throws. */
  private async run<T>(o: CallOptions | undefined, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const link = linkSignals([o?.signal, this.closing.signal]);
    try {
      if (this.closed !== undefined) {
        throw new PlatformError({ kind: 'cancelled', message: `The connection for title ${this.titleId} is closed.`, hint: 'Try again; a new connection will be made.' });
      }
      if (link.signal.aborted) {
        throw this.cancelled();
      }
      return await fn(link.signal);
    } catch (e) {
      throw this.redacted(e instanceof PlatformError ? e : this.asPlatformError(e, link.signal));
    } finally {
      link.dispose();
    }
  }

  private redacted(e: PlatformError): PlatformError {
    const secrets = [...this.knownSecrets];
    const details = e.errorDetails === undefined ? undefined
      : Object.fromEntries(Object.entries(e.errorDetails).map(([k, v]) => [redactText(k, secrets), v.map((m) => redactText(m, secrets))]));
    return derive(e, {
      message: redactText(e.message, secrets),
      errorMessage: e.errorMessage === undefined ? undefined : redactText(e.errorMessage, secrets),
      error: e.error === undefined ? undefined : redactText(e.error, secrets),
      errorDetails: details,
    });
  }

  private cancelled(): PlatformError {
    return new PlatformError({
      kind: 'cancelled',
      message: this.closed !== undefined ? `The call for title ${this.titleId} was stopped because its connection was closed.` : 'Cancelled.',
      hint: 'Nothing to do.',
    });
  }

  private asPlatformError(e: unknown, signal: AbortSignal, operation?: OperationPath): PlatformError {
    if (e instanceof PlatformError) {
      return e;
    }
    if (signal.aborted) {
      return this.cancelled();
    }
    const text = e instanceof Error ? e.message : String(e);
    return new PlatformError({
      kind: 'network',
      operation: operation === undefined ? undefined : opName(operation),
      message: `Unexpected failure: ${redactText(text, [...this.knownSecrets])}`,
      hint: 'Try again; if it persists, check the log.',
    });
  }

  private invalid(message: string, hint: string): PlatformError {
    return new PlatformError({ kind: 'validation', message, hint });
  }

  private checkPlatformId(id: unknown, field: string): void {
    const err = validatePlatformId(id);
    if (err !== undefined) {
      throw this.invalid(err.replace(/^PlatformId/, field), 'Copy the PlatformId exactly as the service shows it.');
    }
  }

  private async secretKey(): Promise<string> {
    let key: string | undefined;
    try {
      key = await this.getSecretKey();
    } catch {
      throw this.invalid(`Could not read the secret key for title ${this.titleId}.`, 'Set the title\'s secret key again.');
    }
    if (typeof key !== 'string' || key.trim().length === 0) {
      throw this.invalid(`No secret key set for title ${this.titleId}.`, 'Set the secret key for this title (from the title\'s management portal), then try again.');
    }
    this.knownSecrets.add(key);
    return key;
  }

  private async fetchEntityToken(): Promise<EntityTokenResult> {
    const token = await this.call({
      operation: Operations.GetEntityToken, auth: 'secretKey', body: {}, validate: validators.entityToken, signal: this.closing.signal,
    });
    this.knownSecrets.add(token.EntityToken);
    return token;
  }

  private async authHeader(auth: Auth, signal: AbortSignal): Promise<[string, string]> {
    if (auth === 'secretKey') {
      return ['x-secretkey', await this.secretKey()];
    }
    const t = await this.tokens.get(signal);
    return ['x-entitytoken', t.EntityToken];
  }

  /** One operation with retries, the entity-token refresh and the delete rules. */
  private async call<T>(c: Call<T>): Promise<T> {
    let retries = 0;
    let refreshedToken = false;
    for (let attempt = 1; ; attempt++) {
      let header: [string, string];
      try {
        header = await this.authHeader(c.auth, c.signal);
      } catch (e) {
        throw this.asPlatformError(e, c.signal, c.operation);
      }
      const r = await this.attempt(c, header, attempt);
      if (r.ok) {
        return r.value;
      }
      const e = r.error;
      if (e.kind === 'cancelled') {
        // Cancelling stops the wait, not a request the service may already have acted on.
        if (c.isDelete === true && r.ambiguous) {
          throw derive(e, {
            outcomeUnknown: true,
            message: 'Cancelled after the deletion request was sent: the deletion may or may not have happened.',
            hint: 'Refresh to see whether it was deleted before trying again.',
          });
        }
        throw e;
      }
      // An expired or invalid token is a definite rejection, so even a delete may be sent again once.
      if (c.auth === 'entityToken' && !refreshedToken
        && (e.errorCode === ErrorCodes.EntityTokenExpired || e.errorCode === ErrorCodes.EntityTokenInvalid)) {
        refreshedToken = true;
        this.tokens.invalidate(header[1]);
        continue;
      }
      if (c.isDelete === true && r.ambiguous) {
        throw derive(e, {
          outcomeUnknown: true,
          retryable: false,
          message: `${e.message} The deletion may or may not have happened, so it was not sent again.`,
          hint: 'Refresh to see whether it was deleted before trying again.',
        });
      }
      if (!e.retryable || retries >= this.maxRetries) {
        throw e;
      }
      let delayMs: number;
      if (e.retryAfterSeconds !== undefined) {
        if (e.retryAfterSeconds > this.maxRetryAfterSeconds) {
          throw e;
        }
        delayMs = e.retryAfterSeconds * 1000;
      } else {
        // Exponential backoff with full jitter.
        delayMs = Math.random() * Math.min(RETRY_MAX_DELAY_MS, this.retryBaseDelayMs * 2 ** retries);
      }
      retries++;
      if (!(await sleep(delayMs, c.signal))) {
        throw this.cancelled();
      }
    }
  }

  /** One HTTP attempt, never throwing: the outcome, and for failures whether the service may have acted. */
  private async attempt<T>(c: Call<T>, header: [string, string], attempt: number): Promise<Attempt<T>> {
    const operation = opName(c.operation);
    const url = new URL(c.operation, this.baseUrl);
    const started = performance.now();
    const ac = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ac.abort();
    }, this.timeoutMs);
    const link = linkSignals([c.signal, ac.signal]);
    let httpStatus: number | undefined;
    let result: Attempt<T>;
    let sent = false;
    try {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json',
        [header[0]]: header[1],
      };
      if (this.reportErrorAsSuccess) {
        headers['x-reporterrorassuccess'] = 'true';
      }
      sent = true;
      const res = await this.pool.request({
        origin: this.baseUrl.origin, path: url.pathname, method: 'POST', headers, body: JSON.stringify(c.body), signal: link.signal,
      });
      httpStatus = res.statusCode;
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        const buf = chunk as Buffer;
        size += buf.length;
        if (size > MAX_RESPONSE_BYTES) {
          res.body.destroy();
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
        retryAfterHeader: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      result = { ok: true, value: parseEnvelope(operation, raw, c.validate, Date.now()) };
    } catch (err) {
      result = this.failure(err, operation, httpStatus, timedOut, c.signal, sent);
    } finally {
      clearTimeout(timer);
      link.dispose();
    }
    this.log({
      operation, titleId: this.titleId, attempt, ok: result.ok, durationMs: Math.round(performance.now() - started),
      httpStatus: result.ok ? httpStatus : (result.error.httpStatus ?? httpStatus),
      errorCode: result.ok ? undefined : result.error.errorCode,
      error: result.ok ? undefined : redactText(result.error.error ?? result.error.kind, [...this.knownSecrets]),
    });
    return result;
  }

  private failure(err: unknown, operation: string, httpStatus: number | undefined, timedOut: boolean, signal: AbortSignal, sent: boolean): { ok: false; error: PlatformError; ambiguous: boolean } {
    if (err instanceof PlatformError) {
      const status = err.code ?? err.httpStatus ?? 0;
      // A 2xx that came garbled or a 5xx may have been acted on; a 4xx is a definite rejection.
      return { ok: false, error: err, ambiguous: status < 400 || status >= 500 };
    }
    if (timedOut) {
      return {
        ok: false, ambiguous: true,
        error: new PlatformError({
          kind: 'timeout', operation, httpStatus, retryable: true,
          message: `${operation}: the service did not answer within ${this.timeoutMs / 1000} s.`,
          hint: 'Try again; if it keeps timing out, check the network and the service endpoint setting.',
        }),
      };
    }
    if (signal.aborted) {
      // Once handed to the connection, the request may have reached the service.
      return { ok: false, ambiguous: sent, error: this.cancelled() };
    }
    const code = typeof (err as { code?: unknown })?.code === 'string' ? (err as { code: string }).code : undefined;
    const notSent = code !== undefined && NOT_SENT_CODES.has(code);
    const text = redactText(err instanceof Error ? err.message : String(err), [...this.knownSecrets]);
    return {
      ok: false, ambiguous: !notSent,
      error: new PlatformError({
        kind: 'network', operation, httpStatus, retryable: true,
        message: notSent
          ? `${operation}: could not connect to ${this.baseUrl.host} (${code}).`
          : `${operation}: the connection to ${this.baseUrl.host} failed before a full answer arrived (${code ?? text}).`,
        hint: 'Check the network and the service endpoint setting, then try again.',
      }),
    };
  }

  private log(e: RequestLogEntry): void {
    if (this.onRequest === undefined) {
      return;
    }
    try {
      this.onRequest(e);
    } catch {
      // A failing log sink must not fail the call.
    }
  }

  /** Distinct identifiers, sent in requests of at most 25 with bounded concurrency; PlatformId per identifier. */
  private async bulk(
    ids: readonly string[], field: string, o: BulkOptions | undefined, signal: AbortSignal,
    send: (chunk: string[], signal: AbortSignal) => Promise<(LookupEntry | null)[]>,
  ): Promise<Map<string, string | null>> {
    if (!Array.isArray(ids)) {
      throw this.invalid(`${field} must be a list of identifiers.`, 'Enter one identifier per line or separate them with commas.');
    }
    ids.forEach((id, i) => {
      if (typeof id !== 'string' || id.trim().length === 0) {
        throw this.invalid(`${field}[${i}] is empty.`, 'Remove empty entries from the list.');
      }
    });
    const concurrency = intOption(o?.concurrency, 'concurrency', 1, 64, this.concurrency);
    const unique = [...new Set(ids)];
    const chunks: string[][] = [];
    for (let i = 0; i < unique.length; i += MAX_IDS_PER_LOOKUP) {
      chunks.push(unique.slice(i, i + MAX_IDS_PER_LOOKUP));
    }
    const found = new Map<string, string | null>();
    const progress = (done: number): void => o?.onProgress?.(done, unique.length);
    progress(0);
    // A failed request stops the others: their answers would be thrown away.
    const stop = new AbortController();
    const link = linkSignals([signal, stop.signal]);
    let next = 0;
    let done = 0;
    let failure: unknown;
    const worker = async (): Promise<void> => {
      while (failure === undefined && !link.signal.aborted && next < chunks.length) {
        const chunk = chunks[next++];
        try {
          mergeLookup(chunk, await send(chunk, link.signal), found);
          done += chunk.length;
          progress(done);
        } catch (e) {
          failure ??= e;
          stop.abort();
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker));
    } finally {
      link.dispose();
    }
    if (signal.aborted) {
      throw this.cancelled();
    }
    if (failure !== undefined) {
      throw failure;
    }
    return found;
  }
}

/**
 * Records each requested identifier's PlatformId. Entries are matched by the identifier the service
 * echoes (exactly, then ignoring case); entries without one are matched by position.
 */
function mergeLookup(chunk: string[], entries: (LookupEntry | null)[], found: Map<string, string | null>): void {
  const exact = new Map<string, string | null>();
  const folded = new Map<string, string | null>();
  for (const e of entries) {
    if (e?.id !== undefined) {
      exact.set(e.id, e.platformId);
      folded.set(e.id.toLowerCase(), e.platformId);
    }
  }
  chunk.forEach((id, i) => {
    const positional = entries.length === chunk.length ? entries[i] : undefined;
    const value = exact.has(id) ? exact.get(id)
      : folded.has(id.toLowerCase()) ? folded.get(id.toLowerCase())
        : positional != null && positional.id === undefined ? positional.platformId : null;
    found.set(id, value ?? null);
  });
}
