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
 * Keeps the walkthrough's four keys (a title, a key, a lookup that succeeded, a HandheldStore read)
 * in step with the stored titles, keys and Activity, however they changed. VS Code ticks a step
 * when its expression turns true after it registered the walkthrough; one already true at that
 * moment counts as seen and never ticks in that session (its gettingStartedService), and when the
 * registration happens is not ours to know (it waits for the extension host, and up to 5 s more).
 * So each step also completes on its key together with `activeEditor` being, or not being, the
 * walkthrough (package.json): whichever of the two was false at the registration turns true at the
 * next switch to or from the walkthrough, so a step whose state holds ticks at the latest when the
 * walkthrough is opened. No timer: a session started by a person and a test behave the same.
 */
export function trackSetupState(titles: TitleStore, secrets: SecretKeys, activity: ActivityStore): vscode.Disposable {
  const update = async (): Promise<void> => {
    const all = titles.all();
    await setContext(ContextKeys.hasTitle, all.length > 0);
    const keys = await Promise.all(all.map((t) => secrets.has(t.titleId)));
    await setContext(ContextKeys.hasSecretKey, keys.some(Boolean));
    // The last two steps from what Activity kept (across restarts), whichever way the command ran.
    const done = activity.all().filter((e) => e.outcome === 'succeeded').map((e) => e.operation);
    await setContext(ContextKeys.hasLookedUp, done.some((op) => /GetPlatformIDsFrom/.test(op)));
    await setContext(ContextKeys.hasReadHandheldStore, done.some((op) => /GetHandheldStore/.test(op)));
  };
  void update();
  return vscode.Disposable.from(
    titles.onDidChange(() => void update()),
    secrets.onDidChange(() => void update()),
    activity.onDidChange(() => void update()),
  );
}
