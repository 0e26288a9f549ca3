// The emulated Platform service: state, clock, and dispatch from the operation table (credential
// and request checks), then one handler per operation. HTTP concerns (routing, bodies, faults)
// live in server.ts; credentials, deletion jobs and the launcher login in modules of their own.

import { randomBytes } from 'node:crypto';
import { OPERATIONS, type OperationName, type RequestOf, type ResultOf } from '../core/api/operations';
import { validate, type Schema } from '../core/api/schema';
import { DEFAULT_SANDBOX } from '../core/api/types';
import { Credentials, type Caller, type Headers } from './credentials';
import { ApiError, badRequest, invalidParams } from './http';
import { DeletionJobs } from './jobs';
import { LauncherKeyCache } from './jwt';
import { loginWithLauncher } from './login';
import type { StateStore } from './persistence';
import { buildSeed } from './seed';
import type { SeedName } from './seed';
import { Indexes } from './state';
import type { DeletionJob, EmulatorData, PersistedState, PlayerState, TitleState } from './state';

export function newPersistedState(seed: SeedName, data: EmulatorData): PersistedState {
  return { version: 1, seed, tokenSecret: randomBytes(32).toString('base64'), tokensExpiredBefore: 0, clockOffsetMs: 0, data };
}

type Handlers = { [N in OperationName]: (title: TitleState, req: RequestOf<N>, caller: Caller) => ResultOf<N> | Promise<ResultOf<N>> };

/** The request checked against the table's request schema: every problem, per field, in one InvalidParams. */
function checkRequest<N extends OperationName>(name: N, body: Record<string, unknown>): RequestOf<N> {
  const r = validate(body, OPERATIONS[name].request as Schema<RequestOf<N>>, '');
  if (r.issues.length > 0) {
    const details: Record<string, string[]> = {};
    // Keyed by the request member (the message names the entry: StorefrontNames[3]).
    for (const i of r.issues) (details[i.path.replace(/\[\d+\]/g, '') || 'RequestBody'] ??= []).push(`${i.message}.`);
    throw invalidParams(details);
  }
  return r.value;
}

export class PlatformService {
  private idx: Indexes;
  readonly credentials: Credentials;
  readonly jobs: DeletionJobs;
  readonly keyCache = new LauncherKeyCache();

  constructor(
    public state: PersistedState,
    private readonly store: StateStore,
    log: (line: string) => void,
  ) {
    this.credentials = new Credentials(Buffer.from(state.tokenSecret, 'base64'), () => this.now(), () => this.state.tokensExpiredBefore);
    this.jobs = new DeletionJobs({ data: () => this.data, indexes: () => this.idx, now: () => this.now(), store, log });
    this.idx = this.reindex();
  }

  get data(): EmulatorData {
    return this.state.data;
  }

  /** Time from DeleteMasterPlayerAccount to completion. */
  get deletionDelayMs(): number {
    return this.jobs.deletionDelayMs;
  }

  set deletionDelayMs(ms: number) {
    this.jobs.deletionDelayMs = ms;
  }

  /** Emulator time: the wall clock plus whatever clock/advance added. */
  now(): number {
    return Date.now() + this.state.clockOffsetMs;
  }

  private reindex(): Indexes {
    this.credentials.reindex(Object.values(this.data.titles));
    this.keyCache.clear();
    this.idx = new Indexes(this.data);
    return this.idx;
  }

  // ---- lifecycle -------------------------------------------------------------------

  /** Replaces the data with a fresh seed (reset / seed controls); server-wide settings stay. */
  async reseed(seed: SeedName): Promise<void> {
    this.state.data = await buildSeed(seed);
    this.state.seed = seed;
    this.state.clockOffsetMs = 0;
    this.reindex();
    this.jobs.schedule();
    await this.store.clearOutbox();
    this.store.markDirty();
    await this.store.flush();
  }

  start(): void {
    this.jobs.schedule();
  }

  stop(): void {
    this.jobs.stop();
  }

  expireAllTokens(): void {
    this.state.tokensExpiredBefore = this.now();
    this.store.markDirty();
  }

  async advanceClock(ms: number): Promise<string[]> {
    this.state.clockOffsetMs += ms;
    this.store.markDirty();
    return this.jobs.runDue();
  }

  /** Resolves once completed jobs' outbox files and the state are on disk. */
  settled(): Promise<void> {
    return this.jobs.settled();
  }

  async persistNow(): Promise<void> {
    this.store.markDirty();
    await this.store.flush();
  }

  jobsView(): DeletionJob[] {
    return this.data.jobs;
  }

  // ---- dispatch ----------------------------------------------------------------------

  /** Runs operation `name` for `title`: the credential, the request, then its handler. */
  async handle<N extends OperationName>(name: N, title: TitleState, headers: Headers, body: Record<string, unknown>): Promise<ResultOf<N>> {
    const spec = OPERATIONS[name];
    const caller = this.credentials.authenticate(spec, title, headers);
    const req = checkRequest(name, body);
    const entity = (req as { Entity?: { Type?: string } }).Entity;
    if (spec.entityType !== undefined && entity?.Type !== undefined && entity.Type !== spec.entityType) {
      throw badRequest('InvalidEntityType', `Entity.Type must be "${spec.entityType}" for ${spec.path}, not ${JSON.stringify(entity.Type)}.`);
    }
    const handler = this.handlers[name] as Handlers[N];
    return handler(title, req, caller);
  }

  private readonly handlers: Handlers = {
    GetEntityToken: (t, _req, caller) => this.getEntityToken(t, caller),
    DeleteMasterPlayerAccount: (t, req) => this.deleteMasterPlayerAccount(t, req),
    GetPlayedTitleList: (t, req) => ({ TitleIds: this.playedTitles(this.findPlayer(t, req.PlatformId)) }),
    LoginWithLauncher: (t, req) => loginWithLauncher({
      data: this.data, idx: this.idx, now: this.now(), credentials: this.credentials, keyCache: this.keyCache,
      markDirty: () => this.store.markDirty(),
    }, t, req),
    GetPlatformIDsFromConsoleLiveIDs: (t, req) => {
      const sandbox = req.Sandbox ?? DEFAULT_SANDBOX;
      return {
        Data: req.ConsoleLiveAccountIDs.map((id) => ({
          ConsoleLiveAccountId: id,
          PlatformId: this.idx.consoleLive.get(Indexes.consoleLiveKey(t.publisherId, sandbox, id)) ?? null,
        })),
      } as ResultOf<'GetPlatformIDsFromConsoleLiveIDs'>;
    },
    GetPlatformIDsFromStorefrontNames: (t, req) => ({
      Data: req.StorefrontNames.map((name) => ({
        StorefrontName: name,
        PlatformId: this.idx.storefront.get(Indexes.nameKey(t.publisherId, name)) ?? null,
      })),
    }) as ResultOf<'GetPlatformIDsFromStorefrontNames'>,
    GetHandheldStore: (t) => this.getHandheldStore(t),
    DeleteMobileStore: (t) => this.deleteAddon(t, 'MobileStore'),
    DeleteConsoleNetB: (t) => this.deleteAddon(t, 'ConsoleNetB'),
  };

  private getEntityToken(title: TitleState, caller: Caller): ResultOf<'GetEntityToken'> {
    switch (caller.via) {
      case 'X-SecretKey':
        return this.credentials.issueToken(title.titleId, 'title', title.titleId);
      case 'X-EntityToken':
        return this.credentials.issueToken(title.titleId, caller.claims.et, caller.claims.id);
      case 'X-Authorization': {
        // A session ticket gets that player's title player account token, while the player exists.
        const player = this.data.players[caller.claims.p];
        if (!player || !player.titles[title.titleId]) {
          throw new ApiError(401, 'NotAuthenticated', 'The session ticket\'s player no longer exists; log in again.');
        }
        return this.credentials.issueToken(title.titleId, 'title_player_account', caller.claims.id);
      }
    }
  }

  // ---- Admin -------------------------------------------------------------------------

  private findPlayer(title: TitleState, platformId: string): PlayerState {
    const player = Object.hasOwn(this.data.players, platformId) ? this.data.players[platformId] : undefined;
    if (!player || player.publisherId !== title.publisherId) {
      throw badRequest('AccountNotFound', `No player with PlatformId ${platformId} exists for title ${title.titleId}.`);
    }
    return player;
  }

  private playedTitles(player: PlayerState): string[] {
    return Object.keys(player.titles).filter((t) => this.data.titles[t]?.publisherId === player.publisherId);
  }

  private async deleteMasterPlayerAccount(title: TitleState, req: RequestOf<'DeleteMasterPlayerAccount'>): Promise<ResultOf<'DeleteMasterPlayerAccount'>> {
    const player = this.findPlayer(title, req.PlatformId);
    // Everything up to the queue runs synchronously, so of two concurrent deletes exactly one queues.
    const queued = this.idx.queuedJobByPlayer.get(player.platformId);
    if (queued) {
      throw invalidParams(
        { PlatformId: [`A master account deletion for this player is already queued (JobReceiptId ${queued.JobReceiptId}); wait for its confirmation e-mail.`] },
        'A master account deletion for this player is already queued.',
      );
    }
    const job = await this.jobs.queue(player, title.titleId, this.playedTitles(player), req.MetaData);
    return { JobReceiptId: job.JobReceiptId, TitleIds: [...job.TitleIds] };
  }

  // ---- Addon -------------------------------------------------------------------------

  private getHandheldStore(title: TitleState): ResultOf<'GetHandheldStore'> {
    const a = title.addons.HandheldStore;
    if (!a) return { Created: false };
    // ClientSecret stays server-side: the service omits secrets from what it returns.
    const strip = (envs: typeof a.Environments) => envs.map((e) => ({ ClientID: e.ClientID, ID: e.ID }));
    return {
      Created: true,
      ApplicationID: a.ApplicationID,
      Environments: strip(a.Environments),
      SecondarySubscriptionEnvironments: strip(a.SecondarySubscriptionEnvironments),
      SubscriptionEnvironments: strip(a.SubscriptionEnvironments),
    };
  }

  private async deleteAddon(title: TitleState, name: 'MobileStore' | 'ConsoleNetB'): Promise<Record<string, never>> {
    if (!title.addons[name]) {
      throw badRequest('AddonDoesntExist', `Title ${title.titleId} has no ${name} add-on to delete.`);
    }
    title.addons[name] = null;
    this.store.markDirty();
    await this.store.flush();
    return {};
  }
}
