// The emulated Platform service: state, clock, credentials, the operations and deletion jobs.
// HTTP concerns (routing, bodies, faults) live in server.ts.

import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { DEFAULT_SANDBOX, MAX_IDS_PER_LOOKUP, Operations } from '../core/api/types';
import type {
  AccountInfo,
  ConsoleLivePlatformIdPair,
  DeleteMasterPlayerAccountResult,
  EntityTokenResult,
  GetPlayedTitleListResult,
  HandheldStoreConfig,
  InfoResultPayload,
  LoginResult,
  LookupResult,
  OperationPath,
  PlayerProfile,
  StorefrontPlatformIdPair,
  UserDataRecord,
  VirtualCurrencyRechargeTime,
} from '../core/api/types';
import { ApiError, badRequest, FieldCheck, invalidParams } from './http';
import { LauncherKeyCache, verifyLauncherToken } from './jwt';
import type { StateStore } from './persistence';
import { buildSeed } from './seed';
import type { SeedName } from './seed';
import { Indexes, isoNoZone, isoUtc } from './state';
import type { DeletionJob, EmulatorData, OutboxMessage, PersistedState, PlayerState, PlayerTitleState, TitleState } from './state';
import { checkEntityToken, issueEntityToken } from './tokens';
import type { TokenClaims } from './tokens';

type Json = Record<string, unknown>;
type Headers = Record<string, string | string[] | undefined>;

const PROFILE_FLAGS = ['ShowDisplayName', 'ShowCreated', 'ShowLastLogin', 'ShowBannedUntil', 'ShowTotalValueToDateInUsd'];
const INFO_BOOLEANS = [
  'GetUserAccountInfo', 'GetUserInventory', 'GetUserVirtualCurrency', 'GetUserData', 'GetUserReadOnlyData',
  'GetCharacterInventories', 'GetCharacterList', 'GetTitleData', 'GetPlayerStatistics', 'GetPlayerProfile',
];
const INFO_LISTS = ['UserDataKeys', 'UserReadOnlyDataKeys', 'TitleDataKeys', 'PlayerStatisticNames'];

export function newPersistedState(seed: SeedName, data: EmulatorData): PersistedState {
  return { version: 1, seed, tokenSecret: randomBytes(32).toString('base64'), tokensExpiredBefore: 0, clockOffsetMs: 0, data };
}

function header(h: Headers, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function hex16(): string {
  return randomBytes(8).toString('hex').toUpperCase();
}

export class PlatformService {
  private idx: Indexes;
  private secretKeys = new Map<string, string>();
  private tokenSecret: Buffer;
  private jobTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly outboxWrites = new Set<Promise<void>>();
  /** Time from DeleteMasterPlayerAccount to completion. */
  deletionDelayMs = 5000;
  readonly keyCache = new LauncherKeyCache();

  constructor(
    public state: PersistedState,
    private readonly store: StateStore,
    private readonly log: (line: string) => void,
  ) {
    this.tokenSecret = Buffer.from(state.tokenSecret, 'base64');
    this.idx = this.reindex();
  }

  get data(): EmulatorData {
    return this.state.data;
  }

  /** Emulator time: the wall clock plus whatever clock/advance added. */
  now(): number {
    return Date.now() + this.state.clockOffsetMs;
  }

  private reindex(): Indexes {
    this.secretKeys = new Map(Object.values(this.data.titles).map((t) => [t.secretKey, t.titleId]));
    this.keyCache.clear();
    this.idx = new Indexes(this.data);
    return this.idx;
  }

  // ---- lifecycle -------------------------------------------------------------------

  /** Replaces the data with a fresh seed (reset / seed controls); server-wide settings stay. */
  async reseed(seed: SeedName): Promise<void> {
    // The titles keep their keys: clients configured with them go on working after a reset.
    const data = await buildSeed(seed, Object.fromEntries(Object.values(this.data.titles).map((t) => [t.titleId, t.secretKey])));
    this.state.data = data;
    this.state.seed = seed;
    this.state.clockOffsetMs = 0;
    this.reindex();
    this.scheduleJobs();
    await this.store.clearOutbox();
    this.store.markDirty();
    await this.store.flush();
  }

  start(): void {
    this.scheduleJobs();
  }

  stop(): void {
    this.closed = true;
    if (this.jobTimer) clearTimeout(this.jobTimer);
    this.jobTimer = undefined;
  }

  // ---- credentials -----------------------------------------------------------------

  requireSecretKey(title: TitleState, headers: Headers): void {
    const key = header(headers, 'x-secretkey');
    if (!key) throw new ApiError(401, 'NotAuthenticated', 'This operation needs the title secret key in the X-SecretKey header.');
    if (sameSecret(key, title.secretKey)) return;
    if (this.secretKeys.has(key)) {
      throw new ApiError(403, 'NotAuthorized', `The X-SecretKey belongs to another title, not ${title.titleId}; use this title's own secret key.`);
    }
    throw new ApiError(401, 'SecretKeyNotFound', `The X-SecretKey is not a secret key of title ${title.titleId}; copy the key again from the title's settings.`);
  }

  /** Checks X-EntityToken: present, genuine, unexpired, for this title. */
  requireEntityToken(title: TitleState, headers: Headers): TokenClaims {
    const token = header(headers, 'x-entitytoken');
    if (!token) throw new ApiError(401, 'EntityTokenMissing', 'This operation needs an entity token in the X-EntityToken header (get one with Authentication/GetEntityToken).');
    const check = checkEntityToken(this.tokenSecret, token, this.now(), this.state.tokensExpiredBefore);
    if (!check.ok) {
      if (check.reason === 'expired') throw new ApiError(401, 'EntityTokenExpired', 'The entity token has expired; get a fresh one with Authentication/GetEntityToken.');
      throw new ApiError(401, 'EntityTokenInvalid', 'The entity token is not valid; get a fresh one with Authentication/GetEntityToken.');
    }
    if (check.claims.t !== title.titleId) {
      throw new ApiError(403, 'NotAuthorized', `The entity token was issued for another title, not ${title.titleId}.`);
    }
    return check.claims;
  }

  private issueToken(titleId: string, type: TokenClaims['et'], id: string): EntityTokenResult {
    // Strictly after the tokens/expire cut-off, even within the same millisecond.
    const at = Math.max(this.now(), this.state.tokensExpiredBefore + 1);
    return issueEntityToken(this.tokenSecret, titleId, type, id, at);
  }

  expireAllTokens(): void {
    this.state.tokensExpiredBefore = this.now();
    this.store.markDirty();
  }

  // ---- dispatch ----------------------------------------------------------------------

  /** Each operation with the credential its area needs (Admin/Server: secret key; Addon: title token). */
  private readonly operations: Record<OperationPath, { auth: 'secretKey' | 'titleEntity' | 'either'; run: (title: TitleState, body: Json, headers: Headers) => unknown }> = {
    [Operations.GetEntityToken]: { auth: 'either', run: (t, _b, h) => this.getEntityToken(t, h) },
    [Operations.DeleteMasterPlayerAccount]: { auth: 'secretKey', run: (t, b) => this.deleteMasterPlayerAccount(t, b) },
    [Operations.GetPlayedTitleList]: { auth: 'secretKey', run: (t, b) => this.getPlayedTitleList(t, b) },
    [Operations.LoginWithLauncher]: { auth: 'secretKey', run: (t, b) => this.loginWithLauncher(t, b) },
    [Operations.GetPlatformIDsFromConsoleLiveIDs]: { auth: 'secretKey', run: (t, b) => this.consoleLiveLookup(t, b) },
    [Operations.GetPlatformIDsFromStorefrontNames]: { auth: 'secretKey', run: (t, b) => this.storefrontLookup(t, b) },
    [Operations.GetHandheldStore]: { auth: 'titleEntity', run: (t) => this.getHandheldStore(t) },
    [Operations.DeleteMobileStore]: { auth: 'titleEntity', run: (t) => this.deleteAddon(t, 'MobileStore') },
    [Operations.DeleteConsoleNetB]: { auth: 'titleEntity', run: (t) => this.deleteAddon(t, 'ConsoleNetB') },
  };

  async handle(op: OperationPath, title: TitleState, headers: Headers, body: Json): Promise<unknown> {
    const operation = this.operations[op];
    if (operation.auth === 'secretKey') this.requireSecretKey(title, headers);
    else if (operation.auth === 'titleEntity') this.requireTitleEntity(title, headers, body);
    return operation.run(title, body, headers);
  }

  private getEntityToken(title: TitleState, headers: Headers): EntityTokenResult {
    if (header(headers, 'x-secretkey')) {
      this.requireSecretKey(title, headers);
      return this.issueToken(title.titleId, 'title', title.titleId);
    }
    if (header(headers, 'x-entitytoken')) {
      const claims = this.requireEntityToken(title, headers);
      return this.issueToken(title.titleId, claims.et, claims.id);
    }
    throw new ApiError(401, 'NotAuthenticated', 'GetEntityToken needs the title secret key (X-SecretKey) or a current entity token (X-EntityToken).');
  }

  // ---- Admin -------------------------------------------------------------------------

  /** The player named by body.PlatformId; `check` may carry the caller's other field problems. */
  private findPlayer(title: TitleState, body: Json, check = new FieldCheck()): PlayerState {
    const platformId = check.string(body, 'PlatformId', true);
    check.done();
    const player = this.data.players[platformId!];
    if (!player || player.publisherId !== title.publisherId) {
      throw badRequest('AccountNotFound', `No player with PlatformId ${platformId} exists for title ${title.titleId}.`);
    }
    return player;
  }

  private playedTitles(player: PlayerState): string[] {
    return Object.keys(player.titles).filter((t) => this.data.titles[t]?.publisherId === player.publisherId);
  }

  private getPlayedTitleList(title: TitleState, body: Json): GetPlayedTitleListResult {
    return { TitleIds: this.playedTitles(this.findPlayer(title, body)) };
  }

  private async deleteMasterPlayerAccount(title: TitleState, body: Json): Promise<DeleteMasterPlayerAccountResult> {
    const check = new FieldCheck();
    const metaData = check.string(body, 'MetaData', false);
    const player = this.findPlayer(title, body, check);
    // Everything up to the push runs synchronously, so of two concurrent deletes exactly one queues.
    const queued = this.idx.queuedJobByPlayer.get(player.platformId);
    if (queued) {
      throw invalidParams(
        { PlatformId: [`A master account deletion for this player is already queued (JobReceiptId ${queued.JobReceiptId}); wait for its confirmation e-mail.`] },
        'A master account deletion for this player is already queued.',
      );
    }
    const now = this.now();
    const job: DeletionJob = {
      JobReceiptId: randomUUID(),
      PlatformId: player.platformId,
      titleId: title.titleId,
      TitleIds: this.playedTitles(player),
      createdAt: now,
      dueAt: now + this.deletionDelayMs,
      status: 'queued',
    };
    if (metaData !== undefined) job.MetaData = metaData;
    this.data.jobs.push(job);
    this.idx.queuedJobByPlayer.set(job.PlatformId, job);
    this.scheduleJobs();
    this.store.markDirty();
    // An acknowledged deletion must survive a restart: on disk before the 200.
    await this.store.flush();
    return { JobReceiptId: job.JobReceiptId, TitleIds: [...job.TitleIds] };
  }


  // ---- deletion jobs -----------------------------------------------------------------

  /** One timer for the earliest queued job; re-armed whenever jobs or the clock change. */
  scheduleJobs(): void {
    if (this.jobTimer) clearTimeout(this.jobTimer);
    this.jobTimer = undefined;
    if (this.closed) return;
    let next = Infinity;
    for (const j of this.idx.queuedJobByPlayer.values()) next = Math.min(next, j.dueAt);
    if (next === Infinity) return;
    const delay = Math.min(Math.max(0, next - this.now()), 2 ** 31 - 1);
    this.jobTimer = setTimeout(() => {
      this.jobTimer = undefined;
      this.runDueJobs().catch((e: unknown) => this.log(`deletion job failed: ${(e as Error).message}`));
    }, delay);
    this.jobTimer.unref();
  }

  /** Completes every queued job that is due; resolves when their outbox files are written. */
  async runDueJobs(): Promise<string[]> {
    const now = this.now();
    const due = [...this.idx.queuedJobByPlayer.values()].filter((j) => j.dueAt <= now);
    for (const j of due) {
      const write = this.completeJob(j, now).finally(() => this.outboxWrites.delete(write));
      this.outboxWrites.add(write);
    }
    this.scheduleJobs();
    await this.settled();
    return due.map((j) => j.JobReceiptId);
  }

  /** Resolves once every completed job's outbox file and the state are on disk (also those a timer completed). */
  async settled(): Promise<void> {
    await Promise.all(this.outboxWrites);
    await this.store.flush();
  }

  private completeJob(job: DeletionJob, now: number): Promise<void> {
    const player = this.data.players[job.PlatformId];
    if (player) {
      this.idx.removePlayer(player);
      delete this.data.players[job.PlatformId];
    }
    job.status = 'completed';
    job.completedAt = now;
    this.idx.queuedJobByPlayer.delete(job.PlatformId);
    const title = this.data.titles[job.titleId];
    const message: OutboxMessage = {
      to: title?.notificationEmail ?? 'unknown@emulator.local',
      subject: `Player account deletion completed (${job.JobReceiptId})`,
      body: [
        `The master player account deletion requested through title ${title?.name ?? job.titleId} (${job.titleId}) has completed.`,
        `JobReceiptId: ${job.JobReceiptId}`,
        `PlatformId: ${job.PlatformId}`,
        `Data was deleted from titles: ${job.TitleIds.join(', ') || '(none)'}`,
      ].join('\n'),
      JobReceiptId: job.JobReceiptId,
      titleId: job.titleId,
      sentAt: isoUtc(now),
    };
    this.data.outbox.push(message);
    this.store.markDirty();
    this.log(`deletion job ${job.JobReceiptId} completed for ${job.PlatformId}; mail to ${message.to}`);
    return this.store.writeOutbox(message);
  }

  async advanceClock(ms: number): Promise<string[]> {
    this.state.clockOffsetMs += ms;
    this.store.markDirty();
    return this.runDueJobs();
  }

  // ---- Server: lookups ---------------------------------------------------------------

  private consoleLiveLookup(title: TitleState, body: Json): LookupResult<ConsoleLivePlatformIdPair> {
    const check = new FieldCheck();
    const ids = check.stringArray(body, 'ConsoleLiveAccountIDs', { required: true, max: MAX_IDS_PER_LOOKUP, minOne: true });
    const sandbox = check.string(body, 'Sandbox', false) ?? DEFAULT_SANDBOX;
    check.done();
    const links = this.idx.consoleLive;
    return {
      Data: ids!.map((id) => ({
        ConsoleLiveAccountId: id,
        PlatformId: links.get(Indexes.consoleLiveKey(title.publisherId, sandbox, id)) ?? null,
      })),
    };
  }

  private storefrontLookup(title: TitleState, body: Json): LookupResult<StorefrontPlatformIdPair> {
    const check = new FieldCheck();
    const names = check.stringArray(body, 'StorefrontNames', { required: true, max: MAX_IDS_PER_LOOKUP, minOne: true });
    check.done();
    const links = this.idx.storefront;
    return {
      Data: names!.map((name) => ({
        StorefrontName: name,
        PlatformId: links.get(Indexes.nameKey(title.publisherId, name)) ?? null,
      })),
    };
  }

  // ---- Server: launcher login --------------------------------------------------------

  private async loginWithLauncher(title: TitleState, body: Json): Promise<LoginResult> {
    const check = new FieldCheck();
    const identityToken = check.string(body, 'IdentityToken', true);
    const createAccount = check.bool(body, 'CreateAccount') ?? false;
    check.stringMap(body, 'CustomTags');
    const info = check.object(body, 'InfoRequestParameters');
    let constraints: Json | undefined;
    if (info) {
      for (const f of INFO_BOOLEANS) check.bool(info, f, `InfoRequestParameters.${f}`);
      for (const f of INFO_LISTS) check.stringArray(info, f, { required: false }, `InfoRequestParameters.${f}`);
      constraints = check.object(info, 'ProfileConstraints', 'InfoRequestParameters.ProfileConstraints');
      if (constraints) {
        for (const f of Object.keys(constraints)) {
          if (!PROFILE_FLAGS.includes(f)) check.add('InfoRequestParameters.ProfileConstraints', `Unknown flag ${f}; known flags: ${PROFILE_FLAGS.join(', ')}.`);
          else check.bool(constraints, f, `InfoRequestParameters.ProfileConstraints.${f}`);
        }
      }
    }
    check.done();

    if (!title.launcher.enabled) {
      throw badRequest('LauncherNotEnabledForTitle', `Launcher sign-in is not enabled for title ${title.titleId}; enable it in the title's settings.`);
    }
    if (constraints) {
      const refused = Object.keys(constraints).filter((f) => constraints![f] === true && !title.allowedProfileConstraints.includes(f));
      if (refused.length > 0) {
        throw badRequest('RequestViewConstraintParamsNotAllowed', `Title ${title.titleId} does not allow the profile constraints ${refused.join(', ')}; allowed: ${title.allowedProfileConstraints.join(', ') || 'none'}.`);
      }
    }
    const verified = await verifyLauncherToken(identityToken!, title.launcher, this.keyCache, this.now());
    if (!verified.ok) throw badRequest(verified.error, verified.message);

    const now = this.now();
    let newlyCreated = false;
    let platformId = this.idx.launcher.get(Indexes.nameKey(title.publisherId, verified.subject));
    let player = platformId ? this.data.players[platformId] : undefined;
    if (player && this.idx.queuedJobByPlayer.has(player.platformId)) {
      throw badRequest('AccountDeleted', 'This account is being deleted (a master account deletion is queued); it cannot sign in or be re-created until the deletion completes.');
    }
    if (player?.bannedUntil !== undefined && player.bannedUntil > now) {
      throw new ApiError(403, 'AccountBanned', `This player is banned until ${isoNoZone(player.bannedUntil)}.`);
    }
    if (!player) {
      if (!createAccount) {
        throw badRequest('AccountNotFound', 'No account is linked to this launcher identity; send CreateAccount: true to create one.');
      }
      platformId = hex16();
      player = {
        platformId,
        publisherId: title.publisherId,
        created: now,
        totalValueToDateInUSD: 0,
        consoleLive: [],
        storefrontNames: [],
        launcherSubjects: [verified.subject],
        titles: {},
      };
      this.data.players[platformId] = player;
      this.idx.addPlayer(player);
      newlyCreated = true;
    }
    let perTitle = player.titles[title.titleId];
    const previousLogin = perTitle?.lastLogin;
    if (!perTitle) {
      perTitle = this.newTitlePlayer(title, now);
      player.titles[title.titleId] = perTitle;
    }
    perTitle.lastLogin = now;
    this.store.markDirty();

    const result: LoginResult = {
      NewlyCreated: newlyCreated,
      PlatformId: player.platformId,
      SessionTicket: `${player.platformId}-${randomBytes(24).toString('base64url')}`,
      EntityToken: this.issueToken(title.titleId, 'title_player_account', perTitle.titlePlayerAccountId),
      LastLoginTime: isoNoZone(previousLogin ?? now),
      SettingsForUser: { GatherDeviceInfo: true, GatherFocusInfo: true, NeedsAttribution: false },
      TreatmentAssignment: { Variables: [], Variants: [] },
    };
    if (info) result.InfoResultPayload = this.infoPayload(title, player, perTitle, verified.subject, info, constraints, now);
    return result;
  }

  private newTitlePlayer(title: TitleState, now: number): PlayerTitleState {
    const currency: Record<string, number> = {};
    for (const c of title.currencies) currency[c.code] = c.initial;
    return {
      titlePlayerAccountId: hex16(),
      created: now,
      firstLogin: now,
      lastLogin: now,
      userData: {},
      userDataVersion: 0,
      virtualCurrency: currency,
    };
  }

  private infoPayload(
    title: TitleState, player: PlayerState, perTitle: PlayerTitleState, subject: string,
    info: Json, constraints: Json | undefined, now: number,
  ): InfoResultPayload {
    const out: InfoResultPayload = {};
    const tpa = { Id: perTitle.titlePlayerAccountId, Type: 'title_player_account', TypeString: 'title_player_account' };
    if (info.GetUserAccountInfo === true) {
      const account: AccountInfo = {
        PlatformId: player.platformId,
        Created: isoNoZone(player.created),
        TitleInfo: {
          Origination: 'Launcher',
          Created: isoNoZone(perTitle.created),
          LastLogin: isoNoZone(perTitle.lastLogin),
          FirstLogin: isoNoZone(perTitle.firstLogin),
          TitlePlayerAccount: tpa,
        },
        PrivateInfo: {},
        LauncherInfo: { LauncherId: subject },
      };
      if (player.username) account.Username = player.username;
      out.AccountInfo = account;
    }
    if (info.GetUserVirtualCurrency === true) {
      out.UserVirtualCurrency = { ...perTitle.virtualCurrency };
      const recharge: Record<string, VirtualCurrencyRechargeTime> = {};
      for (const c of title.currencies) {
        if (c.rechargeMax === undefined) continue;
        const seconds = c.rechargeSeconds ?? 300;
        recharge[c.code] = { SecondsToRecharge: seconds, RechargeTime: isoNoZone(now + seconds * 1000), RechargeMax: c.rechargeMax };
      }
      out.UserVirtualCurrencyRechargeTimes = recharge;
    }
    if (info.GetUserData === true) {
      const keys = Array.isArray(info.UserDataKeys) && info.UserDataKeys.length > 0 ? (info.UserDataKeys as string[]) : Object.keys(perTitle.userData);
      const data: Record<string, UserDataRecord> = {};
      for (const k of keys) {
        const e = perTitle.userData[k];
        if (!e) continue;
        data[k] = { Value: e.Value, LastUpdated: isoNoZone(e.LastUpdated), ...(e.Permission ? { Permission: e.Permission } : {}) };
      }
      out.UserData = data;
      out.UserDataVersion = perTitle.userDataVersion;
    }
    if (info.GetPlayerProfile === true) {
      const show = (flag: string, byDefault: boolean) => (constraints ? constraints[flag] === true : byDefault);
      const profile: PlayerProfile = { TitleId: title.titleId, PlayerId: player.platformId };
      if (show('ShowDisplayName', true) && player.displayName) profile.DisplayName = player.displayName;
      if (show('ShowCreated', false)) profile.Created = isoNoZone(player.created);
      if (show('ShowLastLogin', false)) profile.LastLogin = isoNoZone(perTitle.lastLogin);
      if (show('ShowBannedUntil', false) && player.bannedUntil !== undefined) profile.BannedUntil = isoNoZone(player.bannedUntil);
      if (show('ShowTotalValueToDateInUsd', false)) profile.TotalValueToDateInUSD = player.totalValueToDateInUSD;
      out.PlayerProfile = profile;
    }
    return out;
  }

  // ---- Addon -------------------------------------------------------------------------

  private requireTitleEntity(title: TitleState, headers: Headers, body: Json): void {
    const claims = this.requireEntityToken(title, headers);
    const check = new FieldCheck();
    check.stringMap(body, 'CustomTags');
    const entity = check.object(body, 'Entity');
    check.done();
    if (claims.et !== 'title') {
      throw badRequest('InvalidEntityType', `Add-on operations need a title entity token; this one is for a ${claims.et} (get a title token with Authentication/GetEntityToken and the secret key).`);
    }
    if (entity && entity.Type !== undefined && entity.Type !== 'title') {
      throw badRequest('InvalidEntityType', `Entity.Type must be "title" for add-on operations, not ${JSON.stringify(entity.Type)}.`);
    }
  }

  private getHandheldStore(title: TitleState): HandheldStoreConfig {
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

  // ---- controls helpers --------------------------------------------------------------

  async persistNow(): Promise<void> {
    this.store.markDirty();
    await this.store.flush();
  }

  jobsView(): DeletionJob[] {
    return this.data.jobs;
  }
}
