// Copy PlatformId: from a hover link's argument, else the editor's cursor or selection.
import * as vscode from 'vscode';
import { CommandError } from '../errors';
import type { CommandContext } from './context';
import { resolvePlatformIdFromArgOrEditor } from './platformIdArg';

export async function copyPlatformId(c: CommandContext, arg?: unknown): Promise<string> {
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
