// Run Data Request…: the dry run first (the first time, the identifiers are looked up in every
// configured title with a key, paced), opened as a document; then, in the deletion batch's order
// (deleteFromList.ts confirmTypedThenModal), the number of accounts and the reference typed back in
// a step that is not modal, the dry run readable beside it, and last a modal whose button names the
// act ("Erase 2 Accounts"). What is sent is bound to the dry run shown (its confirm value). The
// actions go through the deletion journal (never sent twice, resumable); an erasure waits until its
// account's export has completed, and until the request's erasure hold ends.
import * as vscode from 'vscode';
import { dryRun, heldUntil, referenceWords, runActions, sentWords, type Action, type DataRequest, type DryRun, type RunSummary } from '../../../core/requests';
import type { ActionKind } from '../../../core/requests/types';
import { noteActivity } from '../../activity/recorder';
import { openResultDocument } from '../../documents';
import { renderDryRun } from '../../dataRequests/dryRunText';
import { clip, heldText, requestFlags } from '../../dataRequests/view';
import type { CommandContext } from '../context';
import { confirmTypedThenModal, runReporter } from '../deleteFromList';
import { confirmProductionTitle } from '../production';
import { parseRequestArgs, resolveRequest, type RequestArgs } from './requestArg';
import { stepServices, storeFor, withAnchorConsent } from './stepServices';
import { defineCommand } from '../define';

export interface RunOutcome {
  dryRun: DryRun;
  /** The dry-run document shown before anything was sent. */
  document: vscode.Uri;
  run?: RunSummary;
  request?: DataRequest;
}

/** The actions this run would send: not sent or failed, and erasures whose export has completed and whose hold has ended. */
export function readyActions(r: DataRequest, now = new Date()): Action[] {
  const exportDone = (pid: string): boolean => r.actions.every((x) => x.kind !== 'export' || x.platformId !== pid || x.status === 'completed');
  const held = heldUntil(r, now) !== undefined;
  return r.actions.filter((a) => (a.status === 'planned' || a.status === 'failed' || (a.status === 'waiting' && exportDone(a.platformId))) && !(held && a.kind !== 'export'));
}

/** The act, as a modal's button names it: "Export 1 Account", "Erase 2 Accounts", joined with "and". */
export function actButton(n: Record<Action['kind'], number>): string {
  const words: [number, string][] = [
    [n.export, n.export === 1 ? vscode.l10n.t('Export 1 Account') : vscode.l10n.t('Export {0} Accounts', n.export)],
    [n.events, n.events === 1 ? vscode.l10n.t('Erase the Events of 1 Account') : vscode.l10n.t('Erase the Events of {0} Accounts', n.events)],
    [n.erasure, n.erasure === 1 ? vscode.l10n.t('Erase 1 Account') : vscode.l10n.t('Erase {0} Accounts', n.erasure)],
  ];
  return words.filter(([k]) => k > 0).map(([, w]) => w).join(vscode.l10n.t(' and '));
}

/** An AbortController aborted when the command's progress is cancelled (or already was). */
export function abortOn(token: vscode.CancellationToken): AbortController {
  const ac = new AbortController();
  token.onCancellationRequested(() => ac.abort());
  if (token.isCancellationRequested) ac.abort();
  return ac;
}

/** What a data request's run is doing, said after its number ("1 of 2 sent · Erasing accounts for PRIV-0412"). */
const ACT_PROGRESS: Record<ActionKind, (reference: string) => string> = {
  export: (r) => vscode.l10n.t('Exporting the person\'s data for {0}', r),
  events: (r) => vscode.l10n.t('Erasing events only for {0}', r),
  erasure: (r) => vscode.l10n.t('Erasing accounts for {0}', r),
};

export async function runDataRequest(c: CommandContext, given: RequestArgs): Promise<RunOutcome> {
  const s = c.services;
  const { store, request } = await resolveRequest(c, given, {
    title: vscode.l10n.t('Run which data request?'),
    can: (r) => requestFlags(r).runnable,
    none: vscode.l10n.t('No data request has anything to run: create one with New Data Request…, or verify the ones whose actions are queued.'),
  });
  const titleCount = request.titles.length;
  const dry = await c.ui.progress(
    request.resolution === undefined ? vscode.l10n.t('Looking for the accounts of {0} in {1} titles…', clip(request.reference, 40), titleCount) : vscode.l10n.t('Reading data request {0}…', clip(request.reference, 40)),
    (_p, token) => withAnchorConsent(c, async (noAnchor) => {
      const ac = abortOn(token);
      const services = await stepServices(s, request.titles, { signal: ac.signal, noAnchor });
      return dryRun(await storeFor(s, store, noAnchor), request.id, services);
    }),
  );
  s.dataRequests.refresh();
  const names = Object.fromEntries(s.titles.all().map((t) => [t.titleId, t.name]));
  const doc = await openResultDocument(renderDryRun(dry, names), 'md', { what: vscode.l10n.t('Data request {0} dry run', clip(dry.reference, 40)) });
  // Activity names the run by its reference; until something is sent, it was a dry run only.
  noteActivity(vscode.l10n.t('dry run, nothing sent'), { summary: `Run data request ${referenceWords(dry.reference)}` });

  const current = await store.load(request.id);
  const ready = readyActions(current);
  if (ready.length === 0) {
    const held = heldUntil(current) !== undefined ? ` ${heldText(current)}` : '';
    void c.ui.info(`${vscode.l10n.t('Nothing to send for {0} now: {1}.', clip(dry.reference), nextStepWords(current))}${held}`);
    return { dryRun: dry, document: doc.uri, request: current };
  }
  const count = (kind: Action['kind']): number => ready.filter((a) => a.kind === kind).length;
  const waiting = current.actions.filter((a) => (a.status === 'waiting' || a.status === 'planned') && !ready.includes(a)).length;
  for (const titleId of new Set(ready.filter((a) => a.kind !== 'export').map((a) => a.titleId))) {
    const title = s.titles.get(titleId);
    if (title) await confirmProductionTitle(c, title);
  }
  const button = actButton({ export: count('export'), events: count('events'), erasure: count('erasure') });
  const typed = clip(`${dry.accounts.length} ${dry.reference}`, 220);
  // What runs is bound to the dry run shown: its confirm value goes with the run, and a request changed since sends nothing.
  await confirmTypedThenModal(c, {
    question: vscode.l10n.t('{0} for data request {1}?', button, clip(dry.reference)),
    expected: typed,
    prompt: vscode.l10n.t('Read the dry run, then type "{0}" (the number of accounts and the reference) to confirm', typed),
    detail: [
      vscode.l10n.t('Exports: {0} · events-only erasures: {1} · erasures: {2}, over {3} master accounts (the dry run lists them).', count('export'), count('events'), count('erasure'), dry.accounts.length),
      ...(waiting > 0 ? [vscode.l10n.t('{0} actions wait (for their account\'s export, or the erasure hold); run again then.', waiting)] : []),
      ...(count('erasure') + count('events') > 0 ? [vscode.l10n.t('Erasure cannot be undone.')] : []),
    ].join(' '),
    button,
  });

  // No title: the message says it, number first ("1 of 2 sent · Erasing accounts for PRIV-0412").
  const result = await c.ui.progress('', (progress, token) => withAnchorConsent(c, async (noAnchor) => {
    const ac = abortOn(token);
    const services = await stepServices(s, request.titles, { signal: ac.signal, sender: true, noAnchor });
    const reporters = new Map<ActionKind, ReturnType<typeof runReporter>>();
    try {
      return await runActions(await storeFor(s, store, noAnchor), request.id, services, {
        confirm: dry.confirm,
        onProgress: (kind, p) => {
          if (!reporters.has(kind)) reporters.set(kind, runReporter(progress, ACT_PROGRESS[kind](clip(dry.reference, 40))));
          reporters.get(kind)!(p);
        },
      });
    } finally {
      await services.close();
      s.dataRequests.refresh();
    }
  }));
  const sent = result.sent;
  s.log.info(`Data request ${request.id}: sent ${sent.export} exports, ${sent.events} events-only erasures, ${sent.erasure} erasures${result.cancelled ? ' (cancelled)' : ''}`);
  noteActivity(sentWords(sent), result.cancelled ? { cancelled: true } : undefined);
  const summary = vscode.l10n.t('Data request {0}: {1}. Next: {2}.', clip(dry.reference), sentWords(sent), nextStepWords(result.request));
  void (result.counts.failed + result.counts.unknown > 0 || result.cancelled ? c.ui.error(summary) : c.ui.info(summary));
  return { dryRun: dry, document: doc.uri, run: result, request: result.request };
}

/** The request's next step in the editor's words (the core's names the CLI's flags). */
export function nextStepWords(r: DataRequest): string {
  const f = requestFlags(r);
  if (f.closed) return vscode.l10n.t('nothing, it is closed');
  if (f.closable) return vscode.l10n.t('close it with evidence');
  if (f.runnable) return vscode.l10n.t('run it again to send the rest');
  if (f.awaitingLink) return vscode.l10n.t('wait for the export, then Verify (or Record Export Link… from the e-mail)');
  if (f.verifiable) return vscode.l10n.t('wait for the service, then Verify');
  return vscode.l10n.t('nothing to act on');
}

export const runDataRequestCommand = defineCommand({
  id: 'platformExplorer.runDataRequest',
  title: 'Run Data Request…',
  category: true,
  icon: 'play',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.dataRequests && viewItem =~ /\\brunnable\\b/', group: 'inline@1' },
      { when: 'view == platformExplorer.dataRequests && viewItem =~ /\\brunnable\\b/', group: '1_request@1' },
    ],
  },
  lazy: 'requests',
  operations: [
    'GetPlatformIDsFromStorefrontNames', 'GetPlatformIDsFromConsoleLiveIDs', 'GetUserAccountInfo', 'GetPlayedTitleList',
    'ExportMasterPlayerData', 'DeleteMasterPlayerAccount', 'DeleteMasterPlayerEventData',
  ],
  parse: parseRequestArgs,
  handler: runDataRequest,
});
