// What this session knows about each title's add-ons: the one cache the Titles view and the
// HandheldStore panel both write. HandheldStore is read (GetHandheldStore reports Created) by
// the view while unknown and by the panel on each load; MobileStore and ConsoleNetB have no
// read operation, so their state is learned from delete results. Memory only: it can go stale.
// A state belongs to the endpoint it was learned from, and is dropped when that changes.
import type { AddonName } from '../core/api/types';
import * as vscode from 'vscode';
import { Disposable } from './lifecycle';

export type { AddonName } from '../core/api/types';
export type AddonState = 'unknown' | 'present' | 'absent';

interface Known {
  state: AddonState;
  endpoint: string | undefined;
}

export class AddonStates extends Disposable {
  private readonly states = new Map<string, Known>();
  private readonly changed = this._register(new vscode.EventEmitter<string>());
  /** Fires with the title ID whose add-on state changed. */
  readonly onDidChange = this.changed.event;

  /** `endpointOf` gives where a title's requests go now (undefined: not configured). */
  constructor(private readonly endpointOf: (titleId: string) => string | undefined) {
    super();
  }

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

  /** Drops one add-on's state without an event: the caller re-reads it (an explicit Refresh). */
  forget(titleId: string, addon: AddonName): void {
    this.states.delete(`${titleId.toUpperCase()}/${addon}`);
  }

  forgetTitle(titleId: string): void {
    for (const key of [...this.states.keys()]) {
      if (key.startsWith(`${titleId.toUpperCase()}/`)) {
        this.states.delete(key);
      }
    }
  }
}
