// Commands of the Activity view: filter, Copy as JSON, re-run (read-only operations only), clear.
import * as vscode from 'vscode';
import { isRerunnable } from '../activity/recorder';
import type { ActivityEntry } from '../activity/store';
import { ActivityItem } from '../activity/view';
import { CommandError } from '../errors';
import type { CommandContext } from './context';
import { defineCommand, noArguments } from './define';
import { parseFilterArgs, type FilterArgs } from './parse';
import { sayCopied } from './copied';

export async function filterActivity(c: CommandContext, { text }: FilterArgs): Promise<string> {
  const s = c.services;
  const value = text ?? await c.ui.input({
        title: vscode.l10n.t('Filter Activity'),
        prompt: vscode.l10n.t('Words that must all appear: operation, title ID or name, outcome, error code, JobReceiptId (empty: show all)'),
        value: s.activityView.filter,
      });
  s.activityView.setFilter(value);
  return s.activityView.filter;
}

export function clearActivityFilter(c: CommandContext): void {
  const s = c.services;
  s.activityView.setFilter('');
}

/** The entry of the Activity view's item a menu ran the command on, if any (anything else is not read). */
export interface ActivityArgs {
  readonly entry?: ActivityEntry;
}

export function parseActivityArgs(raw: readonly unknown[]): ActivityArgs {
  return { entry: raw[0] instanceof ActivityItem ? raw[0].entry : undefined };
}

/** The entry of a view item (its menu), else every entry shown, as JSON on the clipboard. */
export async function copyActivityJson(c: CommandContext, { entry }: ActivityArgs): Promise<string> {
  return copyJson(c, entry ?? c.services.activityView.shown());
}

/**
 * Every entry shown, as JSON on the clipboard: the view's title bar, which passes the focused
 * entry as its argument (so it needs a command of its own).
 */
export function copyAllActivityJson(c: CommandContext): Promise<string> {
  return copyJson(c, c.services.activityView.shown());
}

async function copyJson(c: CommandContext, entries: ActivityEntry[] | ActivityEntry): Promise<string> {
  if (Array.isArray(entries) && entries.length === 0) {
    // Said, and the clipboard left as it was: an empty list copied is no answer.
    const filter = c.services.activityView.filter;
    void c.ui.info(filter
      ? vscode.l10n.t('Nothing to copy: no Activity entry matches the filter "{0}".', filter)
      : vscode.l10n.t('Nothing to copy: Activity has no entries yet.'));
    return '';
  }
  const json = JSON.stringify(entries, null, 2);
  await vscode.env.clipboard.writeText(json);
  sayCopied(c, !Array.isArray(entries) ? vscode.l10n.t('Copied the Activity entry as JSON')
    : entries.length === 1 ? vscode.l10n.t('Copied 1 Activity entry as JSON') : vscode.l10n.t('Copied {0} Activity entries as JSON', entries.length));
  return json;
}

/** Runs the operation again for the same title; it asks for its input again. Never a delete. */
export async function rerunActivity(_c: CommandContext, { entry: e }: ActivityArgs): Promise<unknown> {
  if (e === undefined) {
    throw new CommandError(vscode.l10n.t('Re-run needs an entry of the Activity view.'), vscode.l10n.t('Right-click an entry in the Activity view and choose Re-run.'));
  }
  if (!isRerunnable(e)) {
    throw new CommandError(
      vscode.l10n.t('{0} cannot be re-run from Activity.', e.operation),
      vscode.l10n.t('Deletions are never re-run: run the command again, with its full confirmation.'),
    );
  }
  return vscode.commands.executeCommand(e.command, { titleId: e.titleId });
}

export async function clearActivity(c: CommandContext): Promise<void> {
  const s = c.services;
  await c.ui.confirm(vscode.l10n.t('Clear the Activity history?'), vscode.l10n.t('Every entry is removed. Deletion Jobs are kept.'), vscode.l10n.t('Clear'));
  await s.activity.clear();
}

export const filterActivityCommand = defineCommand({
  id: 'platformExplorer.filterActivity',
  title: 'Filter Activity…',
  category: true,
  icon: 'filter',
  menus: {
    'view/title': [
      { when: 'view == platformExplorer.activity && !platformExplorer.activityFiltered', group: 'navigation@1' },
    ],
  },
  parse: parseFilterArgs,
  handler: filterActivity,
});
export const clearActivityFilterCommand = defineCommand({
  id: 'platformExplorer.clearActivityFilter',
  title: 'Clear Activity Filter',
  category: true,
  icon: 'filter-filled',
  palette: 'platformExplorer.activityFiltered',
  menus: {
    'view/title': [
      { when: 'view == platformExplorer.activity && platformExplorer.activityFiltered', group: 'navigation@1' },
    ],
  },
  parse: noArguments,
  handler: clearActivityFilter,
});
export const copyActivityJsonCommand = defineCommand({
  id: 'platformExplorer.copyActivityJson',
  title: 'Copy as JSON',
  category: true,
  icon: 'json',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.activity && viewItem =~ /\\bactivity\\b/', group: '1_activity@2' },
    ],
  },
  parse: parseActivityArgs,
  handler: copyActivityJson,
});
export const copyAllActivityJsonCommand = defineCommand({
  id: 'platformExplorer.copyAllActivityJson',
  title: 'Copy All Shown as JSON',
  category: true,
  icon: 'json',
  menus: {
    'view/title': [
      { when: 'view == platformExplorer.activity', group: 'navigation@2' },
    ],
  },
  parse: noArguments,
  handler: copyAllActivityJson,
});
export const rerunActivityCommand = defineCommand({
  id: 'platformExplorer.rerunActivity',
  title: 'Re-run',
  category: true,
  icon: 'debug-rerun',
  palette: 'false',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.activity && viewItem =~ /\\brerunnable\\b/', group: 'inline@1' },
      { when: 'view == platformExplorer.activity && viewItem =~ /\\brerunnable\\b/', group: '1_activity@1' },
    ],
  },
  parse: parseActivityArgs,
  handler: rerunActivity,
});
export const clearActivityCommand = defineCommand({
  id: 'platformExplorer.clearActivity',
  title: 'Clear Activity History',
  category: true,
  icon: 'clear-all',
  menus: {
    'view/title': [
      { when: 'view == platformExplorer.activity', group: '1_clear@1' },
    ],
  },
  parse: noArguments,
  handler: clearActivity,
});
