// Every command of the extension, registered through one wrapper, with the operations it sends
// (the one place that says so: Activity's names and re-runnable set derive from it and the table).
// package.json declares the same IDs; scripts/check-commands.mjs keeps both in step. The deletion
// workflow, the panels and the emulator's commands load on first use (../lazy, bundles of their own).
import type { Services } from '../services';
import { clearActivity, clearActivityFilter, copyActivityJson, copyAllActivityJson, filterActivity, rerunActivity } from './activity';
import { addTitle } from './addTitle';
import { treeNodeArg } from './args';
import { clearSecretKey } from './clearSecretKey';
import { copyJobReceiptId } from './copyJobReceiptId';
import { copyPlatformId } from './copyPlatformId';
import { copyTitleId } from './copyTitleId';
import { deleteConsoleNetB, deleteMobileStore } from './deleteAddon';
import { exportDeletionJobs } from './exportDeletionJobs';
import { clearTitlesFilter, filterTitles } from './filterTitles';
import { findPlatformIds } from './findPlatformIds';
import { lookUpAccountInfo } from './lookUpAccountInfo';
import { lookUpConsoleLiveIds } from './lookUpConsoleLiveIds';
import { lookUpStorefrontNames } from './lookUpStorefrontNames';
import { registerCommand, type CommandHandler } from './registerCommand';
import { markProduction, pickActiveTitle, unmarkProduction } from './production';
import { openEndpointSetting } from './openEndpointSetting';
import { removeTitle } from './removeTitle';
import { renameTitle } from './renameTitle';
import { setSecretKey } from './setSecretKey';
import { showPlayedTitles, showPlayedTitlesInView } from './showPlayedTitles';

/** A handler whose module is loaded when the command first runs. */
function onFirstUse<M>(load: () => Promise<M>, pick: (m: M) => CommandHandler): CommandHandler {
  return async (c, ...args) => pick(await load())(c, ...args);
}

const deletion = (): Promise<typeof import('../lazy/deletion')> => import('../lazy/deletion');
const panels = (): Promise<typeof import('../lazy/panels')> => import('../lazy/panels');
const emulator = (): Promise<typeof import('../lazy/emulatorCommands')> => import('../lazy/emulatorCommands');

export function registerCommands(s: Services): void {
  registerCommand(s, 'platformExplorer.addTitle', addTitle);
  registerCommand(s, 'platformExplorer.renameTitle', renameTitle);
  registerCommand(s, 'platformExplorer.removeTitle', removeTitle);
  registerCommand(s, 'platformExplorer.copyTitleId', copyTitleId);
  registerCommand(s, 'platformExplorer.filterTitles', filterTitles);
  registerCommand(s, 'platformExplorer.clearTitlesFilter', clearTitlesFilter);
  registerCommand(s, 'platformExplorer.setSecretKey', setSecretKey);
  registerCommand(s, 'platformExplorer.replaceSecretKey', (c, arg) => setSecretKey(c, treeNodeArg(arg)));
  registerCommand(s, 'platformExplorer.clearSecretKey', clearSecretKey);
  registerCommand(s, 'platformExplorer.lookUpConsoleLiveIds', lookUpConsoleLiveIds, ['GetPlatformIDsFromConsoleLiveIDs']);
  registerCommand(s, 'platformExplorer.lookUpStorefrontNames', lookUpStorefrontNames, ['GetPlatformIDsFromStorefrontNames']);
  registerCommand(s, 'platformExplorer.lookUpAccountInfo', lookUpAccountInfo, ['GetUserAccountInfo']);
  registerCommand(s, 'platformExplorer.deleteMasterPlayerAccount', onFirstUse(deletion, (m) => m.deleteMasterPlayerAccount), ['DeleteMasterPlayerAccount']);
  registerCommand(s, 'platformExplorer.deleteMasterPlayerAccountsFromList', onFirstUse(deletion, (m) => m.deleteFromList), ['DeleteMasterPlayerAccount']);
  registerCommand(s, 'platformExplorer.resumeDeletionBatches', onFirstUse(deletion, (m) => m.resumeBatches));
  registerCommand(s, 'platformExplorer.verifyDeletions', onFirstUse(deletion, (m) => m.verifyDeletions));
  registerCommand(s, 'platformExplorer.showPlayedTitles', showPlayedTitles, ['GetPlayedTitleList']);
  registerCommand(s, 'platformExplorer.showPlayedTitlesInView', showPlayedTitlesInView, ['GetPlayedTitleList']);
  registerCommand(s, 'platformExplorer.testLauncherLogin', onFirstUse(panels, (m) => m.testLauncherLogin), ['LoginWithLauncher']);
  registerCommand(s, 'platformExplorer.showHandheldStore', onFirstUse(panels, (m) => m.showHandheldStore), ['GetHandheldStore']);
  registerCommand(s, 'platformExplorer.deleteMobileStore', deleteMobileStore, ['DeleteMobileStore']);
  registerCommand(s, 'platformExplorer.deleteConsoleNetB', deleteConsoleNetB, ['DeleteConsoleNetB']);
  registerCommand(s, 'platformExplorer.copyJobReceiptId', copyJobReceiptId);
  registerCommand(s, 'platformExplorer.exportDeletionJobs', exportDeletionJobs);
  registerCommand(s, 'platformExplorer.copyPlatformId', copyPlatformId);
  registerCommand(s, 'platformExplorer.findPlatformIds', findPlatformIds);
  registerCommand(s, 'platformExplorer.startEmulator', onFirstUse(emulator, (m) => m.startEmulator));
  registerCommand(s, 'platformExplorer.stopEmulator', onFirstUse(emulator, (m) => m.stopEmulator));
  registerCommand(s, 'platformExplorer.markProduction', markProduction);
  registerCommand(s, 'platformExplorer.unmarkProduction', unmarkProduction);
  registerCommand(s, 'platformExplorer.pickTitle', pickActiveTitle);
  registerCommand(s, 'platformExplorer.filterActivity', filterActivity);
  registerCommand(s, 'platformExplorer.clearActivityFilter', clearActivityFilter);
  registerCommand(s, 'platformExplorer.copyActivityJson', copyActivityJson);
  registerCommand(s, 'platformExplorer.copyAllActivityJson', copyAllActivityJson);
  registerCommand(s, 'platformExplorer.rerunActivity', rerunActivity);
  registerCommand(s, 'platformExplorer.clearActivity', clearActivity);
  registerCommand(s, 'platformExplorer.openEndpointSetting', openEndpointSetting);
  registerCommand(s, 'platformExplorer.refresh', async ({ services }) => {
    services.tree.refresh();
    await services.emulatorProbe.refresh();
  });
  registerCommand(s, 'platformExplorer.showLog', ({ services }) => services.log.show());
}
