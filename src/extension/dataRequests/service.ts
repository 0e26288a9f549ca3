// The editor's side of data requests (core/requests does the work): the store folder from the
// settings, the requests as last read (for the view and the pickers), and per step the clients
// and keys of the configured titles, taken from SecretStorage as every other command takes them.
import * as vscode from 'vscode';
import { isAbsolute, join } from 'node:path';
import type { PlatformClient } from '../../core/api/client';
import { emulatorEventReader } from '../../core/requests/events';
import { RequestStore } from '../../core/requests/store';
import type { DataRequest, EventReader, RequestServices } from '../../core/requests/types';
import { journalAnchors } from '../commands/journals';
import { CommandError } from '../errors';
import { Disposable } from '../lifecycle';
import type { Clients } from '../clients';
import type { SecretKeys } from '../secrets';
import type { TitleStore } from '../titles';
import { readDataRequestSettings } from '../settings';

export interface RequestList {
  folder: string;
  requests: DataRequest[];
  /** Request folders that could not be read, with why (shown in the view, never dropped silently). */
  problems: string[];
}

export class DataRequests extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  /** Fires when a request was created or changed here, or the folder setting changed. */
  readonly onDidChange = this.changed.event;
  private last: RequestList | undefined;
  private reading: Promise<RequestList> | undefined;

  constructor(private readonly s: { ctx: vscode.ExtensionContext; titles: TitleStore; secrets: SecretKeys; clients: Clients }) {
    super();
    this._register(vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('platformExplorer.dataRequests')) this.refresh();
    }));
  }

  /** The store folder: the setting (absolute, or starting with ~/), else data-requests in the extension's global storage. */
  folder(): string {
    const { folder } = readDataRequestSettings(join(this.s.ctx.globalStorageUri.fsPath, 'data-requests'));
    const home = process.env.HOME ?? process.env.USERPROFILE;
    const expanded = folder.startsWith('~/') && home ? `${home}${folder.slice(1)}` : folder;
    if (!isAbsolute(expanded)) {
      throw new CommandError(
        vscode.l10n.t('The setting platformExplorer.dataRequests.folder ("{0}") is not an absolute path.', folder.slice(0, 200)),
        vscode.l10n.t('Set it to a full path such as /home/you/audit/data-requests in your user settings, or clear it to use the extension\'s storage.'),
        { label: vscode.l10n.t('Open Settings'), command: 'workbench.action.openSettings', args: ['platformExplorer.dataRequests.folder'] },
      );
    }
    return expanded;
  }

  dueDays(): number {
    return readDataRequestSettings('').dueDays;
  }

  async store(): Promise<RequestStore> {
    return RequestStore.open(this.folder(), { label: vscode.l10n.t('The data requests folder (platformExplorer.dataRequests.folder)') });
  }

  /** Reads every request again (one read at a time; callers during a read share it). */
  list(): Promise<RequestList> {
    this.reading ??= (async () => {
      try {
        const store = await this.store();
        const { requests, problems } = await store.list();
        return (this.last = { folder: store.dir, requests, problems });
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }

  /** The requests as last read (empty before the first read). */
  get current(): RequestList | undefined {
    return this.last;
  }

  refresh(): void {
    this.changed.fire();
  }

  /**
   * What a core step needs: a client for each of the request's titles configured here with a key
   * (`sender`: clients without automatic retries, for the paced runs; the caller closes them),
   * the key for its journals, and the emulator's event feed for titles that run on one.
   */
  async services(titleIds: readonly string[], o: { signal?: AbortSignal; sender?: boolean } = {}): Promise<RequestServices & { close(): Promise<void> }> {
    const clients = new Map<string, PlatformClient>();
    const owned: PlatformClient[] = [];
    let events: EventReader | undefined;
    for (const titleId of titleIds) {
      const title = this.s.titles.get(titleId);
      if (!title || !(await this.s.secrets.has(titleId))) continue;
      const client = o.sender ? await this.s.clients.sender(titleId) : await this.s.clients.get(titleId);
      if (o.sender) owned.push(client);
      clients.set(title.titleId, client);
      if (title.endpointProfile === 'emulator' && title.emulatorEndpoint) events ??= emulatorEventReader(title.emulatorEndpoint, title.titleId);
    }
    return {
      client: (titleId) => clients.get(titleId.toUpperCase()),
      key: (titleId) => this.s.secrets.get(titleId),
      // A request's journals are anchored with the deletion journals' anchors (global storage).
      anchors: journalAnchors(this.s),
      ...(events ? { events } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
      close: async () => {
        await Promise.allSettled(owned.map((c) => c.close()));
      },
    };
  }
}
