// Runs a command's declaration (parse, then handler: as registration does) in plain Node: the
// real stores (titles, secret keys over SecretStorage, the active title, the clients and their
// HTTP to a local emulator), the real prompt layer (CommandUi: a dismissed question is
// UserCancelled) over scripted answers, and the vscode double for the rest.
import type * as vscode from 'vscode';
import { ActiveTitle } from '../../../src/extension/activeTitle';
import { AddonStates } from '../../../src/extension/addonStates';
import { Clients } from '../../../src/extension/clients';
import { registerResultDocuments } from '../../../src/extension/documents';
import type { AnyCommandDefinition, Invocation } from '../../../src/extension/commands/define';
import { commandUi, type CommandContext } from '../../../src/extension/commands/context';
import type { Log } from '../../../src/extension/log';
import type { ProgressReporter, Prompts } from '../../../src/extension/prompts';
import { DeletionJobStore } from '../../../src/extension/jobs';
import { SecretKeys } from '../../../src/extension/secrets';
import type { Services } from '../../../src/extension/services';
import { TitleStore, type TitleRecord } from '../../../src/extension/titles';
import type { TreeNode } from '../../../src/extension/tree/nodes';
import { CancellationTokenSource, MementoDouble, SecretStorageDouble } from './vscodeDouble';

/** One scripted answer: a value, or undefined for a question dismissed (Escape). */
export type Answer = unknown;

/** Prompts that answer from a script, in order, and record every question and message. */
export class ScriptedPrompts implements Prompts {
  readonly asked: { kind: 'pick' | 'pickMany' | 'input' | 'openFile' | 'confirm'; question: string }[] = [];
  readonly infos: string[] = [];
  readonly errors: string[] = [];
  readonly statuses: string[] = [];
  readonly progressTitles: string[] = [];
  /** What an input's validateInput said of the answer given, per input. */
  readonly validation: (string | undefined)[] = [];
  constructor(private readonly answers: Answer[] = []) {}

  private next<T>(kind: ScriptedPrompts['asked'][number]['kind'], question: string | undefined): T | undefined {
    this.asked.push({ kind, question: question ?? '' });
    if (this.answers.length === 0) throw new Error(`unexpected ${kind}: "${question}" (no answer scripted)`);
    return this.answers.shift() as T | undefined;
  }
  /** Every scripted answer was used. */
  get done(): boolean {
    return this.answers.length === 0;
  }
  async pick<T extends vscode.QuickPickItem>(items: readonly T[], o: vscode.QuickPickOptions): Promise<T | undefined> {
    const a = this.next<string>('pick', o.title ?? o.placeHolder);
    return a === undefined ? undefined : items.find((i) => i.label === a) ?? (() => { throw new Error(`no item "${a}" among ${items.map((i) => i.label).join(', ')}`); })();
  }
  async pickMany<T extends vscode.QuickPickItem>(items: readonly T[], o: vscode.QuickPickOptions): Promise<T[] | undefined> {
    const a = this.next<string[]>('pickMany', o.title ?? o.placeHolder);
    return a === undefined ? undefined : items.filter((i) => a.includes(i.label));
  }
  async input(o: vscode.InputBoxOptions): Promise<string | undefined> {
    const a = this.next<string>('input', o.title ?? o.prompt);
    if (a !== undefined && o.validateInput) this.validation.push((await o.validateInput(a)) as string | undefined);
    return a;
  }
  async openFile(o: Omit<vscode.OpenDialogOptions, 'canSelectMany'>): Promise<vscode.Uri | undefined> {
    return this.next<vscode.Uri>('openFile', o.title ?? o.openLabel);
  }
  async confirm(message: string): Promise<string | undefined> {
    return this.next<string>('confirm', message);
  }
  async info(message: string): Promise<string | undefined> {
    this.infos.push(message);
    return undefined;
  }
  async error(message: string): Promise<string | undefined> {
    this.errors.push(message);
    return undefined;
  }
  status(message: string): void {
    this.statuses.push(message);
  }
  async progress<R>(title: string, task: (p: ProgressReporter, t: vscode.CancellationToken) => Promise<R>): Promise<R> {
    this.progressTitles.push(title);
    return task({ report: () => undefined }, new CancellationTokenSource().token as unknown as vscode.CancellationToken);
  }
}

const quietLog = { request: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Log;

/** The parts of Services the commands under test use, built for real over the doubles. */
export interface Harness {
  readonly services: Services;
  readonly titles: TitleStore;
  readonly secrets: SecretKeys;
  readonly addonStates: AddonStates;
  /** The Titles view's selection (what `c.services.tree.view.selection` reads). */
  selection: TreeNode[];
  /** Runs the declaration as registration does: parse(raw, at), then the handler with a fresh context. */
  run(d: AnyCommandDefinition, raw: unknown[], answers?: Answer[], at?: Partial<Invocation>): Promise<{ result: unknown; prompts: ScriptedPrompts }>;
}

export async function harness(titles: readonly TitleRecord[] = [], keys: Readonly<Record<string, string>> = {}): Promise<Harness> {
  // The result documents' text provider, as activation registers it.
  registerResultDocuments();
  const memento = new MementoDouble();
  const store = new TitleStore(memento);
  for (const t of titles) await store.upsert(t);
  const secrets = new SecretKeys(new SecretStorageDouble());
  for (const [titleId, key] of Object.entries(keys)) await secrets.set(titleId, key);
  const clients = new Clients(store, secrets, quietLog, () => true);
  const addonStates = new AddonStates((titleId) => { const t = store.get(titleId); return t ? clients.endpointFor(t) : undefined; });
  const h: Harness = {
    titles: store,
    secrets,
    addonStates,
    selection: [],
    services: undefined as unknown as Services,
    async run(d, raw, answers = [], at = {}) {
      const prompts = new ScriptedPrompts(answers);
      const cts = new CancellationTokenSource();
      const c: CommandContext = { services: h.services, ui: commandUi(prompts, cts.token as unknown as vscode.CancellationToken), token: cts.token as unknown as vscode.CancellationToken };
      const invocation: Invocation = { inView: false, viewSelection: [], ...at };
      const result = await d.handler(c, d.parse(raw, invocation));
      return { result, prompts };
    },
  };
  // Only what these commands read; a command reaching for more fails with a TypeError naming it.
  const services: Partial<Services> = {
    titles: store,
    activeTitle: new ActiveTitle(memento, store),
    secrets,
    clients,
    addonStates,
    jobs: new DeletionJobStore(memento),
    tree: { get view() { return { selection: h.selection }; } } as unknown as Services['tree'],
    log: quietLog,
  };
  (h as { services: Services }).services = services as Services;
  return h;
}
