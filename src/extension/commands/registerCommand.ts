// The one way commands are registered: each call gets its own context (services, prompts that
// throw on dismissal, a token); errors are caught, redacted, logged and shown with what to do
// and a "Show Log" action; a dismissed prompt or a cancelled request is silent.
import * as vscode from 'vscode';
import type { OperationName } from '../../core/api/operations';
import { declareOperations, recordActivity } from '../activity/recorder';
import type { CommandId } from '../commandIds';
import { isSilent } from '../errors';
import { reportFailure } from '../failures';
import type { Services } from '../services';
import { commandUi, type CommandContext } from './context';
import type { CommandHandler } from './define';

export type { CommandHandler } from './define';

/** `operations`: what the command sends, when it talks to the service (Activity's name for it; re-run only if all read). */
export function registerCommand(s: Services, id: CommandId, handler: CommandHandler, operations?: readonly OperationName[]): void {
  if (operations !== undefined) declareOperations(id, operations);
  const running = new Set<vscode.CancellationTokenSource>();
  s.ctx.subscriptions.push(
    { dispose: () => running.forEach((t) => t.cancel()) },
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      const cts = new vscode.CancellationTokenSource();
      running.add(cts);
      const c: CommandContext = { services: s, ui: commandUi(s.prompts, cts.token, s.retryNotices), token: cts.token };
      try {
        // Activity records the commands that talked to the service (activity/recorder.ts).
        return await recordActivity(s.activity, id, async () => handler(c, ...args));
      } catch (e) {
        if (isSilent(e)) {
          s.log.info(`${id}: cancelled`);
          return undefined;
        }
        reportFailure(s, id, e);
        return undefined;
      } finally {
        running.delete(cts);
        cts.dispose();
      }
    }),
  );
}
