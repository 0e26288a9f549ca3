// What a data request's core step needs from the editor: a client for each of the request's titles
// configured here with a key, the keys of its journals (taken from SecretStorage as every other
// command takes them), the deletion journals' anchors and the emulator's event feed. Loaded with
// the request commands (dist/requests.js), so the journal code stays out of the main bundle.
import type { PlatformClient } from '../../../core/api/client';
import { emulatorEventReader } from '../../../core/requests/events';
import type { EventReader, RequestServices } from '../../../core/requests/types';
import type { Services } from '../../services';
import { journalAnchors } from '../journals';
import { editorOperator, secretKeyStore } from './operatorKeys';

/**
 * The services for `titleIds` (`sender`: clients without automatic retries, for the paced runs;
 * the caller closes them with `close`).
 */
export async function stepServices(
  s: Pick<Services, 'ctx' | 'titles' | 'secrets' | 'clients'>,
  titleIds: readonly string[],
  o: { signal?: AbortSignal; sender?: boolean } = {},
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
    close: async () => {
      await Promise.allSettled(owned.map((c) => c.close()));
    },
  };
}
