// The Data Requests view and its commands.
import * as vscode from 'vscode';
import type { Services } from '../../services';
import { registerCommand } from '../registerCommand';
import { newDataRequest } from './newDataRequest';
import { closeDataRequest, openEvidence, recordExportLink, verifyDataRequest } from './requestSteps';
import { runDataRequest } from './runDataRequest';

/** Shows the view (its first read off activation's path) and registers its commands. */
export function registerDataRequests(s: Services): vscode.Disposable[] {
  const provider = s.dataRequestsView;
  const view = (provider.view = vscode.window.createTreeView('platformExplorer.dataRequests', { treeDataProvider: provider, showCollapseAll: true }));
  registerCommand(s, 'platformExplorer.newDataRequest', newDataRequest);
  registerCommand(s, 'platformExplorer.runDataRequest', runDataRequest);
  registerCommand(s, 'platformExplorer.recordExportLink', recordExportLink);
  registerCommand(s, 'platformExplorer.verifyDataRequest', verifyDataRequest);
  registerCommand(s, 'platformExplorer.closeDataRequest', closeDataRequest);
  registerCommand(s, 'platformExplorer.openDataRequestEvidence', openEvidence);
  registerCommand(s, 'platformExplorer.refreshDataRequests', () => provider.reload());
  setTimeout(() => void provider.reload(), 0);
  return [view, vscode.window.registerFileDecorationProvider(provider)];
}
