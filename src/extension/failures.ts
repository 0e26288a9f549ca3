// How a failure reaches the user, for commands and panels alike: redacted, logged (with the stack
// when unexpected), and shown through the prompt layer with its fixing action first and Show Log.
import * as vscode from 'vscode';
import { describeFailure, fixFor, isExpected } from './errors';
import type { Services } from './services';

export type FailureServices = Pick<Services, 'log' | 'secrets' | 'prompts'>;

/** `where` names what failed in the log ("platformExplorer.x", "HandheldStore panel of F71AC"). */
export function reportFailure(s: FailureServices, where: string, e: unknown, moreSecrets: readonly string[] = []): void {
  const { message, hint } = describeFailure(e, [...s.secrets.known(), ...moreSecrets]);
  s.log.error(`${where} failed: ${message}${hint ? ` ${hint}` : ''}`);
  if (!isExpected(e)) {
    s.log.error(`${where} failed: ${e instanceof Error && e.stack ? e.stack : String(e)}`);
  }
  // The same text is offered and compared; the fixing action, where one fits, comes first.
  const SHOW_LOG = vscode.l10n.t('Show Log');
  const fix = fixFor(e);
  const actions = fix ? [fix.label, SHOW_LOG] : [SHOW_LOG];
  void s.prompts.error(hint ? `${message} ${hint}` : message, ...actions).then((action) => {
    if (action === SHOW_LOG) {
      s.log.show();
    } else if (fix && action === fix.label) {
      void vscode.commands.executeCommand(fix.command, ...(fix.args ?? []));
    }
  });
}
