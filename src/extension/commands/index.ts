// Every command of the extension, registered through one wrapper with the operations it sends
// (Activity's names and re-runnable set derive from them and the table): each file's own
// declaration (./define.ts; listed in ./all.ts, generated), and here the commands whose handler
// loads on first use (the deletion workflow, the data requests, the lookups, the panels, the emulator: ../lazy,
// bundles of their own). package.json declares the same IDs; scripts/check-commands.mjs keeps them in step.
import type { Services } from '../services';
import { DECLARED_COMMANDS } from './all';
import { registerCommand, type CommandHandler } from './registerCommand';

/** A handler whose module is loaded when the command first runs. */
function onFirstUse<M>(load: () => Promise<M>, pick: (m: M) => CommandHandler): CommandHandler {
  return async (c, ...args) => pick(await load())(c, ...args);
}

const deletion = (): Promise<typeof import('../lazy/deletion')> => import('../lazy/deletion');
const panels = (): Promise<typeof import('../lazy/panels')> => import('../lazy/panels');
const emulator = (): Promise<typeof import('../lazy/emulatorCommands')> => import('../lazy/emulatorCommands');
const requests = (): Promise<typeof import('../lazy/dataRequests')> => import('../lazy/dataRequests');
const lookups = (): Promise<typeof import('../lazy/lookups')> => import('../lazy/lookups');

export function registerCommands(s: Services): void {
  for (const d of DECLARED_COMMANDS) registerCommand(s, d.id, d.handler, d.operations);
  registerCommand(s, 'platformExplorer.deleteMasterPlayerAccount', onFirstUse(deletion, (m) => m.deleteMasterPlayerAccount), ['DeleteMasterPlayerAccount']);
  registerCommand(s, 'platformExplorer.deleteMasterPlayerAccountInView', onFirstUse(deletion, (m) => m.deleteMasterPlayerAccountInView), ['DeleteMasterPlayerAccount']);
  registerCommand(s, 'platformExplorer.deleteMasterPlayerAccountsFromList', onFirstUse(deletion, (m) => m.deleteFromList), ['DeleteMasterPlayerAccount']);
  registerCommand(s, 'platformExplorer.resumeDeletionBatches', onFirstUse(deletion, (m) => m.resumeBatches), ['DeleteMasterPlayerAccount']);
  registerCommand(s, 'platformExplorer.verifyDeletions', onFirstUse(deletion, (m) => m.verifyDeletions), ['GetPlayedTitleList']);
  registerCommand(s, 'platformExplorer.testLauncherLogin', onFirstUse(panels, (m) => m.testLauncherLogin), ['LoginWithLauncher']);
  registerCommand(s, 'platformExplorer.showHandheldStore', onFirstUse(panels, (m) => m.showHandheldStore), ['GetHandheldStore']);
  registerCommand(s, 'platformExplorer.showPlayedTitles', onFirstUse(lookups, (m) => m.showPlayedTitles), ['GetPlayedTitleList']);
  registerCommand(s, 'platformExplorer.showPlayedTitlesInView', onFirstUse(lookups, (m) => m.showPlayedTitlesInView), ['GetPlayedTitleList']);
  registerCommand(s, 'platformExplorer.lookUpAccountInfo', onFirstUse(lookups, (m) => m.lookUpAccountInfo), ['GetUserAccountInfo']);
  registerCommand(s, 'platformExplorer.lookUpAccountInfoInView', onFirstUse(lookups, (m) => m.lookUpAccountInfoInView), ['GetUserAccountInfo']);
  registerCommand(s, 'platformExplorer.lookUpConsoleLiveIds', onFirstUse(lookups, (m) => m.lookUpConsoleLiveIds), ['GetPlatformIDsFromConsoleLiveIDs']);
  registerCommand(s, 'platformExplorer.lookUpStorefrontNames', onFirstUse(lookups, (m) => m.lookUpStorefrontNames), ['GetPlatformIDsFromStorefrontNames']);
  registerCommand(s, 'platformExplorer.findPlatformIds', onFirstUse(lookups, (m) => m.findPlatformIds));
  registerCommand(s, 'platformExplorer.exportDeletionJobs', onFirstUse(lookups, (m) => m.exportDeletionJobs));
  registerCommand(s, 'platformExplorer.startEmulator', onFirstUse(emulator, (m) => m.startEmulator));
  registerCommand(s, 'platformExplorer.stopEmulator', onFirstUse(emulator, (m) => m.stopEmulator));
  registerCommand(s, 'platformExplorer.newDataRequest', onFirstUse(requests, (m) => m.newDataRequest));
  registerCommand(s, 'platformExplorer.runDataRequest', onFirstUse(requests, (m) => m.runDataRequest), [
    'GetPlatformIDsFromStorefrontNames', 'GetPlatformIDsFromConsoleLiveIDs', 'GetUserAccountInfo', 'GetPlayedTitleList',
    'ExportMasterPlayerData', 'DeleteMasterPlayerAccount', 'DeleteMasterPlayerEventData',
  ]);
  registerCommand(s, 'platformExplorer.verifyDataRequest', onFirstUse(requests, (m) => m.verifyDataRequest), ['GetPlayedTitleList']);
  registerCommand(s, 'platformExplorer.recordExportLink', onFirstUse(requests, (m) => m.recordExportLink));
  registerCommand(s, 'platformExplorer.closeDataRequest', onFirstUse(requests, (m) => m.closeDataRequest));
  registerCommand(s, 'platformExplorer.withdrawDataRequest', onFirstUse(requests, (m) => m.withdrawDataRequest));
  registerCommand(s, 'platformExplorer.shredDataRequestKey', onFirstUse(requests, (m) => m.shredDataRequest));
  registerCommand(s, 'platformExplorer.openDataRequestEvidence', onFirstUse(requests, (m) => m.openEvidence));
  registerCommand(s, 'platformExplorer.exportOperatorPublicKey', onFirstUse(requests, (m) => m.exportOperatorPublicKey));
  registerCommand(s, 'platformExplorer.refresh', async ({ services }) => {
    services.tree.refresh();
    await services.emulatorProbe.refresh();
  });
  registerCommand(s, 'platformExplorer.showLog', ({ services }) => services.log.show());
}
