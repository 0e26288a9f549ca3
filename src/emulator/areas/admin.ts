// Admin area: DeleteMasterPlayerAccount and GetPlayedTitleList.
import { badRequest, invalidParams } from '../http';
import type { PlayerState, TitleState } from '../state';
import { playedTitles, type Handlers, type ServiceContext } from './context';

function findPlayer(s: ServiceContext, title: TitleState, platformId: string): PlayerState {
  const player = Object.hasOwn(s.data.players, platformId) ? s.data.players[platformId] : undefined;
  if (!player || player.publisherId !== title.publisherId) {
    throw badRequest('AccountNotFound', `No player with PlatformId ${platformId} exists for title ${title.titleId}.`);
  }
  return player;
}

export function adminHandlers(s: ServiceContext): Handlers<'DeleteMasterPlayerAccount' | 'GetPlayedTitleList'> {
  return {
    GetPlayedTitleList: (title, req) => ({ TitleIds: playedTitles(s.data, findPlayer(s, title, req.PlatformId)) }),
    DeleteMasterPlayerAccount: async (title, req) => {
      const player = findPlayer(s, title, req.PlatformId);
      // Everything up to the queue runs synchronously, so of two concurrent deletes exactly one queues.
      const queued = s.indexes.queuedJobByPlayer.get(player.platformId);
      if (queued) {
        throw invalidParams(
          { PlatformId: [`A master account deletion for this player is already queued (JobReceiptId ${queued.JobReceiptId}); wait for its confirmation e-mail.`] },
          'A master account deletion for this player is already queued.',
        );
      }
      const job = await s.jobs.queue(player, title.titleId, playedTitles(s.data, player), req.MetaData);
      return { JobReceiptId: job.JobReceiptId, TitleIds: [...job.TitleIds] };
    },
  };
}
