// The production safety rail: a title marked production needs its title ID typed before any
// deletion, on top of the deletion's own confirmation.
import * as vscode from 'vscode';
import type { CommandContext } from './context';
import type { TitleRecord } from '../titles';
import { pickTitle, resolveTitle } from './args';

export async function markProduction(c: CommandContext, arg?: unknown): Promise<boolean> {
  const s = c.services;
  const title = await resolveTitle(c, arg);
  await s.titles.setProduction(title.titleId, true);
  void c.ui.info(vscode.l10n.t('{0} ({1}) is marked production: deletions on it also need its title ID typed.', title.name, title.titleId));
  return true;
}

export async function unmarkProduction(c: CommandContext, arg?: unknown): Promise<boolean> {
  const s = c.services;
  const title = await resolveTitle(c, arg);
  await s.titles.setProduction(title.titleId, false);
  void c.ui.info(vscode.l10n.t('{0} ({1}) is no longer marked production.', title.name, title.titleId));
  return false;
}

/** For a production title, asks for its title ID typed back; a dismissal cancels the command. */
export async function confirmProductionTitle(c: CommandContext, title: TitleRecord): Promise<void> {
  const s = c.services;
  if (!s.titles.get(title.titleId)?.production) {
    return;
  }
  await c.ui.input({
    title: vscode.l10n.t('Production title'),
    prompt: vscode.l10n.t('{0} is marked production. Type its title ID {1} to confirm', title.name, title.titleId),
    validateInput: (v) => (v.trim().toUpperCase() === title.titleId ? undefined : vscode.l10n.t('Type the title ID {0} exactly to confirm.', title.titleId)),
  });
}

/** The status bar's click: pick the active title. */
export async function pickActiveTitle(c: CommandContext): Promise<string> {
  const s = c.services;
  // No title: resolveTitle says how to add one.
  return (s.titles.all().length === 0 ? await resolveTitle(c, undefined) : await pickTitle(c)).titleId;
}
