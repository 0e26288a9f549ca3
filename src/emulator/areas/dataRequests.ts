// Data-subject requests: Admin/ExportMasterPlayerData (queued; the link comes with the
// player_data_exported event and the e-mail) and Admin/DeleteMasterPlayerEventData (the events go,
// the account stays; empty answer, no receipt).
import { badRequest } from '../http';
import { findPlayer, type Handlers, type ServiceContext } from './context';

export function dataRequestHandlers(s: ServiceContext): Handlers<'ExportMasterPlayerData' | 'DeleteMasterPlayerEventData'> {
  return {
    ExportMasterPlayerData: async (title, req) => {
      const player = findPlayer(s, title, req.PlatformId);
      if (!title.notificationEmail) {
        throw badRequest('EmailAddressNotAvailable', `Title ${title.titleId} has no notification e-mail address to send the export's download link to; configure one in the title's settings.`);
      }
      const job = await s.exports.queue(player, title);
      return { JobReceiptId: job.JobReceiptId };
    },
    DeleteMasterPlayerEventData: async (title, req) => {
      // Applied at once (the service queues it, with no signal to wait for): the account stays.
      findPlayer(s, title, req.PlatformId).events = [];
      await s.persistNow();
      return {};
    },
  };
}
