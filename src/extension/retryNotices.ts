// Retries said where the user looks (issue 17 item 8): in the progress notification of the
// command that waits, so it is seen and a screen reader announces it; where none is open, in a
// progress notification of its own that closes when the call ends. The log and the status bar
// keep them too.
import * as vscode from 'vscode';
import type { RetryNotice } from '../core/api/retryReport';
import type { ProgressReporter, Prompts } from './prompts';

export class RetryNotices {
  /** Progress notifications open now, newest last. */
  private readonly open: ProgressReporter[] = [];
  /** The notifications opened for a call's retries, by the call's `settled`. */
  private readonly own = new Map<Promise<void>, ProgressReporter>();

  constructor(private readonly prompts: () => Prompts) {}

  /** Runs a progress task with its reporter as the place retries are said while it runs. */
  async during<R>(progress: ProgressReporter, task: () => Promise<R>): Promise<R> {
    this.open.push(progress);
    try {
      return await task();
    } finally {
      this.open.splice(this.open.lastIndexOf(progress), 1);
    }
  }

  say(titleId: string, n: RetryNotice): void {
    const message = vscode.l10n.t('retrying (attempt {0} of {1})… {2}', n.attempt, n.of, n.reason);
    const where = this.open.at(-1) ?? this.own.get(n.settled);
    if (where !== undefined) {
      where.report({ message });
      return;
    }
    void this.prompts().progress(vscode.l10n.t('Platform: {0} on {1}', n.operation, titleId), (progress, token) => {
      this.own.set(n.settled, progress);
      progress.report({ message });
      // Closed when the call ends; Cancel only closes the notice (the command's own Cancel stops the call).
      return new Promise<void>((resolve) => {
        const sub = token.onCancellationRequested(() => resolve());
        void n.settled.finally(() => { sub.dispose(); resolve(); });
      }).finally(() => this.own.delete(n.settled));
    });
  }
}
