// Show HandheldStore Configuration: opens the panel, which loads (and reloads) it live and
// writes what it read to the shared add-on states, so the Titles view shows it without a read of its own.
import type { Services } from '../services';
import { showHandheldStore as openPanel } from '../views/handheldStorePanel';
import { resolveTitle } from './args';

export async function showHandheldStore(s: Services, arg?: unknown): Promise<void> {
  const title = await resolveTitle(s, arg);
  // Fails here, with the usual message, when the key must not or cannot be sent.
  await s.clients.get(title.titleId);
  openPanel(s.ctx, {
    titleId: title.titleId,
    titleName: title.name,
    load: async () => {
      const config = await (await s.clients.get(title.titleId)).getHandheldStore();
      s.addonStates.set(title.titleId, 'HandheldStore', config.Created ? 'present' : 'absent');
      return config;
    },
  });
}
