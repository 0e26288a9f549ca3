// The production safety rail: a title marked production needs its title ID typed before any
// deletion, on top of the deletion's own confirmation.
import * as vscode from 'vscode';
import { required } from '../errors';
import type { Services } from '../services';
import type { TitleRecord } from '../titles';
import { pickTitle, resolveTitle } from './args';

export async function markProduction(s: Services, arg?: unknown): Promise<boolean> {
  const title = await resolveTitle(s, arg);
  await s.titles.setProduction(title.titleId, true);
  void s.prompts.info(vscode.l10n.t('{0} ({1}) is marked production: deletions on it also need its title ID typed.', title.name, title.titleId));
  return true;
}

export async function unmarkProduction(s: Services, arg?: unknown): Promise<boolean> {
  const title = await resolveTitle(s, arg);
  await s.titles.setProduction(title.titleId, false);
  void s.prompts.info(vscode.l10n.t('{0} ({1}) is no longer marked production.', title.name, title.titleId));
  return false;
}

/** For a production title, asks for its title ID typed back; a dismissal cancels the command. */
export async function confirmProductionTitle(s: Services, title: TitleRecord): Promise<void> {
  if (!s.titles.get(title.titleId)?.production) {
    return;
  }
  required(
    await s.prompts.input({
      title: vscode.l10n.t('Production title'),
      prompt: vscode.l10n.t('{0} is marked production. Type its title ID {1} to confirm', title.name, title.titleId),
      validateInput: (v) => (v.trim().toUpperCase() === title.titleId ? undefined : vscode.l10n.t('Type the title ID {0} exactly to confirm.', title.titleId)),
    }),
  );
}

/** The status bar's click: pick the active title. */
export async function pickActiveTitle(s: Services): Promise<string> {
  // No title: resolveTitle says how to add one.
  return (s.titles.all().length === 0 ? await resolveTitle(s, undefined) : await pickTitle(s)).titleId;
}
