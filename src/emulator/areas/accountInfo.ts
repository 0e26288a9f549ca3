// Admin/GetUserAccountInfo, and the UserAccountInfo it shares with the login's AccountInfo.
// Lookups are title-specific (docs/service-behaviour.md): a player is found through a title of its
// publisher that it has played; anything else, or no match, is AccountNotFound 1001.
import { checkAccountLookup, type AccountLookupField } from '../../core/api/accountLookup';
import type { UserAccountInfo } from '../../core/api/types';
import { badRequest, invalidParams } from '../http';
import { Indexes, isoNoZone, titleDisplayName } from '../state';
import type { PlayerState, PlayerTitleState, TitleState } from '../state';
import type { Handlers, ServiceContext } from './context';

/**
 * The account as a title sees it. The login passes the launcher subject it signed in with; the
 * lookup reports the first launcher subject and the first link of each other provider.
 */
export function userAccountInfo(player: PlayerState, perTitle: PlayerTitleState, now: number, launcherSubject?: string): UserAccountInfo {
  const displayName = titleDisplayName(player, perTitle);
  const subject = launcherSubject ?? player.launcherSubjects[0];
  return {
    PlatformId: player.platformId,
    Created: isoNoZone(player.created),
    TitleInfo: {
      Origination: 'Launcher',
      Created: isoNoZone(perTitle.created),
      LastLogin: isoNoZone(perTitle.lastLogin),
      FirstLogin: isoNoZone(perTitle.firstLogin),
      ...(displayName ? { DisplayName: displayName } : {}),
      ...(player.bannedUntil !== undefined && player.bannedUntil > now ? { isBanned: true } : {}),
      TitlePlayerAccount: { Id: perTitle.titlePlayerAccountId, Type: 'title_player_account', TypeString: 'title_player_account' },
    },
    PrivateInfo: player.contactEmail ? { Email: player.contactEmail } : {},
    ...(subject !== undefined ? { LauncherAccountInfo: { LauncherAccountId: subject } } : {}),
    ...(player.username ? { Username: player.username } : {}),
    ...(launcherSubject === undefined ? providerInfos(player) : {}),
  };
}

/** The first link of each provider, as the service reports one per provider. */
function providerInfos(player: PlayerState): Partial<UserAccountInfo> {
  const out: Partial<UserAccountInfo> = {};
  const live = player.consoleLive[0];
  if (live) out.ConsoleLiveInfo = { ConsoleLiveUserId: live.id, ConsoleLiveUserSandbox: live.sandbox };
  const name = player.storefrontNames[0];
  if (name !== undefined) out.StorefrontInfo = { StorefrontName: name };
  return out;
}

function lookup(s: ServiceContext, title: TitleState, field: AccountLookupField, value: string): string | undefined {
  switch (field) {
    case 'PlatformId': return value.toUpperCase();
    // E-mail addresses match whatever their case; the others as written.
    case 'Email': return s.indexes.email.get(Indexes.nameKey(title.publisherId, value.toLowerCase()));
    case 'Username': return s.indexes.username.get(Indexes.nameKey(title.publisherId, value));
    // Documented: on a title that allows non-unique display names this lookup always misses.
    case 'TitleDisplayName': return title.allowNonUniqueDisplayNames ? undefined : s.indexes.titleDisplayName.get(Indexes.nameKey(title.titleId, value));
  }
}

export function accountInfoHandlers(s: ServiceContext): Handlers<'GetUserAccountInfo'> {
  return {
    GetUserAccountInfo: (title, req) => {
      const q = checkAccountLookup(req, false);
      if (!q.ok) throw invalidParams({ [q.field]: [q.message] }, q.message);
      const id = lookup(s, title, q.field, q.value);
      const player = id !== undefined && Object.hasOwn(s.data.players, id) ? s.data.players[id] : undefined;
      const perTitle = player?.publisherId === title.publisherId ? player.titles[title.titleId] : undefined;
      if (!player || !perTitle) {
        throw badRequest('AccountNotFound', `No account with this ${q.field} has played title ${title.titleId}.`);
      }
      return { UserInfo: userAccountInfo(player, perTitle, s.now()) };
    },
  };
}
