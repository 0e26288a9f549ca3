// Export Deletion Jobs: the recorded receipts (of one title, or all) as a JSON document.
import * as vscode from 'vscode';
import { openResultDocument } from '../documents';
import type { Services } from '../services';
import { stringArg } from './args';

export async function exportDeletionJobs(s: Services, arg?: unknown): Promise<vscode.Uri | undefined> {
  const titleId = stringArg(arg, 'titleId');
  const jobs = titleId ? s.jobs.forTitle(titleId) : s.jobs.all();
  if (jobs.length === 0) {
    void s.prompts.info(titleId ? vscode.l10n.t('No deletion jobs are recorded for title {0}.', titleId) : vscode.l10n.t('No deletion jobs are recorded.'));
    return undefined;
  }
  const content = JSON.stringify(
    {
      exportedAt: new Date().toISOString(),
      deletionJobs: jobs.map((j) => ({
        JobReceiptId: j.jobReceiptId ?? null,
        PlatformId: j.platformId,
        TitleId: j.titleId,
        TitleName: j.titleName,
        RequestedAt: j.requestedAt,
        TitleIds: j.titleIds,
      })),
    },
    null,
    2,
  ) + '\n';
  return (await openResultDocument(content, 'json')).uri;
}
