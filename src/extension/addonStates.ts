// What this session knows about each title's add-ons. HandheldStore is read live
// (GetHandheldStore reports Created); MobileStore and ConsoleNetB have no read operation,
// so their state is learned from delete results. Memory only: it can go stale.
import * as vscode from 'vscode';

export type AddonName = 'HandheldStore' | 'MobileStore' | 'ConsoleNetB';
export type AddonState = 'unknown' | 'present' | 'absent';

export class AddonStates {
  private readonly states = new Map<string, AddonState>();
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the title ID whose add-on state changed. */
  readonly onDidChange = this.changed.event;

  get(titleId: string, addon: AddonName): AddonState {
    return this.states.get(`${titleId.toUpperCase()}/${addon}`) ?? 'unknown';
  }

  set(titleId: string, addon: AddonName, state: AddonState): void {
    const key = `${titleId.toUpperCase()}/${addon}`;
    if (this.states.get(key) !== state) {
      this.states.set(key, state);
      this.changed.fire(titleId.toUpperCase());
    }
  }

  forgetTitle(titleId: string): void {
    for (const key of [...this.states.keys()]) {
      if (key.startsWith(`${titleId.toUpperCase()}/`)) {
        this.states.delete(key);
      }
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}
