// Delete MobileStore Add-on / Delete ConsoleNetB Add-on. A modal confirmation first;
// AddonDoesntExist means the add-on is already absent, which is what the user wanted.
import { PlatformError } from '../../core/api/errors';
import { ErrorCodes } from '../../core/api/types';
import type { AddonName } from '../addonStates';
import { required } from '../errors';
import type { Services } from '../services';
import { resolveTitle } from './args';

export type DeleteAddonOutcome = 'deleted' | 'alreadyAbsent';

async function deleteAddon(s: Services, arg: unknown, addon: Exclude<AddonName, 'HandheldStore'>): Promise<DeleteAddonOutcome> {
  const title = await resolveTitle(s, arg);
  const client = await s.clients.get(title.titleId);
  required(
    await s.prompts.confirm(
      `Delete the ${addon} add-on of ${title.name} (${title.titleId})?`,
      `The ${addon} add-on configuration is removed from the title on the service. Players signing in through it stop working until it is set up again.`,
      'Delete',
    ),
  );
  try {
    await (addon === 'MobileStore' ? client.deleteMobileStore() : client.deleteConsoleNetB());
  } catch (e) {
    if (e instanceof PlatformError && e.errorCode === ErrorCodes.AddonDoesntExist) {
      s.addonStates.set(title.titleId, addon, 'absent');
      void s.prompts.info(`The ${addon} add-on of ${title.name} was already absent.`);
      return 'alreadyAbsent';
    }
    if (e instanceof PlatformError && e.outcomeUnknown) {
      s.addonStates.set(title.titleId, addon, 'unknown');
    }
    throw e;
  }
  s.addonStates.set(title.titleId, addon, 'absent');
  void s.prompts.info(`Deleted the ${addon} add-on of ${title.name}.`);
  return 'deleted';
}

export function deleteMobileStore(s: Services, arg?: unknown): Promise<DeleteAddonOutcome> {
  return deleteAddon(s, arg, 'MobileStore');
}

export function deleteConsoleNetB(s: Services, arg?: unknown): Promise<DeleteAddonOutcome> {
  return deleteAddon(s, arg, 'ConsoleNetB');
}
