// Export Deletion Jobs: the ledger (the selected jobs and batches as the view shows them, one
// title's, or all) for audit records, as JSON or as formula-safe CSV: its own choice (or a
// `format` argument), not the lookups' format setting.
import * as vscode from 'vscode';
import { ledgerCsv, ledgerJson } from '../../core/deletion/ledger';
import { openResultDocument } from '../documents';
import type { CommandContext } from './context';
import { CommandError } from '../errors';
import { jobsOfNodes } from '../tree/jobNodes';
import { targetNodes } from './args';
import { defineCommand } from './define';
import { parseTarget, stringMember, type Target } from './parse';

/** What Export Deletion Jobs is started with: the nodes (and selection) of the view, or `{ titleId?, format? }`, or nothing (all). */
export interface ExportJobsArgs {
  readonly target: Target;
  readonly format?: 'json' | 'csv';
}

/** A node with the view's selection beside it, `{ titleId, format }` (a test, a task), nothing; a format other than json or csv is refused. */
export function parseExportJobsArgs(raw: readonly unknown[]): ExportJobsArgs {
  const format = stringMember(raw[0], 'format');
  if (format !== undefined && format !== 'json' && format !== 'csv') throw new CommandError(vscode.l10n.t('The "format" argument must be json or csv.'));
  return { target: parseTarget(raw), format };
}

export async function exportDeletionJobs(c: CommandContext, a: ExportJobsArgs): Promise<vscode.Uri | undefined> {
  const s = c.services;
  const { titleId, node } = a.target;
  const jobs = node ? jobsOfNodes(targetNodes(c, a.target)) : titleId ? s.jobs.forTitle(titleId) : s.jobs.all();
  if (jobs.length === 0) {
    void c.ui.info(titleId ? vscode.l10n.t('No deletion jobs are recorded for title {0}.', titleId) : vscode.l10n.t('No deletion jobs are recorded.'));
    return undefined;
  }
  const format = a.format ?? (await c.ui.pick([
    { label: 'JSON', format: 'json', detail: vscode.l10n.t('One document with every field, for records and tools') },
    { label: 'CSV', format: 'csv', detail: vscode.l10n.t('For a spreadsheet; text a spreadsheet would run is made inert') },
  ] as const, { title: vscode.l10n.t('Export {0} deletion jobs as', jobs.length) })).format;
  const titleIds = new Set(jobs.map((j) => j.titleId));
  const one = titleIds.size === 1 ? s.titles.get([...titleIds][0]) : undefined;
  // From the view under a filter the export holds what the view shows: its name says so.
  const filter = node ? s.tree.filter : '';
  const what = filter ? vscode.l10n.t('Deletion jobs, filter {0}', filter) : vscode.l10n.t('Deletion jobs');
  const name = { what, title: one && { titleId: one.titleId, name: one.name } };
  return (await openResultDocument(format === 'csv' ? ledgerCsv(jobs) : ledgerJson(jobs), format, name)).uri;
}

export const exportDeletionJobsCommand = defineCommand({
  id: 'platformExplorer.exportDeletionJobs',
  title: 'Export Deletion Jobs',
  category: true,
  icon: 'export',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bhasJobs\\b/', group: 'inline@1' },
      { when: 'view == platformExplorer.titles && viewItem =~ /\\b(deletionJob|deletionBatch|hasJobs)\\b/', group: '2_export@1' },
    ],
  },
  lazy: 'lookups',
  parse: parseExportJobsArgs,
  handler: exportDeletionJobs,
});
