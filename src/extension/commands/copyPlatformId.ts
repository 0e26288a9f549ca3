// Copy PlatformId: of the selected deletion jobs (one per line), from a hover link's argument,
// else the editor's cursor or selection. Its palette variant while the Titles view has focus
// copies the view's selected jobs only.
import * as vscode from 'vscode';
import { CommandError } from '../errors';
import { jobsOfNodes } from '../tree/jobNodes';
import type { CommandContext } from './context';
import { targetNodes } from './args';
import { givenOrEditorPlatformId, platformIdMember } from './platformIdArg';
import { defineCommand, type Invocation } from './define';
import { parseTarget, type Target } from './parse';
import type { TreeNode } from '../tree/nodes';
import { sayCopied } from './copied';

/** Copies each distinct PlatformId once, one per line. */
async function copy(c: CommandContext, platformIds: readonly string[]): Promise<string> {
  const ids = [...new Set(platformIds)];
  await vscode.env.clipboard.writeText(ids.join('\n'));
  sayCopied(c, ids.length === 1 ? vscode.l10n.t('Copied PlatformId {0}', ids[0]) : vscode.l10n.t('Copied {0} PlatformIds', ids.length));
  return ids.join('\n');
}

/** Copy PlatformId's arguments: the nodes and the `{ platformId }` given, or the InView variant's view selection. */
export interface CopyPlatformIdArgs {
  readonly target: Target;
  readonly platformId?: string;
  readonly inView?: { readonly viewSelection: readonly TreeNode[] };
}

export function parseCopyPlatformIdArgs(raw: readonly unknown[], at: Invocation): CopyPlatformIdArgs {
  return at.inView ? { target: parseTarget([]), inView: { viewSelection: at.viewSelection } } : { target: parseTarget(raw), platformId: platformIdMember(raw[0]) };
}

export async function copyPlatformId(c: CommandContext, a: CopyPlatformIdArgs): Promise<string | undefined> {
  if (a.inView) return copyPlatformIdInView(c, a.inView.viewSelection);
  const jobs = jobsOfNodes(targetNodes(c, a.target));
  if (jobs.length > 0) return copy(c, jobs.map((j) => j.platformId));
  const id = givenOrEditorPlatformId(a.platformId, a.target, vscode.window.activeTextEditor);
  if (!id) {
    throw new CommandError(
      vscode.l10n.t('There is no PlatformId under the cursor or in the selection.'),
      vscode.l10n.t('Put the cursor on a PlatformId (up to 16 hex characters) and try again.'),
    );
  }
  return copy(c, [id]);
}

/** From the palette while the Titles view has focus: the selected deletion jobs' PlatformIds, never the editor behind the view. */
async function copyPlatformIdInView(c: CommandContext, viewSelection: readonly TreeNode[]): Promise<string | undefined> {
  const jobs = jobsOfNodes(viewSelection);
  if (jobs.length > 0) return copy(c, jobs.map((j) => j.platformId));
  // Guidance in a message, which screen readers announce; a status-bar note is never read out.
  void c.ui.info(vscode.l10n.t('Select a deletion job in the Titles view to copy its PlatformId.'));
  return undefined;
}

export const copyPlatformIdCommand = defineCommand({
  id: 'platformExplorer.copyPlatformId',
  title: 'Copy PlatformId',
  category: true,
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
  parse: parseCopyPlatformIdArgs,
  handler: copyPlatformId,
});
