// Run Data Request…: the dry run first (the first time, the identifiers are looked up in every
// configured title with a key, paced), opened as a document; then what this run sends, in a modal;
// erasures also need the number of accounts and the reference typed back, as a deletion batch
// needs its count and title ID. The actions go through the deletion journal (never sent twice,
// resumable); an erasure waits until its account's export has completed.
import * as vscode from 'vscode';
import { dryRun, referenceWords, runActions, sentWords, type Action, type DataRequest, type DryRun, type RunSummary } from '../../../core/requests';
import { ProgressGate } from '../../../core/progressGate';
import { noteActivity } from '../../activity/recorder';
import { openResultDocument } from '../../documents';
import { renderDryRun } from '../../dataRequests/dryRunText';
import { clip, requestFlags } from '../../dataRequests/view';
import type { CommandContext } from '../context';
import { progressText } from '../deleteFromList';
import { confirmProductionTitle } from '../production';
import { resolveRequest } from './requestArg';
import { stepServices } from './stepServices';

export interface RunOutcome {
  dryRun: DryRun;
  /** The dry-run document shown before anything was sent. */
  document: vscode.Uri;
  run?: RunSummary;
  request?: DataRequest;
}

/** The actions this run would send: not sent or failed, and erasures whose export has completed. */
export function readyActions(r: DataRequest): Action[] {
  const exportDone = (pid: string): boolean => r.actions.every((x) => x.kind !== 'export' || x.platformId !== pid || x.status === 'completed');
  return r.actions.filter((a) => a.status === 'planned' || a.status === 'failed' || (a.status === 'waiting' && exportDone(a.platformId)));
}

/** An AbortController aborted when the command's progress is cancelled (or already was). */
export function abortOn(token: vscode.CancellationToken): AbortController {
  const ac = new AbortController();
  token.onCancellationRequested(() => ac.abort());
  if (token.isCancellationRequested) ac.abort();
  return ac;
}

export async function runDataRequest(c: CommandContext, arg?: unknown): Promise<RunOutcome> {
  const s = c.services;
  const { store, request } = await resolveRequest(c, arg, {
    title: vscode.l10n.t('Run which data request?'),
    can: (r) => requestFlags(r).runnable,
    none: vscode.l10n.t('No data request has anything to run: create one with New Data Request…, or verify the ones whose actions are queued.'),
  });
  const titleCount = request.titles.length;
  const dry = await c.ui.progress(
    request.resolution === undefined ? vscode.l10n.t('Looking for the accounts of {0} in {1} titles…', clip(request.reference, 40), titleCount) : vscode.l10n.t('Reading data request {0}…', clip(request.reference, 40)),
    async (_p, token) => {
      const ac = abortOn(token);
      const services = await stepServices(s, request.titles, { signal: ac.signal });
      return dryRun(store, request.id, services);
    },
  );
  s.dataRequests.refresh();
  const names = Object.fromEntries(s.titles.all().map((t) => [t.titleId, t.name]));
  const doc = await openResultDocument(renderDryRun(dry, names), 'md', { what: vscode.l10n.t('Data request {0} dry run', clip(dry.reference, 40)) });
  // Activity names the run by its reference; until something is sent, it was a dry run only.
  noteActivity(vscode.l10n.t('dry run, nothing sent'), { summary: `Run data request ${referenceWords(dry.reference)}` });

  const current = await store.load(request.id);
  const ready = readyActions(current);
  if (ready.length === 0) {
    void c.ui.info(vscode.l10n.t('Nothing to send for {0} now: {1}.', clip(dry.reference), nextStepWords(current)));
    return { dryRun: dry, document: doc.uri, request: current };
  }
  const count = (kind: Action['kind']): number => ready.filter((a) => a.kind === kind).length;
  const waiting = current.actions.filter((a) => a.status === 'waiting' && !ready.includes(a)).length;
  await c.ui.confirm(
    vscode.l10n.t('Send {0} actions for data request {1}?', ready.length, clip(dry.reference)),
    [
      vscode.l10n.t('Exports: {0} · events-only erasures: {1} · erasures: {2}, over {3} master accounts (the dry run lists them).', count('export'), count('events'), count('erasure'), dry.confirm),
      ...(waiting > 0 ? [vscode.l10n.t('{0} erasures wait until their account\'s export has completed; run again then.', waiting)] : []),
      ...(count('erasure') + count('events') > 0 ? [vscode.l10n.t('Erasure cannot be undone.')] : []),
    ].join(' '),
    vscode.l10n.t('Send'),
  );
  if (count('erasure') > 0) {
    for (const titleId of new Set(ready.filter((a) => a.kind === 'erasure').map((a) => a.titleId))) {
      const title = s.titles.get(titleId);
      if (title) await confirmProductionTitle(c, title);
    }
    const expected = `${dry.confirm} ${dry.reference}`.replace(/\s+/g, ' ').toUpperCase();
    await c.ui.input({
      title: vscode.l10n.t('Confirm erasure'),
      prompt: vscode.l10n.t('Type "{0}" (the number of accounts and the reference) to confirm', clip(`${dry.confirm} ${dry.reference}`, 220)),
      validateInput: (v) => (v.trim().replace(/\s+/g, ' ').toUpperCase() === expected ? undefined : vscode.l10n.t('Type {0} exactly to confirm.', clip(`${dry.confirm} ${dry.reference}`, 220))),
    });
  }

  const result = await c.ui.progress(vscode.l10n.t('Sending the actions of data request {0}', clip(dry.reference, 40)), async (progress, token) => {
    const ac = abortOn(token);
    const services = await stepServices(s, request.titles, { signal: ac.signal, sender: true });
    const gate = new ProgressGate();
    try {
      return await runActions(store, request.id, services, {
        confirm: dry.confirm,
        onProgress: (kind, p) => {
          if (gate.due(p.sent, p.total, `${kind}${p.waiting ? ' waiting' : ''}`)) progress.report({ message: `${kind}: ${progressText(p)}` });
        },
      });
    } finally {
      await services.close();
      s.dataRequests.refresh();
    }
  });
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
