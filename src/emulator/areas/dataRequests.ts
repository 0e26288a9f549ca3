// Data-subject requests: Admin/ExportMasterPlayerData (queued; the link comes with the
// player_data_exported event and the e-mail) and Admin/DeleteMasterPlayerEventData (queued with the
// deletion delay as the service queues it: the events go then, the account stays; empty answer, no
// receipt, no completion signal).
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
      // Queued: the events go after the deletion delay (a clock/advance), with no signal to wait for; the account stays.
      const player = findPlayer(s, title, req.PlatformId);
      player.eventsErasureDueAt ??= s.now() + s.jobs.deletionDelayMs;
      await s.persistNow();
      return {};
    },
  };
}
