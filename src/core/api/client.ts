// PlatformClient: read(name, request) and mutate(name, request), typed by the operation table
// (operations.ts), over one call(): the row's request checked, its credential, time-outs,
// cancellation, the title token cache, the retry policy (retryPolicy.ts, which never re-sends a
// mutation), the answer checked by the row's result schema. The few per-operation methods add
// behaviour on top (bulk chunking, the login's defaults, TitleIds as a list, no ClientSecret).
// One HTTP attempt is exchange.ts, the connection transport.ts, bulk lookups bulk.ts.
import { setMaxListeners } from 'node:events';
import { buildBaseUrl } from './endpoint';
import { validatePlatformId } from '../ids';
import { MAX_MESSAGE, redactText } from '../redact';
import { checkAccountLookup } from './accountLookup';
import { checkIdentifiers, runBulk, type LookupEntry } from './bulk';
import { lookupEntries, redactError, usableToken, withoutClientSecret } from './answers';
import { PlatformError } from './errors';
import { checkResult, exchange, type ExchangeContext, type RequestLogEntry } from './exchange';
import { completeLoginRequest } from './loginRequest';
import { OPERATIONS, type MutatingOperation, type OperationName, type ReadOperation, type RequestOf, type ResultOf } from './operations';
import {
  BULK_CONCURRENCY, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, intOption, MAX_RETRY_AFTER_SECONDS, RETRY_BASE_DELAY_MS,
  type BulkOptions, type CallOptions, type PlatformClientOptions,
} from './options';
import { decide } from './retryPolicy';
import { IdleTracker } from './idle';
import { validate, type Schema } from './schema';
import { afterAttempts, CallEnd } from './retryReport';
import { linkSignals, sleep } from './signals';
import { TitleTokenCache } from './tokenCache';
import { createTransport, optionError, type Transport } from './transport';
import {
  DEFAULT_SANDBOX,
  type ConsoleLivePlatformIdPair, type DeleteMasterPlayerAccountRequest, type DeleteMasterPlayerAccountResult,
  type EntityTokenResult, type GetPlayedTitleListResult, type GetUserAccountInfoRequest,
  type GetUserAccountInfoResult, type HandheldStoreConfig, type LoginRequestInput, type LoginResult,
  type StorefrontPlatformIdPair,
} from './types';

export type { RequestLogEntry } from './exchange';

export {
  BULK_CONCURRENCY, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, MAX_RETRY_AFTER_SECONDS, RETRY_BASE_DELAY_MS,
  type BulkOptions, type CallOptions, type PlatformClientOptions,
} from './options';

/** The credential the client sends: the secret key where the operation takes it, else a title token. */
function usesSecretKey(operation: OperationName): boolean {
  return OPERATIONS[operation].auth.includes('X-SecretKey');
}

export class PlatformClient {
  readonly titleId: string;
  readonly baseUrl: URL;
  private readonly transport: Transport;
  private readonly exchangeContext: ExchangeContext;
  private readonly getSecretKey: () => Promise<string | undefined>;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly concurrency: number;
  private readonly reportErrorAsSuccess: boolean;
  private readonly onRequest?: (e: RequestLogEntry) => void;
  private readonly onRetry?: PlatformClientOptions['onRetry'];
  private readonly retryBaseDelayMs: number;
  private readonly maxRetryAfterSeconds: number;
  private readonly now: () => number;
  private readonly tokens: TitleTokenCache;
  /** Aborted by close(); every call in flight listens on it. */
  private readonly closing = new AbortController();
  /** Secrets seen by this client, masked out of every error message. */
  private readonly knownSecrets = new Set<string>();

  /** Every secret this client has seen (its key, identity and entity tokens, proxy credentials), to mask wherever its answers go. */
  knownSecretValues(): readonly string[] {
    return [...this.knownSecrets];
  }
  private closed: Promise<void> | undefined;
  /** The calls running now (the token fetch they share outlives a cancelled caller). */
  private readonly busy = new IdleTracker();
  /** Set by closeWhenIdle(): the client was replaced (its settings changed), not cancelled by a user. */
  private replaced = false;

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
    this.onRetry = o.onRetry;
    this.now = o.now ?? Date.now;
    this.transport = createTransport(this.baseUrl.origin, o, {
      connections: Math.max(BULK_CONCURRENCY, this.concurrency),
      keepAliveTimeout: 30_000,
      connectTimeoutMs: this.timeoutMs,
    });
    this.transport.secrets.forEach((x) => this.knownSecrets.add(x));
    this.exchangeContext = {
      titleId: this.titleId, baseUrl: this.baseUrl, transport: this.transport, timeoutMs: this.timeoutMs,
      reportErrorAsSuccess: this.reportErrorAsSuccess, secrets: () => [...this.knownSecrets],
      cancelled: () => this.cancelled(), log: (e) => this.log(e),
    };
    this.tokens = new TitleTokenCache(() => this.fetchEntityToken(), this.now);
    setMaxListeners(0, this.closing.signal);
  }

  // ---- The typed entry points ----------------------------------------------------------------

  /** Sends operation `name`, which changes nothing, and answers its checked result. */
  read<N extends ReadOperation>(name: N, request: RequestOf<N>, o?: CallOptions): Promise<ResultOf<N>> {
    // The type refuses a mutating row; this refuses one from untyped code (a tool's input, a cast).
    if (OPERATIONS[name]?.mutating !== false) {
      return Promise.reject(this.invalid(`${String(name)} is not an operation that only reads: nothing was sent.`, 'Send it through mutate(), from a command that asks first.'));
    }
    return this.run(o, (signal) => this.call(name, request, signal, o, (r) => r));
  }

  /** Sends operation `name`, which changes state: never sent twice (the retry policy stops after an ambiguous failure). */
  mutate<N extends MutatingOperation>(name: N, request: RequestOf<N>, o?: CallOptions): Promise<ResultOf<N>> {
    return this.run(o, (signal) => this.call(name, request, signal, o, (r) => r));
  }

  // ---- Operations with behaviour of their own -------------------------------------------------

  async deleteMasterPlayerAccount(r: DeleteMasterPlayerAccountRequest, o?: CallOptions): Promise<DeleteMasterPlayerAccountResult> {
    const result = await this.mutate('DeleteMasterPlayerAccount', r, o);
    return { ...result, TitleIds: result.TitleIds ?? [] };
  }

  async getPlayedTitleList(platformId: string, o?: CallOptions): Promise<GetPlayedTitleListResult> {
    const result = await this.read('GetPlayedTitleList', { PlatformId: platformId }, o);
    return { ...result, TitleIds: result.TitleIds ?? [] };
  }

  /** The info flags and profile constraints left out are sent as false; the identity token is masked wherever this client reports. */
  loginWithLauncher(r: LoginRequestInput, o?: CallOptions): Promise<LoginResult> {
    if (typeof r?.IdentityToken !== 'string' || r.IdentityToken.trim().length === 0) {
      return Promise.reject(this.invalid('IdentityToken is empty.', 'Paste the identity token (a JWT) the launcher returned after login.'));
    }
    this.knownSecrets.add(r.IdentityToken);
    return this.read('LoginWithLauncher', completeLoginRequest(r), o);
  }

  getPlatformIdsFromConsoleLiveIds(ids: readonly string[], sandbox: string = DEFAULT_SANDBOX, o?: BulkOptions): Promise<ConsoleLivePlatformIdPair[]> {
    return this.run(o, async (signal) => {
      if (typeof sandbox !== 'string' || sandbox.trim().length === 0) {
        throw this.invalid('Sandbox is empty.', `Enter the sandbox name (case-sensitive), or leave it at ${DEFAULT_SANDBOX}.`);
      }
      const found = await this.bulk(ids, 'ConsoleLiveAccountIDs', o, signal, (chunk, s) =>
        this.call('GetPlatformIDsFromConsoleLiveIDs', { ConsoleLiveAccountIDs: chunk, Sandbox: sandbox }, s, o, (r) => lookupEntries(r.Data, 'ConsoleLiveAccountId')));
      return ids.map((id) => ({ ConsoleLiveAccountId: id, PlatformId: found.get(id) ?? null }));
    });
  }

  getPlatformIdsFromStorefrontNames(names: readonly string[], o?: BulkOptions): Promise<StorefrontPlatformIdPair[]> {
    return this.run(o, async (signal) => {
      const found = await this.bulk(names, 'StorefrontNames', o, signal, (chunk, s) =>
        this.call('GetPlatformIDsFromStorefrontNames', { StorefrontNames: chunk }, s, o, (r) => lookupEntries(r.Data, 'StorefrontName')));
      return names.map((name) => ({ StorefrontName: name, PlatformId: found.get(name) ?? null }));
    });
  }

  /** One account, by exactly one of PlatformId, Email, Username, TitleDisplayName (title-specific): the others are refused before sending. */
  getUserAccountInfo(r: GetUserAccountInfoRequest, o?: CallOptions): Promise<GetUserAccountInfoResult> {
    const q = checkAccountLookup(r);
    if (!q.ok) return Promise.reject(this.invalid(q.message, q.hint));
    return this.read('GetUserAccountInfo', { [q.field]: q.value }, o);
  }

  getHandheldStore(o?: CallOptions): Promise<HandheldStoreConfig> {
    return this.run(o, (signal) => this.call('GetHandheldStore', {}, signal, o, withoutClientSecret));
  }

  // ---- Title entity token -------------------------------------------------------------------

  /** The cached title entity token, fetched or refreshed as needed. */
  getEntityToken(o?: CallOptions): Promise<EntityTokenResult> {
    return this.run(o, async (signal) => {
      try {
        return await this.tokens.get(signal);
      } catch (e) {
        throw this.asPlatformError(e, signal, 'GetEntityToken');
      }
    });
  }

  /** The proxy requests go through, as HOST:PORT (never its credentials); undefined when direct. */
  get proxy(): string | undefined {
    return this.transport.proxy;
  }

  clearCachedToken(): void {
    this.tokens.invalidate();
  }

  /**
   * Closes the connection pool once the calls running now have finished (they are not cut off),
   * for a client replaced because its settings changed. A call made on it after that fails with a
   * message saying so, never silently as a cancellation.
   */
  closeWhenIdle(): Promise<void> {
    this.replaced = true;
    return this.whenIdle().then(() => this.close());
  }

  /** Resolves once nothing runs: no request in flight, no retry waiting, no bulk lookup scheduling, no token fetch. */
  whenIdle(): Promise<void> {
    return this.busy.whenIdle();
  }

  /** Aborts calls in flight and closes the connection pool. */
  close(): Promise<void> {
    if (this.closed === undefined) {
      this.closing.abort();
      this.closed = this.transport.dispatcher.close().catch(() => undefined);
    }
    return this.closed;
  }

  // ---- Internals -----------------------------------------------------------------------------

  /** Runs `fn` with one signal for the user's cancellation and close(), and redacts what it throws. */
  private async run<T>(o: CallOptions | undefined, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const link = linkSignals([o?.signal, this.closing.signal]);
    this.busy.enter();
    try {
      if (this.closed !== undefined) {
        throw this.replaced
          ? new PlatformError({ kind: 'network', message: `The connection for title ${this.titleId} was replaced because its settings changed.`, hint: 'Run the command again; it uses the new settings.' })
          : new PlatformError({ kind: 'cancelled', message: `The connection for title ${this.titleId} is closed.`, hint: 'Try again; a new connection will be made.' });
      }
      if (link.signal.aborted) {
        throw this.cancelled();
      }
      return await fn(link.signal);
    } catch (e) {
      throw this.redacted(e instanceof PlatformError ? e : this.asPlatformError(e, link.signal));
    } finally {
      link.dispose();
      this.busy.leave();
    }
  }

  private redacted(e: PlatformError): PlatformError {
    return redactError(e, [...this.knownSecrets]);
  }

  private cancelled(): PlatformError {
    return new PlatformError({
      kind: 'cancelled',
      message: this.closed !== undefined ? `The call for title ${this.titleId} was stopped because its connection was closed.` : 'Cancelled.',
      hint: 'Nothing to do.',
    });
  }

  private asPlatformError(e: unknown, signal: AbortSignal, operation?: OperationName): PlatformError {
    if (e instanceof PlatformError) return e;
    if (signal.aborted) return this.cancelled();
    const text = e instanceof Error ? e.message : String(e);
    return new PlatformError({
      kind: 'network',
      operation,
      message: `Unexpected failure: ${redactText(text, [...this.knownSecrets], MAX_MESSAGE)}`,
      hint: 'Try again; if it persists, check the log.',
    });
  }

  private invalid(message: string, hint: string): PlatformError {
    return new PlatformError({ kind: 'validation', message, hint });
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
    const token = await this.call('GetEntityToken', {}, this.closing.signal, undefined, usableToken);
    this.knownSecrets.add(token.EntityToken);
    return token;
  }

  private async authHeader(operation: OperationName, signal: AbortSignal): Promise<[string, string]> {
    if (usesSecretKey(operation)) {
      return ['x-secretkey', await this.secretKey()];
    }
    const t = await this.tokens.get(signal);
    return ['x-entitytoken', t.EntityToken];
  }

  /** The operations `o` lets this call send: those it names, plus GetEntityToken for a row that sends a title token. */
  private refused(name: OperationName, o: CallOptions | undefined): PlatformError | undefined {
    const only = o?.only;
    if (only === undefined) return undefined;
    const needed = usesSecretKey(name) ? [name] : ['GetEntityToken' as const, name];
    const missing = needed.filter((n) => !only.operations.has(n));
    return missing.length === 0 ? undefined : this.invalid(`${only.caller} did not declare ${missing.join(', ')}.`, `Declare ${missing.join(', ')} where ${only.caller} lists its operations.`);
  }

  /** The row's request checked before anything is sent: a member of the wrong type, or a PlatformId that is not one, is named. */
  private checkRequest(name: OperationName, request: unknown): void {
    const { issues } = validate(request, OPERATIONS[name].request as Schema, 'request');
    if (issues.length > 0) {
      throw new PlatformError({ kind: 'validation', operation: name, message: `${name}: ${issues[0].message.replace(/^request\./, '')}; nothing was sent.`, hint: 'Correct that member and try again.' });
    }
    const platformId = (request as { PlatformId?: unknown }).PlatformId;
    const problem = platformId === undefined ? undefined : validatePlatformId(platformId);
    if (problem !== undefined) throw this.invalid(problem, 'Copy the PlatformId exactly as the service shows it.');
  }

  /**
   * The one way an operation is sent: the row's request checked, its credential, retries and the
   * token refresh by the retry policy (which never re-sends a mutation after an ambiguous failure),
   * the answer checked by the row's result schema and then given to `finish`.
   */
  private async call<N extends OperationName, T>(
    name: N, request: RequestOf<N>, signal: AbortSignal, o: CallOptions | undefined, finish: (r: ResultOf<N>) => T,
  ): Promise<T> {
    const refusal = this.refused(name, o);
    if (refusal !== undefined) throw refusal;
    this.checkRequest(name, request);
    const mutating = OPERATIONS[name].mutating;
    const usesEntityToken = !usesSecretKey(name);
    const check = (data: unknown): T => finish(checkResult(name, data));
    let retries = 0;
    let refreshedToken = false;
    const started = Date.now();
    const end = new CallEnd();
    this.busy.enter();
    try {
      for (let attempt = 1; ; attempt++) {
        let header: [string, string];
        try {
          header = await this.authHeader(name, signal);
        } catch (e) {
          throw this.asPlatformError(e, signal, name);
        }
        const r = await exchange(this.exchangeContext, { operation: name, body: request, validate: check, signal, header, attempt });
        if (r.ok) return r.value;
        const next = decide(r, {
          mutating, usesEntityToken, refreshedToken, retries,
          maxRetries: this.maxRetries, maxRetryAfterSeconds: this.maxRetryAfterSeconds, retryBaseDelayMs: this.retryBaseDelayMs,
        }, Math.random());
        if (next.kind === 'fail') throw afterAttempts(next.error, attempt, Date.now() - started);
        if (next.kind === 'refreshToken') {
          refreshedToken = true;
          this.tokens.invalidate(header[1]);
          continue;
        }
        retries++;
        this.onRetry?.({ operation: name, attempt: attempt + 1, of: this.maxRetries + 1, delayMs: next.delayMs, reason: r.error.message, settled: end.settled });
        if (!(await sleep(next.delayMs, signal))) {
          throw this.cancelled();
        }
      }
    } finally {
      end.done();
      this.busy.leave();
    }
  }

  private log(e: RequestLogEntry): void {
    try {
      this.onRequest?.(e);
    } catch {
      // A failing log sink must not fail the call.
    }
  }

  /** Distinct identifiers, sent in requests of at most 25 with bounded concurrency; PlatformId per identifier. */
  private bulk(
    ids: readonly string[], field: string, o: BulkOptions | undefined, signal: AbortSignal,
    send: (chunk: string[], signal: AbortSignal) => Promise<(LookupEntry | null)[]>,
  ): Promise<Map<string, string | null>> {
    checkIdentifiers(ids, field);
    const concurrency = intOption(o?.concurrency, 'concurrency', 1, 64, this.concurrency);
    return runBulk(ids, signal, { concurrency, onProgress: o?.onProgress, onResolved: o?.onResolved, send }, () => this.cancelled());
  }
}
