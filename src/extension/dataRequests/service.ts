// The editor's side of data requests (core/requests does the work): the store folder from the
// settings and the requests as last read (for the view and the pickers). What a step needs (clients,
// keys, anchors) is ../commands/dataRequests/stepServices.ts, loaded with the request commands.
import * as vscode from 'vscode';
import { isAbsolute, join } from 'node:path';
import { RequestStore } from '../../core/requests/store';
import type { DataRequest } from '../../core/requests/types';
import type { RequestAuth } from '../../core/requests/seal';
import { CommandError } from '../errors';
import { Disposable } from '../lifecycle';
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

  constructor(private readonly s: { ctx: vscode.ExtensionContext }) {
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

  /** The store; with `auth` (../commands/dataRequests/stepServices.ts requestAuth), one whose requests can be changed. */
  async store(auth?: RequestAuth): Promise<RequestStore> {
    return RequestStore.open(this.folder(), { label: vscode.l10n.t('The data requests folder (platformExplorer.dataRequests.folder)'), ...(auth !== undefined ? { auth } : {}) });
  }

  holdDays(): number {
    return readDataRequestSettings('').holdDays;
  }

  /** Of `titleIds`, those the user says allow non-unique display names (platformExplorer.dataRequests.nonUniqueDisplayNameTitles). */
  displayNamesNotUnique(titleIds: readonly string[]): string[] {
    const said = readDataRequestSettings('').displayNamesNotUnique;
    return titleIds.filter((t) => said.includes(t.toUpperCase()));
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
}
