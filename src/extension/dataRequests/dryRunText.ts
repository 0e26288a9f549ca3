// The dry run of a data request as a Markdown document: the accounts found (which identifier found
// each, in which title, the titles it played), the action per account and its state, what nothing
// found, what could not be looked up, and the titles skipped. Service and ticket text is escaped
// for Markdown; nothing here holds a key.
import * as vscode from 'vscode';
import { KIND_LABELS, type DryRun, type Identifier } from '../../core/requests';
import { md } from '../../core/requests/evidenceMarkdown';
import { escapeUnsafe } from '../../core/serviceText';
import { readableLocal } from '../../core/time';

// Text inert in Markdown (escaped, clipped), as the evidence writes it; identifiers as code spans, readable in the source.
const mdText = (s: string, max = 120): string => md(s, max);
const code = (s: string, max = 100): string => `\`${escapeUnsafe(s.length > max ? `${s.slice(0, max)}…` : s).replace(/`/g, "'")}\``;

/** Each action in plain words; the service's name follows in parentheses. */
const ACT_WORDS: Record<DryRun['accounts'][number]['actions'][number]['operation'], () => string> = {
  ExportMasterPlayerData: () => vscode.l10n.t('export of the person\'s data'),
  DeleteMasterPlayerAccount: () => vscode.l10n.t('erasure of the account'),
  DeleteMasterPlayerEventData: () => vscode.l10n.t('erasure of the account\'s events only (the account is kept)'),
};

const id = (x: Identifier): string => `${KIND_LABELS[x.kind]} ${code(x.value)}${x.sandbox ? ` (${mdText(x.sandbox, 20)})` : ''}`;

/** What a miss of this kind does not say (the service's documented matching), after the identifier. */
const why = (d: DryRun, x: Identifier): string => {
  const w = d.notFoundWhy.find((n) => n.kind === x.kind);
  return w === undefined ? '' : ` · ${mdText(w.why, 200)}`;
};

// eslint-disable-next-line complexity -- the dry-run document top to bottom, optional lines with ?: (counted as branches)
export function renderDryRun(d: DryRun, titleNames: Record<string, string>): string {
  const title = (t: string): string => (titleNames[t] ? `${mdText(titleNames[t], 40)} (${t})` : t);
  const lines = [
    `# ${vscode.l10n.t('Data request {0}: dry run', code(d.reference, 200))}`,
    '',
    `${vscode.l10n.t('Request {0} · state {1} · due {2}{3}', d.id, d.state, d.due, d.overdue ? ` · **${vscode.l10n.t('OVERDUE')}**` : '')}`,
    '',
    vscode.l10n.t('Nothing below has been sent except the lookups that found the accounts. Each action is sent once per master account, with the key of the first title that found it.'),
    '',
    ...(d.heldUntil !== undefined ? [`**${vscode.l10n.t('Erasures held until {0} (a hold of {1} days): they stay planned until then; exports are sent now.', readableLocal(d.heldUntil), d.holdDays ?? 0)}**`, ''] : []),
    `## ${vscode.l10n.t('Accounts acted on: {0}', d.accounts.length)}`,
    '',
  ];
  for (const a of d.accounts) {
    lines.push(`### ${code(a.platformId)}`, '');
    lines.push(`- ${vscode.l10n.t('Found by: {0}', a.identifiers.map(id).join(', ') || '—')}`);
    lines.push(`- ${vscode.l10n.t('Found in: {0}', a.foundIn.map(title).join(', ') || '—')}`);
    lines.push(`- ${vscode.l10n.t('Titles played (GetPlayedTitleList): {0}', a.titleIds.map(title).join(', ') || '—')}`);
    if (a.error) lines.push(`- ${vscode.l10n.t('Played titles unknown: {0}', mdText(a.error, 200))}`);
    for (const x of a.actions) {
      const what = `${ACT_WORDS[x.operation]()} (${x.operation})`;
      // Not sent yet: "planned", never "sent with …"; once sent, with which title's key.
      lines.push(x.status === 'planned' || x.status === 'waiting'
        ? `- ${what} · ${x.status === 'planned' ? vscode.l10n.t('planned, to be sent with the key of {0}', title(x.titleId)) : vscode.l10n.t('waiting for the export, then sent with the key of {0}', title(x.titleId))}`
        : `- ${what} · ${x.status} · ${vscode.l10n.t('sent with the key of {0}', title(x.titleId))}`);
    }
    lines.push('');
  }
  if (d.accounts.length === 0) lines.push(vscode.l10n.t('No account to act on.'), '');
  if (d.notFound.length > 0) lines.push(`## ${vscode.l10n.t('Found in no title')}`, '', ...d.notFound.map((x) => `- ${id(x)}${why(d, x)}`), '');
  if (d.unresolved.length > 0) {
    lines.push(`## ${vscode.l10n.t('Could not be looked up')}`, '', ...d.unresolved.map((u) => `- ${id(u.identifier)} · ${title(u.titleId)}: ${mdText(u.error, 200)}`), '');
  }
  if (d.gone.length > 0) lines.push(`## ${vscode.l10n.t('Already deleted (account not found)')}`, '', ...d.gone.map((p) => `- ${code(p)}`), '');
  if (d.titlesSkipped.length > 0) {
    lines.push(`## ${vscode.l10n.t('Titles not searched')}`, '', ...d.titlesSkipped.map((t) => `- ${title(t.titleId)}: ${mdText(t.reason, 200)}`), '');
  }
  if (d.lookupsSkipped.length > 0) {
    lines.push(`## ${vscode.l10n.t('Not looked up')}`, '', ...d.lookupsSkipped.map((s) => `- ${id(s.identifier)} · ${title(s.titleId)}: ${mdText(s.reason, 200)}`), '');
  }
  return `${lines.join('\n')}\n`;
}
