// Delete Master Player Accounts from List…: identifiers from a selection, a .txt/.csv file or the
// active document; the dry run opens first; then one modal and the count and title ID typed
// back; the batch runs from a journal on disk with progress and Cancel, and lands in the ledger.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { countOf } from '../../core/requests/words';
import { openResultDocument } from '../documents';
import { ledgerFromJournal } from '../../core/deletion/ledger';
import { allLinesHoldPlatformIds, readIdentifiers } from '../../core/deletion/input';
import { Journal, JOURNAL_VERSION } from '../../core/deletion/journal';
import { journalAnchors, journalKey, journalLedger, journalsDir } from './journals';
import { buildPlan, countByStatus, renderPlanText, toDelete } from '../../core/deletion/plan';
import { runBatch, type RunProgress, type RunResult } from '../../core/deletion/run';
import type { IdKind, Plan } from '../../core/deletion/types';
import { CommandError } from '../errors';
import { ProgressGate } from '../../core/progressGate';
import type { ProgressReporter } from '../prompts';
import { noteActivity } from '../activity/recorder';
import { listSource, parseListOrigin, type ListOrigin } from './listSource';
import { usableTitle } from './args';
import type { CommandContext } from './context';
import { named, type TitleRecord } from '../titles';
import { defineCommand } from './define';
import { parseTarget, stringMember } from './parse';

export interface BatchOutcome {
  batchId?: string;
  plan: Plan;
  /** The dry-run document shown before anything was sent. */
  dryRun: vscode.Uri;
  /** Where the list came from (selection, document, file or argument). */
  source: 'argument' | 'selection' | 'document' | 'file';
  result?: RunResult;
}

const KIND_LABELS: Record<IdKind, () => string> = {
  'platform-id': () => vscode.l10n.t('PlatformIds'),
  consolelive: () => vscode.l10n.t('ConsoleLive IDs'),
  storefront: () => vscode.l10n.t('Storefront names'),
};

/**
 * What a call names (`{ titleId, text, kind, sandbox, metaData }` from a test, a task or a link; a
 * title's node; an editor's or the explorer's Uri with its selection), read once at the entry; the rest is asked.
 */
export interface ListArgs {
  readonly titleId?: string;
  readonly kind?: string;
  readonly sandbox?: string;
  readonly metaData?: string;
  readonly origin: ListOrigin;
}

export function parseListArgs(raw: readonly unknown[]): ListArgs {
  const [titleId, text, kind, sandbox, metaData] = (['titleId', 'text', 'kind', 'sandbox', 'metaData'] as const).map((k) => stringMember(raw[0], k));
  return { titleId, kind, sandbox, metaData, origin: parseListOrigin(raw, text) };
}

async function chooseKind(c: CommandContext, given: ListArgs, text: string): Promise<{ kind: IdKind; sandbox?: string }> {
  let kind = given.kind as IdKind | undefined;
  if (kind === undefined && allLinesHoldPlatformIds(text)) kind = 'platform-id';
  if (kind === undefined) {
    kind = (await c.ui.pick((Object.keys(KIND_LABELS) as IdKind[]).map((k) => ({ label: KIND_LABELS[k](), idKind: k })), {
    title: vscode.l10n.t('What does the list hold?'),
  })).idKind;
  }
  if (!Object.prototype.hasOwnProperty.call(KIND_LABELS, kind)) throw new CommandError(vscode.l10n.t('The "kind" argument must be platform-id, consolelive or storefront.'));
  if (kind !== 'consolelive') return { kind };
  const sandbox = given.sandbox ?? (await c.ui.input({
  title: vscode.l10n.t('Sandbox of the ConsoleLive IDs'), value: 'RETAIL',
  validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter the sandbox name (case-sensitive).')),
})).trim();
  return { kind, sandbox };
}

/**
 * A run's progress message, said alone (its notification has no title, which VS Code would put
 * first): "3 of 14 sent · Deleting master player accounts", the changing number first and
 * counted on both sides over the players this run sends (a resumed batch: those left, not the
 * batch's total); only what few runs reach (failed, unknown, the throttle) follows.
 */
export function progressText(p: RunProgress, what: string): string {
  return [
    vscode.l10n.t('{0} of {1} sent', p.playersSent, p.toSend),
    what,
    ...(p.failed > 0 ? [vscode.l10n.t('{0} failed', p.failed)] : []),
    ...(p.unknown > 0 ? [vscode.l10n.t('{0} unknown (may or may not have been deleted)', p.unknown)] : []),
    ...(p.waiting ? [vscode.l10n.t('waiting on the service\'s throttle')] : []),
  ].join(' · ');
}

/**
 * Reports a run's progress once per change: at the gate's steps (core/progressGate.ts) and only
 * when the text differs from what was last said, since a screen reader announces each report.
 */
export function runReporter(progress: ProgressReporter, what: string): (p: RunProgress, state?: string) => void {
  const gate = new ProgressGate();
  let said: string | undefined;
  let reported = 0;
  return (p, state = '') => {
    if (!gate.due(p.playersSent, p.toSend, `${state}${p.waiting ? ' waiting' : ''}`)) return;
    const message = progressText(p, what);
    if (message === said) return;
    said = message;
    progress.report({ message, increment: p.toSend > 0 ? ((p.playersSent - reported) / p.toSend) * 100 : undefined });
    reported = p.playersSent;
  };
}

/** Runs (or resumes) a batch journal with progress and Cancel, keeping the ledger in step. */
export async function runJournal(c: CommandContext, title: TitleRecord, journal: Journal, resendUnknown: boolean): Promise<RunResult> {
  const s = c.services;
  const client = await s.clients.sender(title.titleId);
  let pending: NodeJS.Timeout | undefined;
  const sync = (): Promise<void> => s.jobs.upsert(ledgerFromJournal(journal.batch, journal.players(), { unsent: true }));
  try {
    // No title: the message says it, number first ("3 of 14 sent · Deleting master player accounts").
    return await c.ui.progress('', async (progress, token) => {
      const ac = new AbortController();
      token.onCancellationRequested(() => ac.abort());
      return runBatch(client, journal, {
        // A player the ledger shows queued is never sent again, even if the journal lost its record.
        resendUnknown, signal: ac.signal, ledger: s.jobs.all(),
        onProgress: runReporter(progress, vscode.l10n.t('Deleting master player accounts')),
        // The ledger follows the journal at most a few times a second.
        onOutcome: () => { pending ??= setTimeout(() => { pending = undefined; void sync(); }, 250); },
      });
    });
  } finally {
    clearTimeout(pending);
    await sync();
    await journal.close();
    await client.close();
    s.verifier.kick();
  }
}

/**
 * The confirmation of an irreversible run (a deletion batch, a data request's actions): the question
 * holds the counts; it is asked first in a step that is not modal, where `expected` (a count and a
 * name) is typed back, so the dry run stays readable and scrollable beside it; the modal with a
 * button naming the act comes last. Throws the user's cancel.
 */
export async function confirmTypedThenModal(c: CommandContext, o: { question: string; expected: string; prompt: string; detail: string; button: string }): Promise<void> {
  const norm = (v: string): string => v.trim().replace(/\s+/g, ' ').toUpperCase();
  await c.ui.input({
    title: o.question,
    prompt: o.prompt,
    ignoreFocusOut: true,
    validateInput: (v) => (norm(v) === norm(o.expected) ? undefined : vscode.l10n.t('Type {0} exactly to confirm.', o.expected)),
  });
  await c.ui.confirm(o.question, o.detail, o.button);
}

/** "Delete 30 master player accounts through Demo Racer (F71AC)? Not sent: 2 already queued, 1 invalid." */
function confirmQuestion(plan: Plan, title: TitleRecord): string {
  const counts = countByStatus(plan);
  const words: [number, string][] = [
    [counts['already-queued'], vscode.l10n.t('{0} already queued', counts['already-queued'])],
    [counts['already-deleted'], vscode.l10n.t('{0} already deleted', counts['already-deleted'])],
    [counts.unlinked, vscode.l10n.t('{0} unlinked', counts.unlinked)],
    [counts.duplicate, vscode.l10n.t('{0} duplicate', counts.duplicate)],
    [counts.invalid, vscode.l10n.t('{0} invalid', counts.invalid)],
    [counts.failed, vscode.l10n.t('{0} not checked', counts.failed)],
  ];
  const notSent = words.filter(([n]) => n > 0).map(([, w]) => w);
  const ask = vscode.l10n.t('Delete {0} through {1}?', countOf(toDelete(plan).length, 'master player account'), named(title));
  return notSent.length === 0 ? ask : `${ask} ${vscode.l10n.t('Not sent: {0}.', notSent.join(', '))}`;
}

/**
 * A batch's final summary and Activity note, counted over the whole batch (the journal's states).
 * A cancelled batch says how many were not sent (the tree shows them so) and offers Resume; a
 * resumed batch's summary says it replaces the earlier report, with the same base.
 */
export function reportBatch(c: CommandContext, title: TitleRecord, result: RunResult, resumed: boolean): void {
  const counts = vscode.l10n.t('{0} of {1} deletions queued, {2} failed, {3} unknown.', result.queued, result.total, result.failed, result.unknown);
  const summary = (resumed ? vscode.l10n.t('{0}: resumed batch, in all (this replaces the earlier report): {1}', named(title), counts) : `${named(title)}: ${counts}`)
    + (result.cancelled ? ` ${vscode.l10n.t('Cancelled before the rest were sent: {0} not sent, shown as "not sent" under Deletion Jobs; Resume sends them.', result.pending)}` : '');
  if (result.cancelled) noteActivity(vscode.l10n.t('cancelled ({0} of {1} queued)', result.queued, result.total), { cancelled: true });
  else noteActivity(vscode.l10n.t('{0} of {1} queued', result.queued, result.total));
  const RESUME = vscode.l10n.t('Resume');
  const actions = result.cancelled && result.pending > 0 ? [RESUME] : [];
  void (result.failed + result.unknown > 0 ? c.ui.error(summary, ...actions) : c.ui.info(summary, ...actions)).then((a) => {
    if (a === RESUME) void vscode.commands.executeCommand('platformExplorer.resumeDeletionBatches');
  });
}

export async function deleteFromList(c: CommandContext, given: ListArgs): Promise<BatchOutcome | undefined> {
  const s = c.services;
  const { title, client: planner } = await usableTitle(c, parseTarget([{ titleId: given.titleId }]));
  const source = await listSource(c.ui, given.origin);
  const { kind, sandbox } = await chooseKind(c, given, source.text);
  const lines = readIdentifiers(source.text, kind, { csv: source.csv, lineNumbers: source.lineNumbers });
  if (lines.length === 0) throw new CommandError(vscode.l10n.t('The list holds no identifiers.'), vscode.l10n.t('Put one identifier per line.'));
  const metaData = given.metaData ?? (await c.ui.input({
  title: vscode.l10n.t('Ticket reference'),
  prompt: vscode.l10n.t('Sent as MetaData with each deletion and kept in the ledger (optional)'),
  placeHolder: vscode.l10n.t('e.g. SUPPORT-1234'),
})).trim();

  const plan = await c.ui.progress(vscode.l10n.t('Checking {0} identifiers…', lines.length), async (progress, token) => {
    const ac = new AbortController();
    token.onCancellationRequested(() => ac.abort());
    const gate = new ProgressGate();
    return buildPlan(planner, {
      titleId: title.titleId, kind, sandbox, lines, ledger: [...s.jobs.all(), ...await journalLedger(s)], signal: ac.signal,
      onProgress: (done, total) => { if (gate.due(done, total)) progress.report({ message: vscode.l10n.t('{0} of {1} players checked', done, total) }); },
    });
  });
  const names = Object.fromEntries(s.titles.all().map((t) => [t.titleId, t.name]));
  // Named, so that its tab says what it is and its URI is never one a closed result still holds.
  const doc = await openResultDocument(renderPlanText(plan, names), 'md', { what: vscode.l10n.t('Deletion plan (dry run)'), title });

  const count = toDelete(plan).length;
  // Until something is sent, Activity calls it what it is (also when the question is dismissed).
  noteActivity(vscode.l10n.t('dry run'));
  if (count === 0) {
    void c.ui.info(vscode.l10n.t('{0}: nothing to delete; see the dry run for why.', named(title)));
    return { plan, dryRun: doc.uri, source: source.from };
  }
  const question = confirmQuestion(plan, title);
  const expected = `${count} ${title.titleId}`;
  await confirmTypedThenModal(c, {
    question, expected,
    prompt: vscode.l10n.t('Read the dry run, then type "{0}" (the number of accounts and the title ID) to confirm', expected),
    detail: vscode.l10n.t('The dry run lists them with the titles each wipes. This cannot be undone.'),
    button: vscode.l10n.t('Delete {0} Accounts', count),
  });

  const batchId = randomUUID();
  const journal = await Journal.open(join(journalsDir(s), `${batchId}.jsonl`), {
    key: journalKey(s),
    anchors: journalAnchors(s),
    create: {
      type: 'batch', version: JOURNAL_VERSION, batchId, titleId: title.titleId, kind, sandbox, createdAt: plan.createdAt, entries: plan.entries,
      ...(metaData ? { metaData } : {}),
    },
  });
  const result = await runJournal(c, title, journal, false);
  s.log.info(`Batch ${batchId} on ${title.titleId}: ${result.queued} of ${result.total} queued, ${result.failed} failed, ${result.unknown} unknown, ${result.throttled} throttled${result.cancelled ? ', cancelled' : ''}`);
  reportBatch(c, title, result, false);
  return { batchId, plan, dryRun: doc.uri, source: source.from, result };
}

export const deleteMasterPlayerAccountsFromListCommand = defineCommand({
  id: 'platformExplorer.deleteMasterPlayerAccountsFromList',
  title: 'Delete Master Player Accounts from List…',
  category: true,
  icon: 'trash',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bkeySet\\b/', group: '2_player@3' },
    ],
    'editor/context': [
      { when: 'editorHasSelection', group: 'platformExplorer@6' },
    ],
    'explorer/context': [
      { when: 'resourceExtname =~ /^\\.(txt|csv)$/', group: '7_modification@9' },
    ],
  },
  lazy: 'deletion',
  operations: ['DeleteMasterPlayerAccount'],
  parse: parseListArgs,
  handler: deleteFromList,
});
