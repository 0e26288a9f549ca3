// The Emulator Requests view and its commands: filter, refresh, and open an entry (its request
// and answer bodies, masked by the emulator) as a read-only JSON result document named after it.
import * as vscode from 'vscode';
import { openResultDocument } from '../documents';
import { CommandError } from '../errors';
import type { Services } from '../services';
import { EmulatorRequestsView, type EmulatorRequestEntry } from '../views/emulatorRequestsView';
import type { CommandContext } from './context';
import { registerCommand } from './registerCommand';
import { declareCommand } from './define';

/** Creates the view and registers its commands; the returned disposables end its connection. */
export function registerEmulatorRequests(s: Services): vscode.Disposable[] {
  const provider = new EmulatorRequestsView(() => s.emulator.current?.origin, () => s.emulatorProbe.refresh());
  const view = vscode.window.createTreeView('platformExplorer.emulatorRequests', { treeDataProvider: provider });
  registerCommand(s, 'platformExplorer.filterEmulatorRequests', (c, text) => filter(c, provider, text));
  registerCommand(s, 'platformExplorer.refreshEmulatorRequests', async () => {
    await provider.sync(true);
    return provider.shown();
  });
  registerCommand(s, 'platformExplorer.openEmulatorRequest', (c, seq) => open(c, provider, seq));
  return [provider, view, provider.attach(view)];
}

/** Sets the filter (typed, or given by a caller); returns the rows shown. */
async function filter(c: CommandContext, provider: EmulatorRequestsView, text: unknown): Promise<EmulatorRequestEntry[]> {
  const value = typeof text === 'string' ? text : await c.ui.input({
    title: vscode.l10n.t('Filter Emulator Requests'),
    prompt: vscode.l10n.t('Operation, title ID, status, error or credential kind; empty shows every request.'),
    value: provider.filter,
  });
  provider.setFilter(value.slice(0, 200));
  return provider.shown();
}

/** Opens one entry (by sequence number, or the selected tree item) as "<title> Emulator request 12 GetPlayedTitleList <UTC time>.json". */
async function open(c: CommandContext, provider: EmulatorRequestsView, seq: unknown): Promise<vscode.TextDocument> {
  const n = typeof seq === 'number' ? seq : (seq as EmulatorRequestEntry | undefined)?.seq;
  const entry = n === undefined ? undefined : provider.entry(n);
  if (!entry) {
    throw new CommandError(vscode.l10n.t('That request is not in the Emulator Requests view.'), vscode.l10n.t('Pick one of the requests the view shows.'));
  }
  // The emulator logs whatever path a client asked for: only a configured title and a plain operation name go into the tab's name.
  const title = entry.titleId === null ? undefined : c.services.titles.get(entry.titleId);
  const operation = /^[A-Za-z]+\/([A-Za-z]{1,64})$/.exec(entry.operation ?? '')?.[1];
  const what = [vscode.l10n.t('Emulator request {0}', entry.seq), operation].filter(Boolean).join(' ');
  return openResultDocument(`${JSON.stringify(entry, null, 2)}\n`, 'json', { what, title }, { preview: true });
}

export const filterEmulatorRequestsCommand = declareCommand({
  id: 'platformExplorer.filterEmulatorRequests',
  title: 'Filter Emulator Requests',
  category: true,
  icon: 'filter',
  menus: {
    'view/title': [
      { when: 'view == platformExplorer.emulatorRequests', group: 'navigation@1' },
    ],
  },
});

export const refreshEmulatorRequestsCommand = declareCommand({
  id: 'platformExplorer.refreshEmulatorRequests',
  title: 'Refresh Emulator Requests',
  category: true,
  icon: 'refresh',
  menus: {
    'view/title': [
      { when: 'view == platformExplorer.emulatorRequests', group: 'navigation@2' },
    ],
  },
});

export const openEmulatorRequestCommand = declareCommand({
  id: 'platformExplorer.openEmulatorRequest',
  title: 'Open Emulator Request as JSON',
  category: true,
  icon: 'go-to-file',
  palette: 'false',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.emulatorRequests && viewItem == emulatorRequest', group: 'inline@1' },
    ],
  },
});
