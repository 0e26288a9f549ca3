// Addon area: GetHandheldStore (secrets stay server-side) and the two add-on deletes.
import { badRequest } from '../http';
import type { HandheldStoreEnvironmentState } from '../state';
import type { Handlers, ServiceContext } from './context';

const strip = (envs: HandheldStoreEnvironmentState[]) => envs.map((e) => ({ ClientID: e.ClientID, ID: e.ID }));

export function addonHandlers(s: ServiceContext): Handlers<'GetHandheldStore' | 'DeleteMobileStore' | 'DeleteConsoleNetB'> {
  const deleteAddon = async (title: Parameters<Handlers['DeleteMobileStore']>[0], name: 'MobileStore' | 'ConsoleNetB'): Promise<Record<string, never>> => {
    if (!title.addons[name]) {
      throw badRequest('AddonDoesntExist', `Title ${title.titleId} has no ${name} add-on to delete.`);
    }
    title.addons[name] = null;
    await s.persistNow();
    return {};
  };
  return {
    GetHandheldStore: (title) => {
      const a = title.addons.HandheldStore;
      if (!a) return { Created: false };
      // ClientSecret stays server-side: the service omits secrets from what it returns.
      return {
        Created: true,
        ApplicationID: a.ApplicationID,
        Environments: strip(a.Environments),
        SecondarySubscriptionEnvironments: strip(a.SecondarySubscriptionEnvironments),
        SubscriptionEnvironments: strip(a.SubscriptionEnvironments),
      };
    },
    DeleteMobileStore: (title) => deleteAddon(title, 'MobileStore'),
    DeleteConsoleNetB: (title) => deleteAddon(title, 'ConsoleNetB'),
  };
}
