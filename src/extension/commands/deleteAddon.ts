// Delete MobileStore Add-on / Delete ConsoleNetB Add-on. A modal confirmation first;
// AddonDoesntExist means the add-on is already absent, which is what the user wanted.
import * as vscode from 'vscode';
import { named } from '../titles';
import { PlatformError } from '../../core/api/errors';
import { ErrorCodes } from '../../core/api/types';
import type { DeletableAddon } from '../addons';
import { usableTitle } from './args';
import type { CommandContext } from './context';
import { confirmProductionTitle } from './production';
import { defineCommand } from './define';
import { parseTarget, type Target } from './parse';

export type DeleteAddonOutcome = 'deleted' | 'alreadyAbsent';

async function deleteAddon(c: CommandContext, target: Target, addon: DeletableAddon): Promise<DeleteAddonOutcome> {
  const s = c.services;
  const { title, client } = await usableTitle(c, target);
  await c.ui.confirm(
    vscode.l10n.t('Delete the {0} add-on of {1}?', addon, named(title)),
    vscode.l10n.t('The {0} add-on configuration is removed from the title on the service. Players signing in through it stop working until it is set up again.', addon),
    vscode.l10n.t('Delete'),
  );
  await confirmProductionTitle(c, title);
  try {
    await (addon === 'MobileStore' ? client.mutate('DeleteMobileStore', {}) : client.mutate('DeleteConsoleNetB', {}));
  } catch (e) {
    if (e instanceof PlatformError && e.errorCode === ErrorCodes.AddonDoesntExist) {
      s.addonStates.set(title.titleId, addon, 'absent');
      void c.ui.info(vscode.l10n.t('The {0} add-on of {1} was already absent.', addon, named(title)));
      return 'alreadyAbsent';
    }
    if (e instanceof PlatformError && e.outcomeUnknown) {
      s.addonStates.set(title.titleId, addon, 'unknown');
    }
    throw e;
  }
  s.addonStates.set(title.titleId, addon, 'absent');
  void c.ui.info(vscode.l10n.t('Deleted the {0} add-on of {1}.', addon, named(title)));
  return 'deleted';
}

export function deleteMobileStore(c: CommandContext, target: Target): Promise<DeleteAddonOutcome> {
  return deleteAddon(c, target, 'MobileStore');
}

export function deleteConsoleNetB(c: CommandContext, target: Target): Promise<DeleteAddonOutcome> {
  return deleteAddon(c, target, 'ConsoleNetB');
}

export const deleteMobileStoreCommand = defineCommand({
  id: 'platformExplorer.deleteMobileStore',
  title: 'Delete MobileStore Add-on',
  category: true,
  icon: 'trash',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bmobileStore\\b/ && viewItem =~ /\\bdeletable\\b/', group: '1_addon@2' },
    ],
  },
  operations: ['DeleteMobileStore'],
  parse: parseTarget,
  handler: deleteMobileStore,
});
export const deleteConsoleNetBCommand = defineCommand({
  id: 'platformExplorer.deleteConsoleNetB',
  title: 'Delete ConsoleNetB Add-on',
  category: true,
  icon: 'trash',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bconsoleNetB\\b/ && viewItem =~ /\\bdeletable\\b/', group: '1_addon@2' },
    ],
  },
  operations: ['DeleteConsoleNetB'],
  parse: parseTarget,
  handler: deleteConsoleNetB,
});
