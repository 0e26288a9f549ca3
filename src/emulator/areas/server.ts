// Server area: the two PlatformId lookups and the launcher login (login.ts).
import { DEFAULT_SANDBOX } from '../../core/api/types';
import { Indexes } from '../state';
import type { Handlers, ServiceContext } from './context';
import { loginWithLauncher } from './login';

export function serverHandlers(s: ServiceContext): Handlers<'LoginWithLauncher' | 'GetPlatformIDsFromConsoleLiveIDs' | 'GetPlatformIDsFromStorefrontNames'> {
  return {
    LoginWithLauncher: (title, req) => loginWithLauncher(s, title, req),
    // An unlinked identifier's entry carries PlatformId null (the spec's sample answers).
    GetPlatformIDsFromConsoleLiveIDs: (title, req) => {
      const sandbox = req.Sandbox ?? DEFAULT_SANDBOX;
      return {
        Data: req.ConsoleLiveAccountIDs.map((id) => ({
          ConsoleLiveAccountId: id,
          PlatformId: s.indexes.consoleLive.get(Indexes.consoleLiveKey(title.publisherId, sandbox, id)) ?? null,
        })),
      };
    },
    GetPlatformIDsFromStorefrontNames: (title, req) => ({
      Data: req.StorefrontNames.map((name) => ({
        StorefrontName: name,
        PlatformId: s.indexes.storefront.get(Indexes.nameKey(title.publisherId, name)) ?? null,
      })),
    }),
  };
}
