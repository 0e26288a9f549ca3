// What a data request's core step needs from the editor: a client for each of the request's titles
// configured here with a key, the keys of its journals (taken from SecretStorage as every other
// command takes them), the deletion journals' anchors and the emulator's event feed. Loaded with
// the request commands (dist/requests.js), so the journal code stays out of the main bundle.
import * as vscode from 'vscode';
import type { PlatformClient } from '../../../core/api/client';
import { JournalNoAnchor } from '../../../core/deletion/journal';
import { emulatorEventReader } from '../../../core/requests/events';
import { NoAnchorError, type RequestAuth } from '../../../core/requests/seal';
import type { RequestStore } from '../../../core/requests/store';
import type { EventReader, RequestServices } from '../../../core/requests/types';
import type { Services } from '../../services';
import type { CommandContext } from '../context';
import { journalAnchors } from '../journals';
import { editorOperator, secretKeyStore } from './operatorKeys';

/**
 * How the editor's store seals and checks request state files (core/requests/seal.ts): with the
 * titles' keys from SecretStorage, anchored with the deletion journals' anchors (global storage).
 */
export function requestAuth(s: Pick<Services, 'ctx' | 'secrets'>, noAnchor = false): RequestAuth {
  return { key: (titleId) => s.secrets.get(titleId), anchors: journalAnchors(s), ...(noAnchor ? { noAnchor: true } : {}) };
}

/** The store a step uses: `store` as opened, or one accepting a missing anchor once the user said so. */
export async function storeFor(s: Pick<Services, 'ctx' | 'secrets' | 'dataRequests'>, store: RequestStore, noAnchor: boolean): Promise<RequestStore> {
  return noAnchor ? s.dataRequests.store(requestAuth(s, true)) : store;
}

/**
 * Runs a step of a request; when its state file or a journal has no anchor here (another machine,
 * a restored copy, the command line's state folder), asks first in a modal naming the risk, then
 * runs it again accepting that (the command line's --no-anchor). Cancel sends nothing.
 */
export async function withAnchorConsent<T>(c: CommandContext, step: (noAnchor: boolean) => Promise<T>): Promise<T> {
  try {
    return await step(false);
  } catch (e) {
    if (!(e instanceof NoAnchorError) && !(e instanceof JournalNoAnchor)) throw e;
    await c.ui.confirm(
      vscode.l10n.t('Use this data request without its anchor?'),
      vscode.l10n.t('{0} If it is not the newest copy (an older copy restored, or one that went on elsewhere), what was sent since it was copied would be sent again.', e.message),
      vscode.l10n.t('Use Without Anchor'),
    );
    return step(true);
  }
}

/**
 * The services for `titleIds` (`sender`: clients without automatic retries, for the paced runs;
 * the caller closes them with `close`).
 */
export async function stepServices(
  s: Pick<Services, 'ctx' | 'titles' | 'secrets' | 'clients'>,
  titleIds: readonly string[],
  o: { signal?: AbortSignal; sender?: boolean; noAnchor?: boolean } = {},
): Promise<RequestServices & { close(): Promise<void> }> {
  const clients = new Map<string, PlatformClient>();
  const owned: PlatformClient[] = [];
  let events: EventReader | undefined;
  for (const titleId of titleIds) {
    const title = s.titles.get(titleId);
    if (!title || !(await s.secrets.has(titleId))) continue;
    const client = o.sender ? await s.clients.sender(titleId) : await s.clients.get(titleId);
    if (o.sender) owned.push(client);
    clients.set(title.titleId, client);
    if (title.endpointProfile === 'emulator' && title.emulatorEndpoint) events ??= emulatorEventReader(title.emulatorEndpoint, title.titleId);
  }
  return {
    client: (titleId) => clients.get(titleId.toUpperCase()),
    key: (titleId) => s.secrets.get(titleId),
    // A request's journals are anchored with the deletion journals' anchors (global storage).
    anchors: journalAnchors(s),
    // The operator named in the evidence and signing it, and the requests' pseudonymisation keys: SecretStorage.
    operator: await editorOperator(s.ctx),
    keys: secretKeyStore(s.ctx.secrets),
    ...(events ? { events } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.noAnchor === true ? { noAnchor: true } : {}),
    close: async () => {
      await Promise.allSettled(owned.map((c) => c.close()));
    },
  };
}
