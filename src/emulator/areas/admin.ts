// Admin area: DeleteMasterPlayerAccount and GetPlayedTitleList.
import { invalidParams } from '../http';
import { findPlayer, playedTitles, type Handlers, type ServiceContext } from './context';

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
