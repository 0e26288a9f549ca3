// The configured titles, persisted in globalState. Only public facts live here (ID, name,
// where requests go): never a key or token. Every write validates the whole new list
// first, so a failure leaves the stored titles as they were.
import * as vscode from 'vscode';
import { Disposable } from './lifecycle';
import { validateEndpointTemplate, isLoopbackHost } from '../core/api/endpoint';
import { validateTitleId } from '../core/ids';
import { CommandError } from './errors';

export type EndpointProfile = 'service' | 'emulator';

export interface TitleRecord {
  titleId: string;
  name: string;
  endpointProfile: EndpointProfile;
  /** Endpoint template of a local emulator (loopback only); only for the 'emulator' profile. */
  emulatorEndpoint?: string;
  /** Marked production: deletions also need the title ID typed (commands/production.ts). */
  production?: boolean;
}

/** How messages name a title: its name and title ID, e.g. "Demo Racer (F71AC)". */
export function named(t: Pick<TitleRecord, 'name' | 'titleId'>): string {
  return `${t.name} (${t.titleId})`;
}

const STATE_KEY = 'platformExplorer.titles';
const MAX_TITLE_NAME = 100;

export function validateTitleName(name: string): string | undefined {
  if (name.trim().length === 0) {
    return vscode.l10n.t('The display name is empty. Enter a name such as "Demo Racer".');
  }
  if (name.length > MAX_TITLE_NAME) {
    return vscode.l10n.t('The display name is longer than {0} characters. Shorten it.', MAX_TITLE_NAME);
  }
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    return vscode.l10n.t('The display name contains control characters. Remove them.');
  }
  return undefined;
}

/** Error text for an emulator endpoint template, or undefined when it is usable. */
export function validateEmulatorEndpoint(template: string): string | undefined {
  const problem = validateEndpointTemplate(template);
  if (problem) {
    return problem;
  }
  const host = new URL(template.replace('{titleId}', 'F00D')).hostname.replace(/^\[(.*)\]$/, '$1');
  return isLoopbackHost(host)
    ? undefined
    : vscode.l10n.t('The emulator endpoint "{0}" is not on this machine: use 127.0.0.1, ::1 or localhost, e.g. http://127.0.0.1:8080/{titleId}.', template);
}

function validateRecord(t: TitleRecord): string | undefined {
  const idProblem = validateTitleId(t.titleId);
  if (idProblem) {
    return idProblem;
  }
  const nameProblem = validateTitleName(t.name);
  if (nameProblem) {
    return nameProblem;
  }
  if (t.endpointProfile === 'emulator') {
    return t.emulatorEndpoint === undefined
      ? vscode.l10n.t('Title {0} uses the emulator profile but has no emulator endpoint.', t.titleId)
      : validateEmulatorEndpoint(t.emulatorEndpoint);
  }
  if (t.endpointProfile !== 'service') {
    return vscode.l10n.t('Title {0} has an unknown endpoint profile.', t.titleId);
  }
  return undefined;
}

/** A stored entry as a clean record, or undefined when it is not one (hand-edited or from an old version). */
function fromStored(v: unknown): TitleRecord | undefined {
  if (typeof v !== 'object' || v === null) {
    return undefined;
  }
  const o = v as Record<string, unknown>;
  const rec: TitleRecord = {
    titleId: String(o.titleId ?? ''),
    name: String(o.name ?? ''),
    endpointProfile: o.endpointProfile === 'emulator' ? 'emulator' : 'service',
    ...(o.endpointProfile === 'emulator' ? { emulatorEndpoint: String(o.emulatorEndpoint ?? '') } : {}),
    ...(o.production === true ? { production: true } : {}),
  };
  return validateRecord(rec) === undefined ? rec : undefined;
}

export class TitleStore extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: vscode.Memento) {
    super();
  }

  all(): TitleRecord[] {
    const raw = this.memento.get<unknown>(STATE_KEY);
    if (!Array.isArray(raw)) {
      return [];
    }
    return raw.map(fromStored).filter((t): t is TitleRecord => t !== undefined);
  }

  get(titleId: string): TitleRecord | undefined {
    const id = titleId.toUpperCase();
    return this.all().find((t) => t.titleId === id);
  }

  /** Adds a title, or replaces the one with the same ID. */
  async upsert(title: TitleRecord): Promise<TitleRecord> {
    const rec: TitleRecord = { ...title, titleId: title.titleId.toUpperCase(), name: title.name.trim() };
    if (rec.endpointProfile !== 'emulator') {
      delete rec.emulatorEndpoint;
    }
    if (rec.production !== true) {
      delete rec.production;
    }
    const problem = validateRecord(rec);
    if (problem) {
      throw new CommandError(problem);
    }
    const list = this.all();
    const i = list.findIndex((t) => t.titleId === rec.titleId);
    if (i >= 0) {
      list[i] = rec;
    } else {
      list.push(rec);
    }
    await this.write(list);
    return rec;
  }

  async rename(titleId: string, name: string): Promise<void> {
    await this.upsert({ ...this.existing(titleId), name });
  }

  async setProduction(titleId: string, production: boolean): Promise<TitleRecord> {
    return this.upsert({ ...this.existing(titleId), production });
  }

  private existing(titleId: string): TitleRecord {
    const t = this.get(titleId);
    if (!t) {
      throw new CommandError(vscode.l10n.t('Title {0} is not configured.', titleId), vscode.l10n.t('Add it with "Platform: Add Title".'));
    }
    return t;
  }

  async remove(titleId: string): Promise<boolean> {
    const id = titleId.toUpperCase();
    const list = this.all();
    const next = list.filter((t) => t.titleId !== id);
    if (next.length === list.length) {
      return false;
    }
    await this.write(next);
    return true;
  }

  private async write(list: TitleRecord[]): Promise<void> {
    await this.memento.update(STATE_KEY, list);
    this.changed.fire();
  }
}
