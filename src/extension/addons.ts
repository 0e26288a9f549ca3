// The store add-ons, listed once: the service's name, the Titles view's contextValue flag (the
// menus in package.json match it), and what can be done with each. One has a read operation
// (GetHandheldStore reports Created): the view reads it while unknown and a panel shows it. The
// others have only a delete, so their state is learned from delete results (addonStates.ts).
import type { CommandId } from './commandIds';
import type { AddonName } from '../core/api/types';

export interface AddonKind {
  readonly name: AddonName;
  readonly flag: string;
  /** The command that shows the configuration (the add-on the service can read). */
  readonly show?: CommandId;
}

export const ADDONS: readonly AddonKind[] = [
  { name: 'HandheldStore', flag: 'handheldStore', show: 'platformExplorer.showHandheldStore' },
  { name: 'MobileStore', flag: 'mobileStore' },
  { name: 'ConsoleNetB', flag: 'consoleNetB' },
];

/** The add-on the service can read; the others are deleted blind. */
export const READABLE_ADDON: AddonName = ADDONS.find((a) => a.show !== undefined)!.name;

/** The add-ons with no read operation (Delete MobileStore / ConsoleNetB Add-on). */
export type DeletableAddon = Exclude<AddonName, 'HandheldStore'>;
