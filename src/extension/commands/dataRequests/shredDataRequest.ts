// Shred Data Request Key: the editor's `request shred` (core/requests/evidenceSteps.ts shredRequest,
// the function the command line runs). Retention first if the request was closed keeping the
// identifiers, then its pseudonymisation key destroyed in SecretStorage: the hashes in its evidence
// and state file can no longer be linked to the person (anonymised); the evidence still verifies.
// A modal names the act and the request first; Cancel changes nothing.
import * as vscode from 'vscode';
import { referenceWords, shredRequest, type DataRequest } from '../../../core/requests';
import { noteActivity } from '../../activity/recorder';
import { CommandError } from '../../errors';
import { clip, requestFlags } from '../../dataRequests/view';
import type { CommandContext } from '../context';
import { editorOperator, secretKeyStore } from './operatorKeys';
import { parseRequestArgs, resolveRequest, type RequestArgs } from './requestArg';
import { storeFor, withAnchorConsent } from './stepServices';
import { defineCommand } from '../define';

export async function shredDataRequest(c: CommandContext, given: RequestArgs): Promise<DataRequest> {
  const s = c.services;
  const { store, request } = await resolveRequest(c, given, {
    title: vscode.l10n.t('Shred the key of which data request?'),
    can: (r) => requestFlags(r).shreddable,
    none: vscode.l10n.t('No closed data request has a key left to shred.'),
  });
  if (!requestFlags(request).shreddable) {
    throw new CommandError(request.shreddedAt !== undefined
      ? vscode.l10n.t('The key of data request {0} was already shredded.', clip(request.reference))
      : vscode.l10n.t('Data request {0} is not closed: close it with evidence first, then shred its key.', clip(request.reference)));
  }
  await c.ui.confirm(
    vscode.l10n.t('Shred the key of {0}?', clip(request.reference)),
    vscode.l10n.t('The identifiers in its evidence can no longer be linked to the person. Its identifiers are replaced by their hashes first if they are still in the record; the evidence still verifies. This cannot be undone.'),
    vscode.l10n.t('Shred Key'),
  );
  try {
    const r = await withAnchorConsent(c, async (noAnchor) => shredRequest(await storeFor(s, store, noAnchor), request.id, {
      operator: await editorOperator(s.ctx), keys: secretKeyStore(s.ctx.secrets),
    }));
    noteActivity(vscode.l10n.t('key shredded: identifiers anonymised'), { summary: `Shred data request key ${referenceWords(request.reference)}` });
    s.log.info(`Data request ${request.id}: its pseudonymisation key was shredded`);
    void c.ui.info(vscode.l10n.t('The key of {0} is shredded: the identifiers\' hashes in its evidence can no longer be linked to anyone (anonymised). The evidence still verifies.', clip(request.reference)));
    return r;
  } finally {
    s.dataRequests.refresh();
  }
}

export const shredDataRequestKeyCommand = defineCommand({
  id: 'platformExplorer.shredDataRequestKey',
  title: 'Shred Data Request Key',
  category: true,
  icon: 'trash',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.dataRequests && viewItem =~ /\\bshreddable\\b/', group: '2_withdraw@2' },
    ],
  },
  lazy: 'requests',
  parse: parseRequestArgs,
  handler: shredDataRequest,
});
