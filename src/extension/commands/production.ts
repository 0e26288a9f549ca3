// The production safety rail: a title marked production needs its title ID typed before any
// deletion, on top of the deletion's own confirmation.
import * as vscode from 'vscode';
import type { CommandContext } from './context';
import { named, type TitleRecord } from '../titles';
import { pickTitle, resolveTitle, resolveTitles } from './args';
import { defineCommand, noArguments } from './define';
import { parseTarget, type Target } from './parse';

/** Marks (or unmarks) the title, or every selected title. */
async function setProduction(c: CommandContext, target: Target, production: boolean): Promise<boolean> {
  const titles = await resolveTitles(c, target);
  for (const t of titles) await c.services.titles.setProduction(t.titleId, production);
  const names = titles.map(named).join(', ');
  void c.ui.info(production
    ? (titles.length === 1
      ? vscode.l10n.t('{0} is marked production: deletions on it also need its title ID typed.', names)
      : vscode.l10n.t('{0} are marked production: deletions on them also need the title ID typed.', names))
    : (titles.length === 1
      ? vscode.l10n.t('{0} is no longer marked production.', names)
      : vscode.l10n.t('{0} are no longer marked production.', names)));
  return production;
}

export function markProduction(c: CommandContext, target: Target): Promise<boolean> {
  return setProduction(c, target, true);
}

export function unmarkProduction(c: CommandContext, target: Target): Promise<boolean> {
  return setProduction(c, target, false);
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
  return (s.titles.all().length === 0 ? await resolveTitle(c, parseTarget([])) : await pickTitle(c)).titleId;
}

export const markProductionCommand = defineCommand({
  id: 'platformExplorer.markProduction',
  title: 'Mark as Production',
  category: true,
  icon: 'shield',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bnotProduction\\b/', group: '3_title@4' },
    ],
  },
  parse: parseTarget,
  handler: markProduction,
});
export const unmarkProductionCommand = defineCommand({
  id: 'platformExplorer.unmarkProduction',
  title: 'Unmark Production',
  category: true,
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bproduction\\b/', group: '3_title@4' },
    ],
  },
  parse: parseTarget,
  handler: unmarkProduction,
});
export const pickTitleCommand = defineCommand({
  id: 'platformExplorer.pickTitle',
  title: 'Pick Active Title',
  category: true,
  icon: 'list-selection',
  parse: noArguments,
  handler: pickActiveTitle,
});
