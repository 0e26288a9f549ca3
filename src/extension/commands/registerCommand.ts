// The one way commands are registered: errors are caught, redacted, logged and shown with
// what to do and a "Show Log" action; a dismissed prompt or a cancelled request is silent.
import * as vscode from 'vscode';
import { recordActivity } from '../activity/recorder';
import type { CommandId } from '../commandIds';
import { describeFailure, isExpected, isSilent } from '../errors';
import type { Services } from '../services';

export type CommandHandler = (s: Services, ...args: unknown[]) => unknown;

export function registerCommand(s: Services, id: CommandId, handler: CommandHandler): void {
  s.ctx.subscriptions.push(
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        // Activity records the commands that talked to the service (activity/recorder.ts).
        return await recordActivity(s.activity, id, async () => handler(s, ...args));
      } catch (e) {
        if (isSilent(e)) {
          s.log.info(`${id}: cancelled`);
          return undefined;
        }
        const { message, hint } = describeFailure(e, s.secrets.known());
        s.log.error(`${id} failed: ${message}${hint ? ` ${hint}` : ''}`);
        if (!isExpected(e)) {
          s.log.error(`${id} failed: ${e instanceof Error && e.stack ? e.stack : String(e)}`);
        }
        // The same text is offered and compared.
        const SHOW_LOG = vscode.l10n.t('Show Log');
        void s.prompts.error(hint ? `${message} ${hint}` : message, SHOW_LOG).then((action) => {
          if (action === SHOW_LOG) {
            s.log.show();
          }
        });
        return undefined;
      }
    }),
  );
}
