// Copy JobReceiptId of a Deletion Jobs entry (from the tree, or those of the selected jobs one per
// line; else pick one). Only receipts the Deletion Jobs store holds reach the clipboard: an
// argument from a task could be any text.
import * as vscode from 'vscode';
import { CommandError } from '../errors';
import { jobsOfNodes } from '../tree/jobNodes';
import type { CommandContext } from './context';
import { targetNodes } from './args';
import { defineCommand } from './define';
import { parseNodeOnly, stringMember, type Target } from './parse';
import { sayCopied } from './copied';

/** The view's node (with the selection beside it), or nothing (picked); the receipt the node carries. */
export interface ReceiptArgs {
  readonly target: Target;
  readonly jobReceiptId?: string;
}

/** A node of the Platform view or nothing (from a task or a link, any text could be passed: refused). */
export function parseReceiptArgs(raw: readonly unknown[]): ReceiptArgs {
  return { target: parseNodeOnly(raw), jobReceiptId: stringMember(raw[0], 'jobReceiptId') };
}

export async function copyJobReceiptId(c: CommandContext, a: ReceiptArgs): Promise<string> {
  const s = c.services;
  const selected = jobsOfNodes(targetNodes(c, a.target));
  if (selected.length > 1) {
    const receipts = [...new Set(selected.flatMap((j) => (j.jobReceiptId !== undefined ? [j.jobReceiptId] : [])))];
    if (receipts.length === 0) {
      throw new CommandError(vscode.l10n.t('The service returned no JobReceiptId for the selected deletions.'));
    }
    await vscode.env.clipboard.writeText(receipts.join('\n'));
    sayCopied(c, vscode.l10n.t('Copied {0} JobReceiptIds', receipts.length));
    return receipts.join('\n');
  }
  let receipt = a.jobReceiptId;
  if (receipt && !s.jobs.all().some((j) => j.jobReceiptId === receipt)) {
    throw new CommandError(vscode.l10n.t('That JobReceiptId is not among the deletion jobs recorded on this machine; nothing was copied.'));
  }
  if (!receipt) {
    const jobs = s.jobs.all().filter((j) => j.jobReceiptId !== undefined);
    if (jobs.length === 0) {
      throw new CommandError(
        a.target.node !== undefined && 'job' in a.target.node
          ? vscode.l10n.t('The service returned no JobReceiptId for this deletion.')
          : vscode.l10n.t('No deletion jobs with a JobReceiptId are recorded on this machine.'),
      );
    }
    receipt = (await c.ui.pick(
      jobs.map((j) => ({ label: j.jobReceiptId!, description: `${j.platformId} · ${j.titleId}`, detail: j.requestedAt })),
      { title: vscode.l10n.t('Copy which JobReceiptId?') },
    )).label;
  }
  await vscode.env.clipboard.writeText(receipt);
  sayCopied(c, vscode.l10n.t('Copied JobReceiptId {0}', receipt));
  return receipt;
}

export const copyJobReceiptIdCommand = defineCommand({
  id: 'platformExplorer.copyJobReceiptId',
  title: 'Copy JobReceiptId',
  category: true,
  icon: 'copy',
  palette: 'false',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bhasReceipt\\b/', group: 'inline@1' },
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bhasReceipt\\b/', group: '1_job@1' },
    ],
  },
  parse: parseReceiptArgs,
  handler: copyJobReceiptId,
});
