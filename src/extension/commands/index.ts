// Every command of the extension, registered through one wrapper.
// package.json declares the same IDs; scripts/check-commands.mjs keeps both in step.
import type { Services } from '../services';
import { clearActivity, clearActivityFilter, copyActivityJson, filterActivity, rerunActivity } from './activity';
import { addTitle } from './addTitle';
import { treeNodeArg } from './args';
import { clearSecretKey } from './clearSecretKey';
import { copyJobReceiptId } from './copyJobReceiptId';
import { copyPlatformId } from './copyPlatformId';
import { deleteConsoleNetB, deleteMobileStore } from './deleteAddon';
import { deleteFromList } from './deleteFromList';
import { deleteMasterPlayerAccount } from './deleteMasterPlayerAccount';
import { exportDeletionJobs } from './exportDeletionJobs';
import { findPlatformIds } from './findPlatformIds';
import { lookUpConsoleLiveIds } from './lookUpConsoleLiveIds';
import { lookUpStorefrontNames } from './lookUpStorefrontNames';
import { registerCommand } from './registerCommand';
import { markProduction, pickActiveTitle, unmarkProduction } from './production';
import { openEndpointSetting } from './openEndpointSetting';
import { removeTitle } from './removeTitle';
import { resumeBatches } from './resumeBatches';
import { renameTitle } from './renameTitle';
import { setSecretKey } from './setSecretKey';
import { showHandheldStore } from './showHandheldStore';
import { showPlayedTitles } from './showPlayedTitles';
import { startEmulator, stopEmulator } from './startEmulator';
import { testLauncherLogin } from './testLauncherLogin';
import { verifyDeletions } from './verifyDeletions';

export function registerCommands(s: Services): void {
  registerCommand(s, 'platformExplorer.addTitle', addTitle);
  registerCommand(s, 'platformExplorer.renameTitle', renameTitle);
  registerCommand(s, 'platformExplorer.removeTitle', removeTitle);
  registerCommand(s, 'platformExplorer.setSecretKey', setSecretKey);
  registerCommand(s, 'platformExplorer.replaceSecretKey', (c, arg) => setSecretKey(c, treeNodeArg(arg)));
  registerCommand(s, 'platformExplorer.clearSecretKey', clearSecretKey);
  registerCommand(s, 'platformExplorer.lookUpConsoleLiveIds', lookUpConsoleLiveIds);
  registerCommand(s, 'platformExplorer.lookUpStorefrontNames', lookUpStorefrontNames);
  registerCommand(s, 'platformExplorer.deleteMasterPlayerAccount', deleteMasterPlayerAccount);
  registerCommand(s, 'platformExplorer.deleteMasterPlayerAccountsFromList', deleteFromList);
  registerCommand(s, 'platformExplorer.resumeDeletionBatches', resumeBatches);
  registerCommand(s, 'platformExplorer.verifyDeletions', verifyDeletions);
  registerCommand(s, 'platformExplorer.showPlayedTitles', showPlayedTitles);
  registerCommand(s, 'platformExplorer.testLauncherLogin', testLauncherLogin);
  registerCommand(s, 'platformExplorer.showHandheldStore', showHandheldStore);
  registerCommand(s, 'platformExplorer.deleteMobileStore', deleteMobileStore);
  registerCommand(s, 'platformExplorer.deleteConsoleNetB', deleteConsoleNetB);
  registerCommand(s, 'platformExplorer.copyJobReceiptId', copyJobReceiptId);
  registerCommand(s, 'platformExplorer.exportDeletionJobs', exportDeletionJobs);
  registerCommand(s, 'platformExplorer.copyPlatformId', copyPlatformId);
  registerCommand(s, 'platformExplorer.findPlatformIds', findPlatformIds);
  registerCommand(s, 'platformExplorer.startEmulator', startEmulator);
  registerCommand(s, 'platformExplorer.stopEmulator', stopEmulator);
  registerCommand(s, 'platformExplorer.markProduction', markProduction);
  registerCommand(s, 'platformExplorer.unmarkProduction', unmarkProduction);
  registerCommand(s, 'platformExplorer.pickTitle', pickActiveTitle);
  registerCommand(s, 'platformExplorer.filterActivity', filterActivity);
  registerCommand(s, 'platformExplorer.clearActivityFilter', clearActivityFilter);
  registerCommand(s, 'platformExplorer.copyActivityJson', copyActivityJson);
  registerCommand(s, 'platformExplorer.rerunActivity', rerunActivity);
  registerCommand(s, 'platformExplorer.clearActivity', clearActivity);
  registerCommand(s, 'platformExplorer.openEndpointSetting', openEndpointSetting);
  registerCommand(s, 'platformExplorer.refresh', async ({ services }) => {
    services.tree.refresh();
    await services.emulatorProbe.refresh();
  });
  registerCommand(s, 'platformExplorer.showLog', ({ services }) => services.log.show());
}
