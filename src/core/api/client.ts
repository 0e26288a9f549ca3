// PlatformClient: one method per operation of the table (operations.ts), with time-outs,
// cancellation, the title token cache and the retry policy (retryPolicy.ts); one HTTP attempt is
// exchange.ts, the connection transport.ts, bulk lookups bulk.ts.
import { setMaxListeners } from 'node:events';
import { buildBaseUrl } from '../endpoint';
import { validatePlatformId } from '../ids';
import { MAX_MESSAGE, redactText } from '../redact';
import { checkAccountLookup } from './accountLookup';
import { runBulk } from './bulk';
import { PlatformError, withChanges } from './errors';
import { exchange, type ExchangeContext, type RequestLogEntry } from './exchange';
import { completeLoginRequest } from './loginRequest';
import { OPERATIONS, type OperationName } from './operations';
import {
  BULK_CONCURRENCY, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, intOption, MAX_RETRY_AFTER_SECONDS, optionError, RETRY_BASE_DELAY_MS,
  type BulkOptions, type CallOptions, type PlatformClientOptions,
} from './options';
import { validators, type LookupEntry } from './results';
import { decide } from './retryPolicy';
import { linkSignals, sleep } from './signals';
import { TitleTokenCache } from './tokenCache';
import { createTransport, type Transport } from './transport';
import {
  DEFAULT_SANDBOX,
  type ConsoleLivePlatformIdPair, type DeleteMasterPlayerAccountRequest, type DeleteMasterPlayerAccountResult,
  type EntityTokenResult, type ExportMasterPlayerDataResult, type GetPlayedTitleListResult, type GetUserAccountInfoRequest,
  type GetUserAccountInfoResult, type HandheldStoreConfig, type LoginRequestInput, type LoginResult,
  type StorefrontPlatformIdPair,
} from './types';

export type { RequestLogEntry } from './exchange';

/** errorDetails kept in a failure: fields, messages per field, characters per name or message. */
const MAX_DETAIL_FIELDS = 50;
const MAX_DETAIL_CHARS = 1000;

export {
  BULK_CONCURRENCY, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, MAX_RETRY_AFTER_SECONDS, RETRY_BASE_DELAY_MS,
  type BulkOptions, type CallOptions, type PlatformClientOptions,
} from './options';

interface Call<T> {
  /** The row of the operation table: path, credential, whether it mutates. */
  operation: OperationName;
  body: unknown;
  validate: (data: unknown) => T;
  signal: AbortSignal;
}

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
  /** Calls running now; closeWhenIdle() waits for them. */
  private inFlight = 0;
  /** Set by closeWhenIdle(): the client was replaced (its settings changed), not cancelled by a user. */
  private whenIdle: Promise<void> | undefined;
  private markIdle: (() => void) | undefined;

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
      return this.call({ operation: 'DeleteMasterPlayerAccount', body, validate: validators.deleteMasterPlayerAccount, signal });
    });
  }

  getPlayedTitleList(platformId: string, o?: CallOptions): Promise<GetPlayedTitleListResult> {
    return this.run(o, (signal) => {
      this.checkPlatformId(platformId, 'PlatformId');
      return this.call({ operation: 'GetPlayedTitleList', body: { PlatformId: platformId }, validate: validators.getPlayedTitleList, signal });
    });
  }

  /** One account, by exactly one of PlatformId, Email, Username, TitleDisplayName (title-specific). */
  getUserAccountInfo(r: GetUserAccountInfoRequest, o?: CallOptions): Promise<GetUserAccountInfoResult> {
    return this.run(o, (signal) => {
      const q = checkAccountLookup(r);
      if (!q.ok) throw this.invalid(q.message, q.hint);
      return this.call({ operation: 'GetUserAccountInfo', body: { [q.field]: q.value }, validate: validators.getUserAccountInfo, signal });
    });
  }

  /** Queues an export of the master account; the download link comes later (event or e-mail). */
  exportMasterPlayerData(platformId: string, o?: CallOptions): Promise<ExportMasterPlayerDataResult> {
    return this.run(o, (signal) => {
      this.checkPlatformId(platformId, 'PlatformId');
      return this.call({ operation: 'ExportMasterPlayerData', body: { PlatformId: platformId }, validate: validators.exportMasterPlayerData, signal });
    });
  }

  /** Queues the deletion of the account's events (the account stays); no receipt. */
  deleteMasterPlayerEventData(platformId: string, o?: CallOptions): Promise<void> {
    return this.run(o, (signal) => {
      this.checkPlatformId(platformId, 'PlatformId');
      return this.call({ operation: 'DeleteMasterPlayerEventData', body: { PlatformId: platformId }, validate: validators.empty, signal });
    });
  }

  // ---- Server -----------------------------------------------------------------------------

  loginWithLauncher(r: LoginRequestInput, o?: CallOptions): Promise<LoginResult> {
    return this.run(o, (signal) => {
      if (typeof r?.IdentityToken !== 'string' || r.IdentityToken.trim().length === 0) {
        throw this.invalid('IdentityToken is empty.', 'Paste the identity token (a JWT) the launcher returned after login.');
      }
      this.knownSecrets.add(r.IdentityToken);
      return this.call({ operation: 'LoginWithLauncher', body: completeLoginRequest(r), validate: validators.loginWithLauncher, signal });
    });
  }

  getPlatformIdsFromConsoleLiveIds(ids: readonly string[], sandbox: string = DEFAULT_SANDBOX, o?: BulkOptions): Promise<ConsoleLivePlatformIdPair[]> {
    return this.run(o, async (signal) => {
      if (typeof sandbox !== 'string' || sandbox.trim().length === 0) {
        throw this.invalid('Sandbox is empty.', `Enter the sandbox name (case-sensitive), or leave it at ${DEFAULT_SANDBOX}.`);
      }
      const found = await this.bulk(ids, 'ConsoleLiveAccountIDs', o, signal, (chunk, s) =>
        this.call({
          operation: 'GetPlatformIDsFromConsoleLiveIDs',
          body: { ConsoleLiveAccountIDs: chunk, Sandbox: sandbox }, validate: validators.lookup('ConsoleLiveAccountId'), signal: s,
        }));
      return ids.map((id) => ({ ConsoleLiveAccountId: id, PlatformId: found.get(id) ?? null }));
    });
  }

  getPlatformIdsFromStorefrontNames(names: readonly string[], o?: BulkOptions): Promise<StorefrontPlatformIdPair[]> {
    return this.run(o, async (signal) => {
      const found = await this.bulk(names, 'StorefrontNames', o, signal, (chunk, s) =>
        this.call({
          operation: 'GetPlatformIDsFromStorefrontNames',
          body: { StorefrontNames: chunk }, validate: validators.lookup('StorefrontName'), signal: s,
        }));
      return names.map((name) => ({ StorefrontName: name, PlatformId: found.get(name) ?? null }));
    });
  }

  // ---- Addon ------------------------------------------------------------------------------

  getHandheldStore(o?: CallOptions): Promise<HandheldStoreConfig> {
    return this.run(o, (signal) =>
      this.call({ operation: 'GetHandheldStore', body: {}, validate: validators.handheldStore, signal }));
  }

  deleteMobileStore(o?: CallOptions): Promise<void> {
    return this.run(o, (signal) =>
      this.call({ operation: 'DeleteMobileStore', body: {}, validate: validators.empty, signal }));
  }

  deleteConsoleNetB(o?: CallOptions): Promise<void> {
    return this.run(o, (signal) =>
      this.call({ operation: 'DeleteConsoleNetB', body: {}, validate: validators.empty, signal }));
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
    if (this.whenIdle === undefined) {
      this.whenIdle = new Promise<void>((resolve) => { this.markIdle = resolve; });
      if (this.inFlight === 0) this.markIdle?.();
    }
    return this.whenIdle.then(() => this.close());
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
    this.inFlight++;
    try {
      if (this.closed !== undefined) {
        throw this.whenIdle !== undefined
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
      if (--this.inFlight === 0) this.markIdle?.();
    }
  }

  private redacted(e: PlatformError): PlatformError {
    const secrets = [...this.knownSecrets];
    // Clipped before the scan (never through a secret): field names and messages are service strings of any size.
    const details = e.errorDetails === undefined ? undefined
      : Object.fromEntries(Object.entries(e.errorDetails).slice(0, MAX_DETAIL_FIELDS)
        .map(([k, v]) => [redactText(k, secrets, MAX_DETAIL_CHARS), v.slice(0, MAX_DETAIL_FIELDS).map((m) => redactText(m, secrets, MAX_DETAIL_CHARS))]));
    return withChanges(e, {
      message: redactText(e.message, secrets, MAX_MESSAGE),
      errorMessage: e.errorMessage === undefined ? undefined : redactText(e.errorMessage, secrets, MAX_MESSAGE),
      error: e.error === undefined ? undefined : redactText(e.error, secrets, MAX_MESSAGE),
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

  private asPlatformError(e: unknown, signal: AbortSignal, operation?: OperationName): PlatformError {
    if (e instanceof PlatformError) {
      return e;
    }
    if (signal.aborted) {
      return this.cancelled();
    }
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
    const token = await this.call({ operation: 'GetEntityToken', body: {}, validate: validators.entityToken, signal: this.closing.signal });
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

  /** One operation with retries, the entity-token refresh and the delete rules (retryPolicy.ts). */
  private async call<T>(c: Call<T>): Promise<T> {
    const mutating = OPERATIONS[c.operation].mutating;
    const usesEntityToken = !usesSecretKey(c.operation);
    let retries = 0;
    let refreshedToken = false;
    for (let attempt = 1; ; attempt++) {
      let header: [string, string];
      try {
        header = await this.authHeader(c.operation, c.signal);
      } catch (e) {
        throw this.asPlatformError(e, c.signal, c.operation);
      }
      const r = await exchange(this.exchangeContext, { ...c, header, attempt });
      if (r.ok) {
        return r.value;
      }
      const next = decide(r, {
        mutating, usesEntityToken, refreshedToken, retries,
        maxRetries: this.maxRetries, maxRetryAfterSeconds: this.maxRetryAfterSeconds, retryBaseDelayMs: this.retryBaseDelayMs,
      }, Math.random());
      if (next.kind === 'fail') {
        throw next.error;
      }
      if (next.kind === 'refreshToken') {
        refreshedToken = true;
        this.tokens.invalidate(header[1]);
        continue;
      }
      retries++;
      if (!(await sleep(next.delayMs, c.signal))) {
        throw this.cancelled();
      }
    }
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
  private bulk(
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
    return runBulk(ids, signal, { concurrency, onProgress: o?.onProgress, onResolved: o?.onResolved, send }, () => this.cancelled());
  }
}
