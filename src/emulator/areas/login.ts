// Server/LoginWithLauncher: the identity token verified as the launcher's JWT, the player found or
// created, and the info parts the request asks for, each as the published description shapes it.

import { randomBytes } from 'node:crypto';
import { PROFILE_CONSTRAINT_FLAGS, type ProfileConstraintFlag } from '../../core/api/operations';
import type { InfoResultPayload, ItemInstance, LoginResult, LoginWithLauncherRequest, PlayerProfile, UserDataRecord } from '../../core/api/types';
import { ApiError, badRequest } from '../http';
import { verifyLauncherToken } from '../jwt';
import { Indexes, isoNoZone, titleDisplayName } from '../state';
import type { ItemState, PlayerState, PlayerTitleState, TitleState, UserDataEntry } from '../state';
import { userAccountInfo } from './accountInfo';
import type { ServiceContext } from './context';

type InfoRequest = NonNullable<LoginWithLauncherRequest['InfoRequestParameters']>;
type Constraints = NonNullable<InfoRequest['ProfileConstraints']>;


const NO_PREVIOUS_LOGIN = '0001-01-01T00:00:00';

/** Continents of the countries the seeds use. */
const CONTINENTS: Record<string, string> = { DE: 'EU', FR: 'EU', SE: 'EU', US: 'NA', CA: 'NA', BR: 'SA', JP: 'AS', AU: 'OC' };

function hex16(): string {
  return randomBytes(8).toString('hex').toUpperCase();
}

// eslint-disable-next-line complexity -- the service's launcher checks in the order it makes them, each with its own error
export async function loginWithLauncher(ctx: ServiceContext, title: TitleState, req: LoginWithLauncherRequest): Promise<LoginResult> {
  if (!title.launcher.enabled) {
    throw badRequest('LauncherNotEnabledForTitle', `Launcher sign-in is not enabled for title ${title.titleId}; enable it in the title's settings.`);
  }
  const info = req.InfoRequestParameters;
  const constraints = info?.ProfileConstraints;
  if (constraints) {
    const refused = PROFILE_CONSTRAINT_FLAGS.filter((f) => constraints[f] && !title.allowedProfileConstraints.includes(f));
    if (refused.length > 0) {
      throw badRequest('RequestViewConstraintParamsNotAllowed', `Title ${title.titleId} does not allow the profile constraints ${refused.join(', ')}; allowed: ${title.allowedProfileConstraints.join(', ') || 'none'}.`);
    }
  }
  const verified = await verifyLauncherToken(req.IdentityToken, title.launcher, ctx.keyCache, ctx.now());
  if (!verified.ok) throw badRequest(verified.error, verified.message);

  const now = ctx.now();
  let newlyCreated = false;
  const linked = ctx.indexes.launcher.get(Indexes.nameKey(title.publisherId, verified.subject));
  let player = linked ? ctx.data.players[linked] : undefined;
  if (player && ctx.indexes.queuedJobByPlayer.has(player.platformId)) {
    throw badRequest('AccountDeleted', 'This account is being deleted (a master account deletion is queued); it cannot sign in or be re-created until the deletion completes.');
  }
  if (player?.bannedUntil !== undefined && player.bannedUntil > now) {
    throw new ApiError(403, 'AccountBanned', `This player is banned until ${isoNoZone(player.bannedUntil)}.`);
  }
  if (!player) {
    if (req.CreateAccount !== true) {
      throw badRequest('AccountNotFound', 'No account is linked to this launcher identity; send CreateAccount: true to create one.');
    }
    player = {
      platformId: hex16(), publisherId: title.publisherId, created: now, totalValueToDateInUSD: 0,
      consoleLive: [], storefrontNames: [], launcherSubjects: [verified.subject], titles: {}, events: [],
    };
    ctx.data.players[player.platformId] = player;
    ctx.indexes.addPlayer(player);
    newlyCreated = true;
  }
  let perTitle = player.titles[title.titleId];
  const previousLogin = perTitle?.lastLogin;
  if (!perTitle) {
    perTitle = newTitlePlayer(title, now);
    player.titles[title.titleId] = perTitle;
    // Its display name in this title is found from now on.
    ctx.indexes.addPlayer(player);
  }
  perTitle.lastLogin = now;
  ctx.markDirty();

  const result: LoginResult = {
    NewlyCreated: newlyCreated,
    PlatformId: player.platformId,
    SessionTicket: ctx.credentials.issueTicket(title.titleId, player.platformId, perTitle.titlePlayerAccountId),
    // No previous login: the service's DateTime.MinValue.
    LastLoginTime: previousLogin === undefined ? NO_PREVIOUS_LOGIN : isoNoZone(previousLogin),
    SettingsForUser: { GatherDeviceInfo: true, GatherFocusInfo: true, NeedsAttribution: false },
    TreatmentAssignment: { Variables: [], Variants: [] },
  };
  // LoginTitlePlayerAccountEntity is obsolete ("now automatic, and always-on"): the title player
  // account's token comes back whether the flag is true, false or absent (docs/service-behaviour.md).
  result.EntityToken = ctx.credentials.issueToken(title.titleId, 'title_player_account', perTitle.titlePlayerAccountId);
  if (info) result.InfoResultPayload = infoPayload(title, player, perTitle, verified.subject, info, now, newlyCreated);
  return result;
}

function newTitlePlayer(title: TitleState, now: number): PlayerTitleState {
  const currency: Record<string, number> = {};
  for (const c of title.currencies) currency[c.code] = c.initial;
  return {
    titlePlayerAccountId: hex16(), created: now, firstLogin: now, lastLogin: now,
    userData: {}, userDataVersion: 0, virtualCurrency: currency,
  };
}

/** The entries of `records` named by `keys` (all when no keys are given). */
function records(source: Record<string, UserDataEntry> | undefined, keys: string[] | undefined): Record<string, UserDataRecord> {
  const all = source ?? {};
  const out: Record<string, UserDataRecord> = {};
  for (const k of keys && keys.length > 0 ? keys : Object.keys(all)) {
    const e = all[k];
    if (!e) continue;
    out[k] = { Value: e.Value, LastUpdated: isoNoZone(e.LastUpdated), ...(e.Permission ? { Permission: e.Permission } : {}) };
  }
  return out;
}

function item(i: ItemState): ItemInstance {
  const out: ItemInstance = {
    ItemId: i.ItemId, ItemInstanceId: i.ItemInstanceId, ItemClass: i.ItemClass, DisplayName: i.DisplayName,
    PurchaseDate: isoNoZone(i.PurchaseDate), UnitCurrency: i.UnitCurrency, UnitPrice: i.UnitPrice,
  };
  if (i.RemainingUses !== undefined) out.RemainingUses = i.RemainingUses;
  return out;
}

// eslint-disable-next-line complexity -- one member of InfoResultPayload per request flag
function infoPayload(
  title: TitleState, player: PlayerState, perTitle: PlayerTitleState, subject: string, info: InfoRequest, now: number, newlyCreated: boolean,
): InfoResultPayload {
  // Both versions are always there (the published description requires them).
  const out: InfoResultPayload = { UserDataVersion: perTitle.userDataVersion, UserReadOnlyDataVersion: perTitle.readOnlyDataVersion ?? 0 };
  if (info.GetUserAccountInfo) out.AccountInfo = userAccountInfo(player, perTitle, now, subject);
  if (info.GetUserInventory) out.UserInventory = (perTitle.inventory ?? []).map(item);
  if (info.GetUserVirtualCurrency) {
    out.UserVirtualCurrency = { ...perTitle.virtualCurrency };
    const recharge: NonNullable<InfoResultPayload['UserVirtualCurrencyRechargeTimes']> = {};
    for (const c of title.currencies) {
      if (c.rechargeMax === undefined) continue;
      const seconds = c.rechargeSeconds ?? 300;
      recharge[c.code] = { SecondsToRecharge: seconds, RechargeTime: isoNoZone(now + seconds * 1000), RechargeMax: c.rechargeMax };
    }
    out.UserVirtualCurrencyRechargeTimes = recharge;
  }
  if (info.GetUserData) out.UserData = records(perTitle.userData, info.UserDataKeys);
  if (info.GetUserReadOnlyData) out.UserReadOnlyData = records(perTitle.readOnlyData, info.UserReadOnlyDataKeys);
  if (info.GetCharacterList) {
    out.CharacterList = (perTitle.characters ?? []).map((c) => ({ CharacterId: c.CharacterId, CharacterName: c.CharacterName, CharacterType: c.CharacterType }));
  }
  if (info.GetCharacterInventories) {
    out.CharacterInventories = (perTitle.characters ?? []).map((c) => ({ CharacterId: c.CharacterId, Inventory: c.inventory.map(item) }));
  }
  if (info.GetTitleData) {
    const data = title.titleData ?? {};
    const keys = info.TitleDataKeys && info.TitleDataKeys.length > 0 ? info.TitleDataKeys : Object.keys(data);
    out.TitleData = Object.fromEntries(keys.filter((k) => Object.hasOwn(data, k)).map((k) => [k, data[k]]));
  }
  if (info.GetPlayerStatistics) {
    const stats = perTitle.statistics ?? {};
    const names = info.PlayerStatisticNames && info.PlayerStatisticNames.length > 0 ? info.PlayerStatisticNames : Object.keys(stats);
    out.PlayerStatistics = names.filter((n) => Object.hasOwn(stats, n)).map((n) => ({ StatisticName: n, Value: stats[n].value, Version: stats[n].version }));
  }
  // The published description: a new player has no profile yet.
  if (info.GetPlayerProfile && !newlyCreated) out.PlayerProfile = profile(title, player, perTitle, info.ProfileConstraints);
  return out;
}

/** The profile: the display name by default, each other member only when its flag asks for it. */
// eslint-disable-next-line complexity -- one member of the profile per ProfileConstraints flag
function profile(title: TitleState, player: PlayerState, perTitle: PlayerTitleState, constraints: Constraints | undefined): PlayerProfile {
  const show = (flag: ProfileConstraintFlag, byDefault = false): boolean => (constraints ? constraints[flag] === true : byDefault);
  const p: PlayerProfile = { TitleId: title.titleId, PlayerId: player.platformId, PublisherId: player.publisherId };
  const displayName = titleDisplayName(player, perTitle);
  if (show('ShowDisplayName', true) && displayName) p.DisplayName = displayName;
  if (show('ShowCreated')) p.Created = isoNoZone(player.created);
  if (show('ShowLastLogin')) p.LastLogin = isoNoZone(perTitle.lastLogin);
  if (show('ShowBannedUntil') && player.bannedUntil !== undefined) p.BannedUntil = isoNoZone(player.bannedUntil);
  if (show('ShowOrigination')) p.Origination = 'Launcher';
  if (show('ShowAvatarUrl') && player.avatarUrl) p.AvatarUrl = player.avatarUrl;
  if (show('ShowTotalValueToDateInUsd')) p.TotalValueToDateInUSD = player.totalValueToDateInUSD;
  if (show('ShowValuesToDate')) {
    p.ValuesToDate = player.totalValueToDateInUSD > 0
      ? [{ Currency: 'USD', TotalValue: player.totalValueToDateInUSD, TotalValueAsDecimal: (player.totalValueToDateInUSD / 100).toFixed(2) }]
      : [];
  }
  if (show('ShowTags')) p.Tags = (player.tags ?? []).map((t) => ({ TagValue: t }));
  if (show('ShowLinkedAccounts')) {
    p.LinkedAccounts = [
      ...player.launcherSubjects.map((s) => ({ Platform: 'Launcher', PlatformUserId: s })),
      ...player.consoleLive.map((l) => ({ Platform: 'ConsoleLive', PlatformUserId: l.id })),
      ...player.storefrontNames.map((n) => ({ Platform: 'Storefront', Username: n })),
    ];
  }
  if (show('ShowContactEmailAddresses')) {
    const contact = player.profileContactEmail ?? player.contactEmail;
    p.ContactEmailAddresses = contact ? [{ EmailAddress: contact, Name: 'Primary', VerificationStatus: 'Confirmed' }] : [];
  }
  if (show('ShowLocations')) p.Locations = player.country ? [{ CountryCode: player.country, ContinentCode: CONTINENTS[player.country] ?? 'Unknown' }] : [];
  if (show('ShowStatistics')) {
    p.Statistics = Object.entries(perTitle.statistics ?? {}).map(([Name, s]) => ({ Name, Value: s.value, Version: s.version }));
  }
  if (show('ShowExperimentVariants')) p.ExperimentVariants = [];
  if (show('ShowMemberships')) p.Memberships = [];
  if (show('ShowCampaignAttributions')) p.AdCampaignAttributions = [];
  if (show('ShowPushNotificationRegistrations')) p.PushNotificationRegistrations = [];
  return p;
}
