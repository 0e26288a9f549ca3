// Authentication area: GetEntityToken, for whichever credential the caller presented.
import { ApiError } from '../http';
import type { Handlers, ServiceContext } from './context';

export function authenticationHandlers(s: ServiceContext): Handlers<'GetEntityToken'> {
  return {
    GetEntityToken: (title, _req, caller) => {
      switch (caller.via) {
        case 'X-SecretKey':
          return s.credentials.issueToken(title.titleId, 'title', title.titleId);
        case 'X-EntityToken':
          return s.credentials.issueToken(title.titleId, caller.claims.et, caller.claims.id);
        case 'X-Authorization': {
          // A session ticket gets that player's title player account token, while the player exists.
          const player = s.data.players[caller.claims.p];
          if (!player || !player.titles[title.titleId]) {
            throw new ApiError(401, 'NotAuthenticated', 'The session ticket\'s player no longer exists; log in again.');
          }
          return s.credentials.issueToken(title.titleId, 'title_player_account', caller.claims.id);
        }
      }
    },
  };
}
