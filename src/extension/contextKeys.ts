// Every context key the extension sets, in one place. `when` clauses in package.json
// use these names; keep both in step.
import * as vscode from 'vscode';
import type { ActivityStore } from './activity/store';
import type { SecretKeys } from './secrets';
import type { TitleStore } from './titles';

export const ContextKeys = {
  /** The cursor is on a PlatformId, or the selection is exactly one. */
  editorHasPlatformId: 'platformExplorer.editorHasPlatformId',
  /** The selections hold several PlatformIds (one per line or comma-separated): Show Played Titles for all. */
  editorHasPlatformIds: 'platformExplorer.editorHasPlatformIds',
  /** Some text is selected: the bulk lookups offer to read it as a list (one per line or comma-separated). */
  editorHasIdList: 'platformExplorer.editorHasIdList',
  /** The local emulator runs in this extension host. */
  emulatorRunning: 'platformExplorer.emulatorRunning',
  /** An emulator answers for the titles of the emulator profile (this host's or another process's). */
  emulatorServing: 'platformExplorer.emulatorServing',
  /** Some title is configured (the walkthrough's first step). */
  hasTitle: 'platformExplorer.hasTitle',
  /** Some title has its secret key set (the walkthrough's second step). */
  hasSecretKey: 'platformExplorer.hasSecretKey',
  /** Activity holds a lookup that succeeded, however it was run (the walkthrough's third step). */
  hasLookedUp: 'platformExplorer.hasLookedUp',
  /** Activity holds a HandheldStore configuration read (the walkthrough's fourth step). */
  hasReadHandheldStore: 'platformExplorer.hasReadHandheldStore',
  /** The Activity view has a filter set. */
  activityFiltered: 'platformExplorer.activityFiltered',
  /** The Titles view has a filter set. */
  titlesFiltered: 'platformExplorer.titlesFiltered',
} as const;

export type ContextKey = (typeof ContextKeys)[keyof typeof ContextKeys];

const lastSet = new Map<ContextKey, unknown>();

export function setContext(key: ContextKey, value: unknown): Thenable<unknown> {
  lastSet.set(key, value);
  return vscode.commands.executeCommand('setContext', key, value);
}

/** The value this extension last gave a context key (VS Code has no API to read one back). */
export function contextValue(key: ContextKey): unknown {
  return lastSet.get(key);
}

/**
 * Keeps hasTitle and hasSecretKey (the walkthrough's first two steps) in step with the stored
 * titles and keys, however they changed. VS Code ticks such a step when its key turns true after
 * it registered the walkthrough; a key already true at that moment counts as seen and never ticks
 * in that session (its gettingStartedService), and the registration may wait up to 5 s after
 * start-up. So the keys start false and take the stored state `settleMs` after activation; a
 * title or key added later counts at once.
 */
export function trackSetupState(titles: TitleStore, secrets: SecretKeys, activity: ActivityStore, settleMs: number): vscode.Disposable {
  let settled = false;
  const update = async (): Promise<void> => {
    if (!settled) return;
    const all = titles.all();
    await setContext(ContextKeys.hasTitle, all.length > 0);
    const keys = await Promise.all(all.map((t) => secrets.has(t.titleId)));
    await setContext(ContextKeys.hasSecretKey, keys.some(Boolean));
    // The last two steps from what Activity kept (across restarts), whichever way the command ran.
    const done = activity.all().filter((e) => e.outcome === 'succeeded').map((e) => e.operation);
    await setContext(ContextKeys.hasLookedUp, done.some((op) => /GetPlatformIDsFrom/.test(op)));
    await setContext(ContextKeys.hasReadHandheldStore, done.some((op) => /GetHandheldStore/.test(op)));
  };
  for (const key of [ContextKeys.hasTitle, ContextKeys.hasSecretKey, ContextKeys.hasLookedUp, ContextKeys.hasReadHandheldStore]) void setContext(key, false);
  const timer = setTimeout(() => {
    settled = true;
    void update();
  }, settleMs);
  return vscode.Disposable.from(
    titles.onDidChange(() => void update()),
    secrets.onDidChange(() => void update()),
    activity.onDidChange(() => void update()),
    { dispose: () => clearTimeout(timer) },
  );
}
