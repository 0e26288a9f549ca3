// Copy PlatformId: from a hover link's argument, else the editor's cursor or selection.
import * as vscode from 'vscode';
import { CommandError } from '../errors';
import type { Services } from '../services';
import { resolvePlatformIdFromArgOrEditor } from './platformIdArg';

export async function copyPlatformId(s: Services, arg?: unknown): Promise<string> {
  const id = resolvePlatformIdFromArgOrEditor(arg);
  if (!id) {
    throw new CommandError('There is no PlatformId under the cursor or in the selection.', 'Put the cursor on a PlatformId (up to 16 hex characters) and try again.');
  }
  await vscode.env.clipboard.writeText(id);
  s.prompts.status(`Copied PlatformId ${id}`);
  return id;
}
