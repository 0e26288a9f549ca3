// Every context key the extension sets, in one place. `when` clauses in package.json
// use these names; keep both in step.
import * as vscode from 'vscode';

export const ContextKeys = {
  /** The cursor is on a PlatformId, or the selection is exactly one. */
  editorHasPlatformId: 'platformExplorer.editorHasPlatformId',
  /** The selection holds a list (several lines or comma-separated) for the bulk lookups. */
  editorHasIdList: 'platformExplorer.editorHasIdList',
  /** The local emulator runs in this extension host. */
  emulatorRunning: 'platformExplorer.emulatorRunning',
  /** The Activity view has a filter set. */
  activityFiltered: 'platformExplorer.activityFiltered',
} as const;

export type ContextKey = (typeof ContextKeys)[keyof typeof ContextKeys];

export function setContext(key: ContextKey, value: unknown): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', key, value);
}
