// Rename: the display name only; the title ID never changes.
import * as vscode from 'vscode';
import type { CommandContext } from './context';
import { validateTitleName } from '../titles';
import { resolveTitle } from './args';

export async function renameTitle(c: CommandContext, arg?: unknown): Promise<string> {
  const s = c.services;
  const title = await resolveTitle(c, arg);
  const name = (await c.ui.input({
    title: vscode.l10n.t('Rename {0}', title.titleId),
    prompt: vscode.l10n.t('New display name'),
    value: title.name,
    validateInput: validateTitleName,
  })).trim();
  await s.titles.rename(title.titleId, name);
  return name;
}
