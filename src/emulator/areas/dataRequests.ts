// Data-subject requests: Admin/ExportMasterPlayerData (queued; the link comes with the
// player_data_exported event and the e-mail) and Admin/DeleteMasterPlayerEventData (the events go,
// the account stays; empty answer, no receipt).
import { badRequest } from '../http';
import { newJobReceiptId } from '../jobs';
import { findPlayer, type Handlers, type ServiceContext } from './context';

export function dataRequestHandlers(s: ServiceContext): Handlers<'ExportMasterPlayerData' | 'DeleteMasterPlayerEventData'> {
  return {
    ExportMasterPlayerData: (title, req) => {
      findPlayer(s, title, req.PlatformId);
      if (!title.notificationEmail) {
        throw badRequest('EmailAddressNotAvailable', `Title ${title.titleId} has no notification e-mail address to send the export's download link to; configure one in the title's settings.`);
      }
      return { JobReceiptId: newJobReceiptId() };
    },
    DeleteMasterPlayerEventData: async (title, req) => {
      findPlayer(s, title, req.PlatformId);
      await s.persistNow();
      return {};
    },
  };
}
