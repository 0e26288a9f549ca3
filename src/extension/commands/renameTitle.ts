// Rename: the display name only; the title ID never changes.
import * as vscode from 'vscode';
import { required } from '../errors';
import type { Services } from '../services';
import { validateTitleName } from '../titles';
import { resolveTitle } from './args';

export async function renameTitle(s: Services, arg?: unknown): Promise<string> {
  const title = await resolveTitle(s, arg);
  const name = required(
    await s.prompts.input({
      title: vscode.l10n.t('Rename {0}', title.titleId),
      prompt: vscode.l10n.t('New display name'),
      value: title.name,
      validateInput: validateTitleName,
    }),
  ).trim();
  await s.titles.rename(title.titleId, name);
  return name;
}
