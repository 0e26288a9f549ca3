// Every question the extension asks a user goes through this layer, so integration tests
// can answer them (via the test API) without patching vscode.window.
import * as vscode from 'vscode';

export interface ProgressReporter {
  report(value: { message?: string; increment?: number }): void;
}

export interface Prompts {
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T | undefined>;
  pickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T[] | undefined>;
  /** Set `password: true` for secrets; `validateInput` runs as the user types. */
  input(options: vscode.InputBoxOptions): Promise<string | undefined>;
  /** The open-file dialog, for one file; undefined when dismissed. */
  openFile(options: Omit<vscode.OpenDialogOptions, 'canSelectMany'>): Promise<vscode.Uri | undefined>;
  /** A modal warning; resolves to the chosen button, or undefined for Cancel/Escape. */
  confirm(message: string, detail: string, ...buttons: string[]): Promise<string | undefined>;
  info(message: string, ...actions: string[]): Promise<string | undefined>;
  error(message: string, ...actions: string[]): Promise<string | undefined>;
  /** A short-lived status-bar note (e.g. "Copied ..."). */
  status(message: string): void;
  /** A notification with progress and a Cancel button. */
  progress<R>(title: string, task: (progress: ProgressReporter, token: vscode.CancellationToken) => Promise<R>): Promise<R>;
}

export const windowPrompts: Prompts = {
  // No question of ours closes under the user: a click elsewhere (the walkthrough, an editor) leaves it open.
  async pick(items, options) {
    return vscode.window.showQuickPick(items, { ignoreFocusOut: true, ...options, canPickMany: false });
  },
  async pickMany(items, options) {
    return vscode.window.showQuickPick(items, { ignoreFocusOut: true, ...options, canPickMany: true });
  },
  async input(options) {
    return vscode.window.showInputBox({ ignoreFocusOut: true, ...options });
  },
  async openFile(options) {
    return (await vscode.window.showOpenDialog({ ...options, canSelectMany: false }))?.[0];
  },
  async confirm(message, detail, ...buttons) {
    return vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons);
  },
  async info(message, ...actions) {
    return vscode.window.showInformationMessage(message, ...actions);
  },
  async error(message, ...actions) {
    return vscode.window.showErrorMessage(message, ...actions);
  },
  status(message) {
    vscode.window.setStatusBarMessage(message, 3000);
  },
  async progress(title, task) {
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      (progress, token) => task(progress, token),
    );
  },
};
