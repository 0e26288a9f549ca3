// Copy PlatformId: of the selected deletion jobs (one per line), from a hover link's argument,
// else the editor's cursor or selection. Its palette variant while the Titles view has focus
// copies the view's selected jobs only.
import * as vscode from 'vscode';
import { CommandError } from '../errors';
import { jobsOfNodes } from '../tree/jobNodes';
import type { CommandContext } from './context';
import { selectedNodes } from './args';
import { resolvePlatformIdFromArgOrEditor } from './platformIdArg';
import { defineCommand, legacy } from './define';

/** Copies each distinct PlatformId once, one per line. */
async function copy(c: CommandContext, platformIds: readonly string[]): Promise<string> {
  const ids = [...new Set(platformIds)];
  await vscode.env.clipboard.writeText(ids.join('\n'));
  c.ui.status(ids.length === 1 ? vscode.l10n.t('Copied PlatformId {0}', ids[0]) : vscode.l10n.t('Copied {0} PlatformIds', ids.length));
  return ids.join('\n');
}

export async function copyPlatformId(c: CommandContext, arg?: unknown, selection?: unknown): Promise<string> {
  const jobs = jobsOfNodes(selectedNodes(c, arg, selection));
  if (jobs.length > 0) return copy(c, jobs.map((j) => j.platformId));
  const id = resolvePlatformIdFromArgOrEditor(arg, vscode.window.activeTextEditor);
  if (!id) {
    throw new CommandError(
      vscode.l10n.t('There is no PlatformId under the cursor or in the selection.'),
      vscode.l10n.t('Put the cursor on a PlatformId (up to 16 hex characters) and try again.'),
    );
  }
  return copy(c, [id]);
}

/** From the palette while the Titles view has focus: the selected deletion jobs' PlatformIds, never the editor behind the view. */
export async function copyPlatformIdInView(c: CommandContext): Promise<string | undefined> {
  const jobs = jobsOfNodes(c.services.tree.view?.selection ?? []);
  if (jobs.length > 0) return copy(c, jobs.map((j) => j.platformId));
  // Guidance in a message, which screen readers announce; a status-bar note is never read out.
  void c.ui.info(vscode.l10n.t('Select a deletion job in the Titles view to copy its PlatformId.'));
  return undefined;
}

export const copyPlatformIdCommand = defineCommand({
  id: 'platformExplorer.copyPlatformId',
  title: 'Platform: Copy PlatformId',
  icon: 'copy',
  inView: true,
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bdeletionJob\\b/', group: '1_job@0' },
    ],
    'editor/context': [
      { when: 'editorTextFocus && platformExplorer.editorHasPlatformId', group: 'platformExplorer@3' },
    ],
  },
  ...legacy(copyPlatformId, copyPlatformIdInView),
});
