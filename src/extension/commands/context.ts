// What each command call gets (as vscode-azuretools' IActionContext): the services, the prompt
// layer with dismissal turned into UserCancelled, and a token cancelled when the extension stops.
import * as vscode from 'vscode';
import { UserCancelled } from '../errors';
import type { ProgressReporter, Prompts } from '../prompts';
import type { RetryNotices } from '../retryNotices';
import type { Services } from '../services';

/** The prompt layer for commands: a dismissed question throws UserCancelled, so an answer is always there. */
export interface CommandUi {
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T>;
  pickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T[]>;
  input(options: vscode.InputBoxOptions): Promise<string>;
  openFile: (options: Parameters<Prompts['openFile']>[0]) => Promise<vscode.Uri>;
  confirm(message: string, detail: string, ...buttons: string[]): Promise<string>;
  info: Prompts['info'];
  error: Prompts['error'];
  status: Prompts['status'];
  progress: Prompts['progress'];
  /** The prompts as they are, for a question whose dismissal is itself an answer. */
  readonly optional: Prompts;
}

export interface CommandContext {
  readonly services: Services;
  readonly ui: CommandUi;
  /** Cancelled when the extension stops while the command runs. */
  readonly token: vscode.CancellationToken;
}

/**
 * The answer, or UserCancelled. A question that closed without an answer is said (the status bar
 * names it), so a cancel the user did not make is never silent.
 */
async function answered<T>(p: Prompts, question: string | undefined, value: Promise<T | undefined>): Promise<T> {
  const v = await value;
  if (v === undefined) {
    const q = (question ?? '').replace(/\s+/g, ' ').trim();
    p.status(q
      ? vscode.l10n.t('Cancelled: "{0}" closed without an answer; the command stopped there.', q.length > 80 ? `${q.slice(0, 80)}…` : q)
      : vscode.l10n.t('Cancelled: a question closed without an answer; the command stopped there.'));
    throw new UserCancelled();
  }
  return v;
}

/** Wraps `p` for one call (read per call, so prompts a test swapped in are the ones used). */
export function commandUi(p: Prompts, token: vscode.CancellationToken, notices?: RetryNotices): CommandUi {
  return {
    pick: (items, options) => answered(p, options.title ?? options.placeHolder, p.pick(items, options)),
    pickMany: (items, options) => answered(p, options.title ?? options.placeHolder, p.pickMany(items, options)),
    input: (options) => answered(p, options.title ?? options.prompt, p.input(options)),
    openFile: (options) => answered(p, options.title ?? options.openLabel, p.openFile(options)),
    confirm: (message, detail, ...buttons) => answered(p, message, p.confirm(message, detail, ...buttons)),
    info: (message, ...actions) => p.info(message, ...actions),
    error: (message, ...actions) => p.error(message, ...actions),
    status: (message) => p.status(message),
    // Cancel in the notification, or the extension stopping, cancels the task.
    progress: <R>(title: string, task: (progress: ProgressReporter, token: vscode.CancellationToken) => Promise<R>) => p.progress(title, (progress, userToken) => {
      const either = new vscode.CancellationTokenSource();
      const subs = [userToken, token].map((t) => t.onCancellationRequested(() => either.cancel()));
      if (userToken.isCancellationRequested || token.isCancellationRequested) either.cancel();
      const run = (): Promise<R> => task(progress, either.token);
      return (notices ? notices.during(progress, run) : run()).finally(() => {
        subs.forEach((d) => d.dispose());
        either.dispose();
      });
    }),
    optional: p,
  };
}
