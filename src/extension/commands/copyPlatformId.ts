// Copy PlatformId: of the selected deletion jobs (one per line), from a hover link's argument,
// else the editor's cursor or selection.
import * as vscode from 'vscode';
import { CommandError } from '../errors';
import { jobsOfNodes } from '../tree/jobNodes';
import type { CommandContext } from './context';
import { selectedNodes } from './args';
import { resolvePlatformIdFromArgOrEditor } from './platformIdArg';
import { defineCommand } from './define';

export async function copyPlatformId(c: CommandContext, arg?: unknown, selection?: unknown): Promise<string> {
  const jobs = jobsOfNodes(selectedNodes(c, arg, selection));
  if (jobs.length > 0) {
    const ids = [...new Set(jobs.map((j) => j.platformId))];
    await vscode.env.clipboard.writeText(ids.join('\n'));
    c.ui.status(ids.length === 1 ? vscode.l10n.t('Copied PlatformId {0}', ids[0]) : vscode.l10n.t('Copied {0} PlatformIds', ids.length));
    return ids.join('\n');
  }
  const id = resolvePlatformIdFromArgOrEditor(arg);
  if (!id) {
    throw new CommandError(
      vscode.l10n.t('There is no PlatformId under the cursor or in the selection.'),
      vscode.l10n.t('Put the cursor on a PlatformId (up to 16 hex characters) and try again.'),
    );
  }
  await vscode.env.clipboard.writeText(id);
  c.ui.status(vscode.l10n.t('Copied PlatformId {0}', id));
  return id;
}

export const copyPlatformIdCommand = defineCommand('platformExplorer.copyPlatformId', copyPlatformId);
