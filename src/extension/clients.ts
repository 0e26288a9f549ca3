// One PlatformClient per title, built on first use. The client module (and undici with it)
// is loaded lazily here, so activation never runs network code. A title's client drops itself
// when its key is set or cleared, or its record changes or is removed (the stores' events), and
// is rebuilt on the next use when the endpoint or time-out setting changed.
import type { CommandId } from './commandIds';
import * as vscode from 'vscode';
import type { PlatformClient } from '../core/api/client';
import type { RetryNotice } from '../core/api/retryReport';
import { buildBaseUrl } from '../core/api/endpoint';
import { noteOperation, noteTitle } from './activity/recorder';
import { CommandError } from './errors';
import { Disposable } from './lifecycle';
import type { Log } from './log';
import { routeFor } from './network';
import type { SecretKeys } from './secrets';
import { DEFAULT_SERVICE_ENDPOINT, readSettings } from './settings';
import type { TitleRecord, TitleStore } from './titles';

interface Entry {
  signature: string;
  client: PlatformClient;
}

export class Clients extends Disposable {
  private readonly cache = new Map<string, Entry>();
  /** Replaced by tests to check what happens in a workspace that is not trusted. */
  isTrusted: () => boolean;
  /** Told before each retry of any title's call (extension.ts shows it). */
  onRetry: ((titleId: string, n: RetryNotice) => void) | undefined;

  constructor(
    private readonly titles: TitleStore,
    private readonly secrets: SecretKeys,
    private readonly log: Log,
    isTrusted: () => boolean,
  ) {
    super();
    this.isTrusted = isTrusted;
    // The client caches entity tokens minted with the old key: a new key needs a new client.
    this._register(secrets.onDidChange((titleId) => void this.forget(titleId)));
    this._register(titles.onDidChange(() => void this.forgetStale()));
  }

  /** What a title's client is built from; a different value means it must be rebuilt. */
  private signatureOf(title: TitleRecord, endpoint: string, timeoutMs: number): string {
    return JSON.stringify([title, endpoint, timeoutMs]);
  }

  /** Drops the clients of titles removed or changed (endpoint, profile, name, production). */
  private async forgetStale(): Promise<void> {
    const timeoutMs = readSettings().requestTimeoutSeconds * 1000;
    const stale = [...this.cache].filter(([titleId, entry]) => {
      const title = this.titles.get(titleId);
      return !title || this.signatureOf(title, this.endpointFor(title), timeoutMs) !== entry.signature;
    });
    // Every stale entry leaves the cache before the first close is awaited, so no caller gets one.
    await Promise.allSettled(stale.map(([titleId]) => this.forget(titleId)));
  }

  /** Where the title's requests (and so its secret key) go. */
  endpointFor(title: TitleRecord): string {
    return title.endpointProfile === 'emulator' && title.emulatorEndpoint
      ? title.emulatorEndpoint
      : readSettings().serviceEndpoint;
  }

  /** What a title's client is built from; fails before any request when the key must not be sent. */
  private settingsFor(titleId: string): { title: TitleRecord; endpoint: string; timeoutMs: number } {
    const title = this.titles.get(titleId);
    if (!title) {
      throw new CommandError(vscode.l10n.t('Title {0} is not configured.', titleId), vscode.l10n.t('Add it with "Platform: Add Title".'),
        { label: vscode.l10n.t('Add Title'), command: 'platformExplorer.addTitle' satisfies CommandId });
    }
    if (!this.isTrusted()) {
      throw new CommandError(
        vscode.l10n.t('This workspace is not trusted, so Platform Explorer does not send title secret keys from it.'),
        vscode.l10n.t('Trust the workspace (Workspaces: Manage Workspace Trust) and run the command again.'),
        { label: vscode.l10n.t('Manage Workspace Trust'), command: 'workbench.trust.manage' },
      );
    }
    noteTitle(title.titleId);
    const endpoint = this.endpointFor(title);
    if (title.endpointProfile === 'service' && endpoint === DEFAULT_SERVICE_ENDPOINT) {
      throw new CommandError(
        vscode.l10n.t('The Platform service endpoint is not set, so there is nowhere to send requests for this title.'),
        vscode.l10n.t('Set "platformExplorer.serviceEndpoint" in your user settings to your service address, e.g. https://{titleId}.your-service-domain.'),
        { label: vscode.l10n.t('Open Settings'), command: 'platformExplorer.openEndpointSetting' satisfies CommandId },
      );
    }
    return { title, endpoint, timeoutMs: readSettings().requestTimeoutSeconds * 1000 };
  }

  /** A client built the way every client of the title is: its route (proxy, certificates), log, key. */
  private build(ClientClass: typeof PlatformClient, o: { title: TitleRecord; endpoint: string; timeoutMs: number }, maxRetries?: number): PlatformClient {
    const route = routeFor(buildBaseUrl(o.endpoint, o.title.titleId), o.title.endpointProfile === 'emulator');
    const client = new ClientClass({
      titleId: o.title.titleId,
      endpoint: o.endpoint,
      timeoutMs: o.timeoutMs,
      maxRetries,
      getSecretKey: () => this.secrets.get(o.title.titleId),
      onRequest: (e) => {
        this.log.request(e, route.via);
        noteOperation(e.operation, e.durationMs);
      },
      onRetry: (n) => this.onRetry?.(o.title.titleId, n),
      ...route.options,
    });
    this.log.info(`Title ${o.title.titleId}: requests go ${route.summary}`);
    route.warnings.forEach((w) => this.log.warn(w));
    return client;
  }

  /** The client for a configured title; fails before any request when the key must not be sent. */
  async get(titleId: string): Promise<PlatformClient> {
    const o = this.settingsFor(titleId);
    // Network settings are not in the signature: any change of them drops every client (extension.ts).
    const signature = this.signatureOf(o.title, o.endpoint, o.timeoutMs);
    const { PlatformClient: ClientClass } = await import('../core/api/client');
    // No await from here to the set, so two concurrent calls cannot both build a client.
    const cached = this.cache.get(o.title.titleId);
    if (cached?.signature === signature) {
      return cached.client;
    }
    if (cached) {
      this.cache.delete(o.title.titleId);
      cached.client.closeWhenIdle().catch(() => undefined);
    }
    const client = this.build(ClientClass, o);
    this.cache.set(o.title.titleId, { signature, client });
    return client;
  }

  /**
   * The title's client for a command that asks its questions first: each call goes to the
   * title's client of that moment, so a settings change while the user answers does not leave
   * the command holding a replaced (closed) client. A call in flight keeps its own client.
   */
  async following(titleId: string): Promise<PlatformClient> {
    const first = await this.get(titleId);
    return new Proxy(first, {
      get: (target, prop, receiver) => {
        const v: unknown = Reflect.get(target, prop, receiver);
        if (typeof v !== 'function') return v;
        return async (...args: unknown[]) => {
          const now = await this.get(titleId);
          return (Reflect.get(now, prop) as (...a: unknown[]) => unknown).apply(now, args);
        };
      },
    });
  }

  /** A client of its own for one deletion batch, without automatic retries so its pacer sees every throttled answer; the caller closes it. */
  async sender(titleId: string): Promise<PlatformClient> {
    const o = this.settingsFor(titleId);
    const { PlatformClient: ClientClass } = await import('../core/api/client');
    return this.build(ClientClass, o, 0);
  }

  // A forgotten client is out of the cache at once (the next call gets a new one) but closes only
  // when its calls in flight have finished: a running bulk lookup is not cut off by a settings change.
  private async forget(titleId: string): Promise<void> {
    const entry = this.cache.get(titleId.toUpperCase());
    this.cache.delete(titleId.toUpperCase());
    await entry?.client.closeWhenIdle();
  }

  async forgetAll(): Promise<void> {
    const entries = [...this.cache.values()];
    this.cache.clear();
    await Promise.allSettled(entries.map((e) => e.client.closeWhenIdle()));
  }

  /** Closes every client now, cutting off calls in flight (the extension is stopping). */
  async closeAll(): Promise<void> {
    const entries = [...this.cache.values()];
    this.cache.clear();
    await Promise.allSettled(entries.map((e) => e.client.close()));
  }
}
