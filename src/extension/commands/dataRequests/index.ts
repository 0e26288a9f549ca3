// The Data Requests view (its commands declare themselves in their files: ../define.ts).
import * as vscode from 'vscode';
import type { Services } from '../../services';
import { registerCommand } from '../registerCommand';
import { declareCommand } from '../define';

/** Shows the view (its first read off activation's path) and registers its Refresh. */
export function registerDataRequests(s: Services): vscode.Disposable[] {
  const provider = s.dataRequestsView;
  const view = (provider.view = vscode.window.createTreeView('platformExplorer.dataRequests', { treeDataProvider: provider, showCollapseAll: true }));
  registerCommand(s, 'platformExplorer.refreshDataRequests', () => provider.reload());
  setTimeout(() => void provider.reload(), 0);
  return [view, vscode.window.registerFileDecorationProvider(provider)];
}

export const refreshDataRequestsCommand = declareCommand({
  id: 'platformExplorer.refreshDataRequests',
  title: 'Refresh Data Requests',
  category: true,
  icon: 'refresh',
  palette: 'false',
  menus: {
    'view/title': [
      { when: 'view == platformExplorer.dataRequests', group: 'navigation@2' },
    ],
  },
});
