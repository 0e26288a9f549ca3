// Filter the Titles view: titles by name, ID or mark; deletion jobs by PlatformId, JobReceiptId,
// ticket, state or the titles they wipe (tree/provider.ts).
import * as vscode from 'vscode';
import type { CommandContext } from './context';
import { defineCommand, noArguments } from './define';
import { parseFilterArgs, type FilterArgs } from './parse';

export async function filterTitles(c: CommandContext, { text }: FilterArgs): Promise<string> {
  const tree = c.services.tree;
  const value = text ?? await c.ui.input({
        title: vscode.l10n.t('Filter Titles and Deletion Jobs'),
        prompt: vscode.l10n.t('Words that must all appear: title name or ID, PlatformId, JobReceiptId, ticket, job state (empty: show all)'),
        value: tree.filter,
      });
  await tree.setFilter(value);
  announceFilter(c);
  return tree.filter;
}

export async function clearTitlesFilter(c: CommandContext): Promise<void> {
  await c.services.tree.setFilter('');
  announceFilter(c);
}

/** What the filter left, in a message: the redrawn view alone is silent to a screen reader. */
function announceFilter(c: CommandContext): void {
  const { shown, total } = c.services.tree.shownCount();
  const f = c.services.tree.filter;
  void c.ui.info(f === ''
    ? vscode.l10n.t('Titles filter cleared: all {0} titles shown.', total)
    : vscode.l10n.t('Titles filter "{0}": {1} of {2} titles shown.', f, shown, total));
}

export const filterTitlesCommand = defineCommand({
  id: 'platformExplorer.filterTitles',
  title: 'Filter Titles and Deletion Jobs…',
  category: true,
  icon: 'filter',
  menus: {
    'view/title': [
      { when: 'view == platformExplorer.titles && !platformExplorer.titlesFiltered', group: 'navigation@3' },
    ],
  },
  parse: parseFilterArgs,
  handler: filterTitles,
});
export const clearTitlesFilterCommand = defineCommand({
  id: 'platformExplorer.clearTitlesFilter',
  title: 'Clear Titles Filter',
  category: true,
  icon: 'filter-filled',
  palette: 'platformExplorer.titlesFiltered',
  menus: {
    'view/title': [
      { when: 'view == platformExplorer.titles && platformExplorer.titlesFiltered', group: 'navigation@3' },
    ],
  },
  parse: noArguments,
  handler: clearTitlesFilter,
});
