// The scripted prompt layer of the integration tests: answers questions from a script, in
// order, and records everything the extension showed.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Prompts, ProgressReporter } from '../../../src/extension/prompts';
import type { TestApi } from '../../../src/extension/testApi';

type Answer =
  | { kind: 'input'; value: string | undefined }
  | { kind: 'pick'; label: string | undefined }
  | { kind: 'pickMany'; labels: string[] | undefined }
  | { kind: 'confirm'; button: string | undefined }
  | { kind: 'file'; uri: vscode.Uri | undefined };

export interface RecordedInput {
  options: vscode.InputBoxOptions;
  /** What validateInput said about the scripted value (undefined: accepted). */
  validation: string | undefined;
}

/**
 * Answers prompts from a script, in order, and records everything shown. An input whose
 * scripted value fails the command's own validateInput is refused the way the input box
 * would refuse it: the user then gives up (undefined).
 */
export class ScriptedPrompts implements Prompts {
  private readonly script: Answer[] = [];
  readonly inputs: RecordedInput[] = [];
  readonly picks: { items: vscode.QuickPickItem[]; options: vscode.QuickPickOptions }[] = [];
  readonly confirms: { message: string; detail: string; buttons: string[] }[] = [];
  readonly infos: string[] = [];
  /** The buttons each info message offered, in step with `infos`. */
  readonly infoActions: string[][] = [];
  readonly errors: string[] = [];
  readonly statuses: string[] = [];
  readonly errorActions: string[][] = [];
  readonly progressTitles: string[] = [];
  /** Every progress message reported, in order. */
  readonly progressMessages: string[] = [];
  readonly unexpected: string[] = [];
  /** Cancel a progress notification once it has reported this many times. */
  cancelProgressAfterReports: number | undefined;
  /** Only reports of a notification whose title, or (a run's notification has none) message, matches count towards cancelProgressAfterReports. */
  cancelProgressIn: RegExp | undefined;
  /** Milliseconds each pick and input takes to answer, as a person thinking. */
  thinkMs = 0;

  typeIn(value: string | undefined): this {
    this.script.push({ kind: 'input', value });
    return this;
  }

  choose(label: string | undefined): this {
    this.script.push({ kind: 'pick', label });
    return this;
  }

  chooseMany(labels: string[] | undefined): this {
    this.script.push({ kind: 'pickMany', labels });
    return this;
  }

  openFileAnswer(uri: vscode.Uri | undefined): this {
    this.script.push({ kind: 'file', uri });
    return this;
  }

  press(button: string | undefined): this {
    this.script.push({ kind: 'confirm', button });
    return this;
  }

  get remaining(): number {
    return this.script.length;
  }

  private next<K extends Answer['kind']>(kind: K, what: string): Extract<Answer, { kind: K }> | undefined {
    const a = this.script.shift();
    if (!a || a.kind !== kind) {
      this.unexpected.push(`${kind} "${what}" (scripted: ${a ? a.kind : 'nothing'})`);
      return undefined;
    }
    return a as Extract<Answer, { kind: K }>;
  }

  async pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T | undefined> {
    this.picks.push({ items: [...items], options });
    if (this.thinkMs > 0) await new Promise((r) => setTimeout(r, this.thinkMs));
    const a = this.next('pick', options.title ?? '');
    if (a?.label === undefined) return undefined;
    const found = items.find((i) => i.label === a.label || i.description === a.label);
    if (!found) this.unexpected.push(`pick "${a.label}" is not among ${items.map((i) => i.label).join(', ')}`);
    return found;
  }

  async pickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T[] | undefined> {
    this.picks.push({ items: [...items], options });
    const a = this.next('pickMany', options.title ?? '');
    if (a?.labels === undefined) return undefined;
    const found = items.filter((i) => a.labels!.includes(i.label));
    if (found.length !== a.labels.length) this.unexpected.push(`pickMany ${a.labels.join(', ')}: some are not offered`);
    return found;
  }

  async input(options: vscode.InputBoxOptions): Promise<string | undefined> {
    if (this.thinkMs > 0) await new Promise((r) => setTimeout(r, this.thinkMs));
    const a = this.next('input', options.title ?? options.prompt ?? '');
    const value = a?.value;
    const raw = value === undefined || !options.validateInput ? undefined : await options.validateInput(value);
    const validation = raw === undefined || raw === null ? undefined : typeof raw === 'string' ? raw : raw.message;
    this.inputs.push({ options, validation });
    return validation ? undefined : value;
  }

  async openFile(options: vscode.OpenDialogOptions): Promise<vscode.Uri | undefined> {
    return this.next('file', options.openLabel ?? '')?.uri;
  }

  async confirm(message: string, detail: string, ...buttons: string[]): Promise<string | undefined> {
    this.confirms.push({ message, detail, buttons });
    const a = this.next('confirm', message);
    if (a?.button !== undefined && !buttons.includes(a.button)) this.unexpected.push(`button "${a.button}" is not offered`);
    return a?.button;
  }

  async info(message: string, ...actions: string[]): Promise<string | undefined> {
    this.infos.push(message);
    this.infoActions.push(actions);
    return undefined;
  }

  async error(message: string, ...actions: string[]): Promise<string | undefined> {
    this.errors.push(message);
    this.errorActions.push(actions);
    return undefined;
  }

  status(message: string): void {
    this.statuses.push(message);
  }

  async progress<R>(title: string, task: (p: ProgressReporter, t: vscode.CancellationToken) => Promise<R>): Promise<R> {
    this.progressTitles.push(title);
    const cts = new vscode.CancellationTokenSource();
    let reports = 0;
    try {
      return await task(
        {
          report: (value) => {
            if (value.message !== undefined) this.progressMessages.push(value.message);
            reports++;
            const counted = this.cancelProgressIn === undefined || this.cancelProgressIn.test(title) || (value.message !== undefined && this.cancelProgressIn.test(value.message));
            if (counted && this.cancelProgressAfterReports !== undefined && reports >= this.cancelProgressAfterReports) cts.cancel();
          },
        },
        cts.token,
      );
    } finally {
      cts.dispose();
    }
  }

  /** Every scripted answer was used, nothing unscripted was asked, no error was shown. */
  assertDone(): void {
    assert.deepEqual(this.unexpected, [], 'unscripted prompts');
    assert.equal(this.remaining, 0, 'scripted answers left unused');
    assert.deepEqual(this.errors, [], 'error messages shown');
  }
}

/** New scripted prompts, installed in the extension. */
export function script(api: TestApi): ScriptedPrompts {
  const p = new ScriptedPrompts();
  api.setPrompts(p);
  return p;
}
