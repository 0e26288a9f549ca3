// Emulator titles the user removed: Start Local Emulator does not add them back (it says so);
// a title added again with Add Title is a title again, and a later start gives it its key.
import type * as vscode from 'vscode';
import type { TitleRecord } from './titles';

const REMOVED_TITLES = 'platformExplorer.removedEmulatorTitles';

/** Remove Title calls this with what it removes; only emulator titles are remembered. */
export async function rememberRemovedEmulatorTitles(state: vscode.Memento, titles: readonly TitleRecord[]): Promise<void> {
  const ids = titles.filter((t) => t.endpointProfile === 'emulator').map((t) => t.titleId);
  if (ids.length === 0) return;
  const before = state.get<string[]>(REMOVED_TITLES) ?? [];
  await state.update(REMOVED_TITLES, [...new Set([...before, ...ids])].slice(-50));
}

export function removedEmulatorTitles(state: vscode.Memento): ReadonlySet<string> {
  return new Set(state.get<string[]>(REMOVED_TITLES) ?? []);
}
