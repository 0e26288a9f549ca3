// Authentication area: GetEntityToken, for whichever credential the caller presented. A request's
// `Entity` is honoured when it names the caller's own entity and refused otherwise (never ignored).
import { ApiError, invalidParams } from '../http';
import type { EntityType } from '../tokens';
import type { Handlers, ServiceContext } from './context';

export function authenticationHandlers(s: ServiceContext): Handlers<'GetEntityToken'> {
  return {
    GetEntityToken: (title, req, caller) => {
      const own = ((): { type: EntityType; id: string } => {
        switch (caller.via) {
          case 'X-SecretKey': return { type: 'title', id: title.titleId };
          case 'X-EntityToken': return { type: caller.claims.et, id: caller.claims.id };
          case 'X-Authorization': {
            // A session ticket gets that player's title player account token, while the player exists.
            const player = s.data.players[caller.claims.p];
            if (!player || !player.titles[title.titleId]) {
              throw new ApiError(401, 'NotAuthenticated', 'The session ticket\'s player no longer exists; log in again.');
            }
            return { type: 'title_player_account', id: caller.claims.id };
          }
        }
      })();
      const asked = req.Entity;
      if (asked !== undefined && (asked.Type !== undefined && asked.Type !== own.type || asked.Id !== own.id)) {
        throw invalidParams({
          Entity: [`This credential gets a token for its own entity only (${own.type} ${own.id}); leave Entity out or name that entity.`],
        });
      }
      return s.credentials.issueToken(title.titleId, own.type, own.id);
    },
  };
}
