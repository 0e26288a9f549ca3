// Rename: the display name only; the title ID never changes. F2 in the Titles view renames the
// selected title.
import * as vscode from 'vscode';
import type { CommandContext } from './context';
import { validateTitleName } from '../titles';
import { resolveTitles } from './args';

export async function renameTitle(c: CommandContext, arg?: unknown, selection?: unknown): Promise<string | undefined> {
  const s = c.services;
  const [title] = await resolveTitles(c, arg, selection);
  if (!title) {
    c.ui.status(vscode.l10n.t('Select a title in the Platform view to rename it.'));
    return undefined;
  }
  const name = (await c.ui.input({
    title: vscode.l10n.t('Rename {0}', title.titleId),
    prompt: vscode.l10n.t('New display name'),
    value: title.name,
    validateInput: validateTitleName,
  })).trim();
  await s.titles.rename(title.titleId, name);
  return name;
}
