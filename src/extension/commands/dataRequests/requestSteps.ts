// The later steps of a data request: Verify (erasures by AccountNotFound, exports by the service's
// player_data_exported event where events can be read), Record Export Link… (the download link
// pasted from the e-mail, taken like a password and never shown), Close with Evidence (the evidence
// pack, optionally with personal identifiers replaced by their hashes) and Open Evidence (its
// Markdown, after its SHA-256 chain is checked).
import * as vscode from 'vscode';
import {
  closeRequest, countOf, linkProblem, referenceWords, recordExportLink as recordLink, requestState, verifyEvidence, verifyRequest, withdrawRequest,
  type DataRequest, type EvidenceCheck, type VerifySummary,
} from '../../../core/requests';
import { shownReceiptId } from '../../../core/serviceText';
import { noteActivity } from '../../activity/recorder';
import { CommandError } from '../../errors';
import { ActionNode, awaitsLink, clip, requestFlags } from '../../dataRequests/view';
import type { CommandContext } from '../context';
import { parseRequestArgs, resolveRequest, type RequestArgs } from './requestArg';
import { stepServices, storeFor, withAnchorConsent } from './stepServices';
import { editorOperator, secretKeyStore } from './operatorKeys';
import { journalAnchors } from '../journals';
import { abortOn, nextStepWords } from './runDataRequest';
import { defineCommand } from '../define';

export async function verifyDataRequest(c: CommandContext, given: RequestArgs): Promise<VerifySummary & { request: DataRequest }> {
  const s = c.services;
  const { store, request } = await resolveRequest(c, given, {
    title: vscode.l10n.t('Verify which data request?'),
    can: (r) => requestFlags(r).verifiable,
    none: vscode.l10n.t('No data request has actions waiting for the service.'),
  });
  const result = await c.ui.progress(vscode.l10n.t('Verifying data request {0}…', clip(request.reference, 40)), async (_p, token) => {
    const ac = abortOn(token);
    try {
      return await withAnchorConsent(c, async (noAnchor) => verifyRequest(
        await storeFor(s, store, noAnchor), request.id, await stepServices(s, request.titles, { signal: ac.signal, noAnchor }),
      ));
    } finally {
      s.dataRequests.refresh();
    }
  });
  const erased = countOf(result.erased.length, 'erasure');
  const links = countOf(result.exported.length, 'export link');
  noteActivity(`${erased} and ${links} verified`, { summary: `Verify data request ${referenceWords(request.reference)}` });
  const message = vscode.l10n.t('Data request {0}: {1} verified (account not found, so deleted), {2} read from the service\'s events. Next: {3}.',
    clip(request.reference), erased, links, nextStepWords(result.request));
  if (result.errors.length > 0) {
    result.errors.forEach((e) => s.log.warn(`Data request ${request.id}: ${e}`));
    void c.ui.error(`${message} ${vscode.l10n.t('Not checked: {0}', clip(result.errors.join('; '), 300))}`);
  } else {
    void c.ui.info(message);
  }
  return result;
}

export async function recordExportLink(c: CommandContext, given: RequestArgs): Promise<DataRequest> {
  const s = c.services;
  const { store, request } = await resolveRequest(c, given, {
    title: vscode.l10n.t('Record the export link of which data request?'),
    can: (r) => requestFlags(r).awaitingLink,
    none: vscode.l10n.t('No data request has an export awaiting its download link.'),
  });
  const awaiting = request.actions.filter(awaitsLink);
  const fromNode = given.node instanceof ActionNode && awaitsLink(given.node.action) ? given.node.action : undefined;
  const action = fromNode ?? (awaiting.length === 1 ? awaiting[0] : awaiting.length === 0 ? undefined : (await c.ui.pick(
    awaiting.map((a) => ({ label: shownReceiptId(a.jobReceiptId), description: a.platformId, action: a })),
    { title: vscode.l10n.t('Which export? (its JobReceiptId is in the e-mail)') },
  )).action);
  if (!action?.jobReceiptId) throw new CommandError(vscode.l10n.t('No export of {0} is awaiting its download link.', clip(request.reference)));
  const receipt = action.jobReceiptId;
  const url = (await c.ui.input({
    title: vscode.l10n.t('Download link of export {0}', shownReceiptId(receipt)),
    prompt: vscode.l10n.t('Paste the link from the e-mail for JobReceiptId {0}. It leads to the person\'s data: it is kept in the request\'s folder only, never shown or put in the evidence.', shownReceiptId(receipt)),
    password: true,
    validateInput: (v) => linkProblem(v.trim()),
  })).trim();
  // Masked wherever the log or an error could repeat it.
  s.secrets.remember(url);
  let recorded: DataRequest;
  try {
    recorded = await recordLink(store, request.id, receipt, url);
  } finally {
    s.dataRequests.refresh();
  }
  // Said, and kept in Activity by its receipt (the link itself is never shown).
  noteActivity(vscode.l10n.t('export link kept'), { summary: `Record export link ${referenceWords(request.reference)}`, record: true });
  void c.ui.info(vscode.l10n.t('Export link of {0} kept for receipt {1} (in the request\'s folder only). Next: {2}.', clip(request.reference), shownReceiptId(receipt), nextStepWords(recorded)));
  return recorded;
}

export async function closeDataRequest(c: CommandContext, given: RequestArgs): Promise<{ request: DataRequest; evidence: vscode.Uri }> {
  const s = c.services;
  const { store, request } = await resolveRequest(c, given, {
    title: vscode.l10n.t('Close which data request?'),
    can: (r) => requestFlags(r).closable,
    none: vscode.l10n.t('No data request is completed: verify the queued ones first.'),
  });
  if (!requestFlags(request).closable) {
    throw new CommandError(vscode.l10n.t('Data request {0} is {1}, not completed, so it cannot be closed yet.', clip(request.reference), requestState(request)), vscode.l10n.t('Next: {0}.', nextStepWords(request)));
  }
  const KEEP = vscode.l10n.t('Keep the identifiers in the record');
  const HASH = vscode.l10n.t('Replace the identifiers by their hashes');
  const retention = await c.ui.pick([
    { label: KEEP, detail: vscode.l10n.t('The evidence names the person\'s identifiers and PlatformIds.') },
    { label: HASH, detail: vscode.l10n.t('Retention: PlatformIds, e-mails and names become HMAC hashes under the request\'s own key (pseudonymised) in the evidence and the request; the journals are removed. The chain still verifies.') },
  ], { title: vscode.l10n.t('Close {0} with evidence', clip(request.reference, 60)) });
  let closed: DataRequest;
  try {
    closed = (await withAnchorConsent(c, async (noAnchor) => closeRequest(
      await storeFor(s, store, noAnchor), request.id, await stepServices(s, request.titles, { noAnchor }), { hashIdentifiers: retention.label === HASH },
    ))).request;
    noteActivity(vscode.l10n.t('closed with evidence'), { summary: `Close data request ${referenceWords(request.reference)}` });
  } finally {
    s.dataRequests.refresh();
  }
  s.log.info(`Data request ${request.id} closed; evidence in ${store.folder(request.id)}`);
  const { uri } = await openEvidence(c, { requestId: request.id });
  return { request: closed, evidence: uri };
}

/** Withdraw Data Request…: the reason asked (not modal), then a modal; nothing more is sent, the evidence records it. */
export async function withdrawDataRequest(c: CommandContext, given: RequestArgs): Promise<DataRequest> {
  const s = c.services;
  const { store, request } = await resolveRequest(c, given, {
    title: vscode.l10n.t('Withdraw which data request?'),
    can: (r) => requestFlags(r).withdrawable,
    none: vscode.l10n.t('No open data request to withdraw.'),
  });
  const reason = (await c.ui.input({
    title: vscode.l10n.t('Withdraw data request {0}', clip(request.reference, 60)),
    prompt: vscode.l10n.t('Why is it withdrawn? (kept in the evidence; e.g. "the person called it off", "the identity check failed")'),
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim().length >= 1 && v.trim().length <= 500 ? undefined : vscode.l10n.t('Give the reason in 1 to 500 characters.')),
  })).trim();
  await c.ui.confirm(
    vscode.l10n.t('Withdraw data request {0}?', clip(request.reference)),
    vscode.l10n.t('Nothing more is sent for it; what was already sent stays recorded. Then close it to write the evidence, which records the withdrawal.'),
    vscode.l10n.t('Withdraw Request'),
  );
  try {
    const r = await withAnchorConsent(c, async (noAnchor) => withdrawRequest(await storeFor(s, store, noAnchor), request.id, reason));
    s.log.info(`Data request ${request.id} withdrawn`);
    void c.ui.info(vscode.l10n.t('Data request {0} withdrawn: nothing more is sent for it. Next: {1}.', clip(request.reference), nextStepWords(r)));
    return r;
  } finally {
    s.dataRequests.refresh();
  }
}

export async function openEvidence(c: CommandContext, given: RequestArgs): Promise<{ uri: vscode.Uri; check: EvidenceCheck }> {
  const { store, request } = await resolveRequest(c, given, {
    title: vscode.l10n.t('Open the evidence of which data request?'),
    can: (r) => r.closedAt !== undefined,
    none: vscode.l10n.t('No data request is closed yet: a request has evidence once it is closed.'),
  });
  if (request.closedAt === undefined) {
    throw new CommandError(vscode.l10n.t('Data request {0} is not closed, so it has no evidence yet.', clip(request.reference)), vscode.l10n.t('Next: {0}.', nextStepWords(request)));
  }
  const s = c.services;
  const check = await verifyEvidence(store, request.id, { operator: await editorOperator(s.ctx), keys: secretKeyStore(s.ctx.secrets), anchors: journalAnchors(s) });
  const uri = vscode.Uri.file(store.evidencePath(request.id, 'md'));
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: false });
  // A tab left open from before (the close, before a shred rewrote the file) may still show the old
  // text until the editor notices the change: what is shown is what was checked, so reload it now.
  const onDisk = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  if (!doc.isDirty && doc.getText() !== onDisk) await vscode.commands.executeCommand('workbench.action.files.revert');
  // Said where it is read out (a notification), not only in the status bar: the check is the point of opening it.
  if (check.ok) void c.ui.info(vscode.l10n.t('Evidence of {0} opened; its chain, signature and anchor were checked: all {1} entries hold.', clip(request.reference, 40), check.entries));
  else void c.ui.error(vscode.l10n.t('The evidence of {0} does not verify: {1}', clip(request.reference), clip(check.problems.join('; '), 300)));
  return { uri, check };
}

export const verifyDataRequestCommand = defineCommand({
  id: 'platformExplorer.verifyDataRequest',
  title: 'Verify Data Request',
  category: true,
  icon: 'check-all',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.dataRequests && viewItem =~ /\\bverifiable\\b/', group: 'inline@2' },
      { when: 'view == platformExplorer.dataRequests && viewItem =~ /\\bverifiable\\b/', group: '1_request@3' },
    ],
  },
  lazy: 'requests',
  operations: ['GetPlayedTitleList'],
  parse: parseRequestArgs,
  handler: verifyDataRequest,
});

export const recordExportLinkCommand = defineCommand({
  id: 'platformExplorer.recordExportLink',
  title: 'Record Export Link…',
  category: true,
  icon: 'link',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.dataRequests && viewItem =~ /\\bawaitingLink\\b/', group: 'inline@1' },
      { when: 'view == platformExplorer.dataRequests && viewItem =~ /\\bawaitingLink\\b/', group: '1_request@2' },
    ],
  },
  lazy: 'requests',
  parse: parseRequestArgs,
  handler: recordExportLink,
});

export const closeDataRequestCommand = defineCommand({
  id: 'platformExplorer.closeDataRequest',
  title: 'Close Data Request with Evidence',
  category: true,
  icon: 'archive',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.dataRequests && viewItem =~ /\\bclosable\\b/', group: 'inline@3' },
      { when: 'view == platformExplorer.dataRequests && viewItem =~ /\\bclosable\\b/', group: '1_request@4' },
    ],
  },
  lazy: 'requests',
  parse: parseRequestArgs,
  handler: closeDataRequest,
});

export const withdrawDataRequestCommand = defineCommand({
  id: 'platformExplorer.withdrawDataRequest',
  title: 'Withdraw Data Request…',
  category: true,
  icon: 'circle-slash',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.dataRequests && viewItem =~ /\\bwithdrawable\\b/', group: '2_withdraw@1' },
    ],
  },
  lazy: 'requests',
  parse: parseRequestArgs,
  handler: withdrawDataRequest,
});

export const openDataRequestEvidenceCommand = defineCommand({
  id: 'platformExplorer.openDataRequestEvidence',
  title: 'Open Data Request Evidence',
  category: true,
  icon: 'go-to-file',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.dataRequests && viewItem =~ /\\bhasEvidence\\b/', group: 'inline@4' },
      { when: 'view == platformExplorer.dataRequests && viewItem =~ /\\bhasEvidence\\b/', group: '1_request@5' },
    ],
  },
  lazy: 'requests',
  parse: parseRequestArgs,
  handler: openEvidence,
});
