// What this session knows about each title's add-ons. HandheldStore is read live
// (GetHandheldStore reports Created); MobileStore and ConsoleNetB have no read operation,
// so their state is learned from delete results. Memory only: it can go stale. A state
// belongs to the endpoint it was learned from, and is dropped when the title's endpoint changes.
import * as vscode from 'vscode';

export type AddonName = 'HandheldStore' | 'MobileStore' | 'ConsoleNetB';
export type AddonState = 'unknown' | 'present' | 'absent';

interface Known {
  state: AddonState;
  endpoint: string | undefined;
}

export class AddonStates {
  private readonly states = new Map<string, Known>();
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the title ID whose add-on state changed. */
  readonly onDidChange = this.changed.event;

  /** `endpointOf` gives where a title's requests go now (undefined: not configured). */
  constructor(private readonly endpointOf: (titleId: string) => string | undefined) {}

  get(titleId: string, addon: AddonName): AddonState {
    const key = `${titleId.toUpperCase()}/${addon}`;
    const known = this.states.get(key);
    if (known && known.endpoint !== this.endpointOf(titleId.toUpperCase())) {
      this.states.delete(key);
      return 'unknown';
    }
    return known?.state ?? 'unknown';
  }

  set(titleId: string, addon: AddonName, state: AddonState): void {
    const key = `${titleId.toUpperCase()}/${addon}`;
    const endpoint = this.endpointOf(titleId.toUpperCase());
    const known = this.states.get(key);
    if (known?.state !== state || known.endpoint !== endpoint) {
      this.states.set(key, { state, endpoint });
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
