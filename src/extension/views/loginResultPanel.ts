// The Login Result panel: shows a LoginWithLauncher result with its secrets masked. The
// host keeps the real result in memory for "Copy"; the page never sees a secret.
import * as vscode from 'vscode';
import type { LoginResult } from '../../core/api/types';
import type { CopyField, PageToHost } from '../../webview/protocol';
import { loginResultMessage, loginSecrets, redactedLoginJson } from './loginResultView';
import { openResultDocument } from '../documents';
import { BasePanel, type PanelHost } from './panel';

export interface ShowLoginResultArgs {
  titleId: string;
  titleName: string;
  result: LoginResult;
}

const COPY_NAMES: Record<CopyField, string> = {
  EntityToken: 'entity token',
  SessionTicket: 'session ticket',
};

class LoginResultPanel extends BasePanel {
  private args: ShowLoginResultArgs;

  static show(host: PanelHost, args: ShowLoginResultArgs): void {
    const open = BasePanel.existing('loginResult', args.titleId);
    if (open instanceof LoginResultPanel) {
      open.update(args);
      open.reveal();
      return;
    }
    new LoginResultPanel(host, args);
  }

  private constructor(host: PanelHost, args: ShowLoginResultArgs) {
    super(host, 'loginResult', args.titleId, vscode.l10n.t('Login: {0}', args.titleName));
    this.args = args;
    this.render(loginResultMessage(args));
  }

  private update(args: ShowLoginResultArgs): void {
    this.args = args;
    this.panel.title = vscode.l10n.t('Login: {0}', args.titleName);
    this.render(loginResultMessage(args));
  }

  protected override knownSecrets(): readonly string[] {
    return Object.values(loginSecrets(this.args.result));
  }

  protected override async onPageMessage(msg: Exclude<PageToHost, { type: 'ready' }>): Promise<void> {
    if (msg.type === 'copy') {
      // A click in the page makes it the active panel; a message from a panel in the background is no click.
      if (!this.panel.active) return;
      const secret = loginSecrets(this.args.result)[msg.field];
      if (secret === undefined) {
        void this.host.prompts.info(vscode.l10n.t('This login result has no {0} to copy.', msg.field));
        return;
      }
      await vscode.env.clipboard.writeText(secret);
      // In the panel's role=status line, which screen readers announce (a status-bar note is never read out).
      this.announce(vscode.l10n.t('Copied the {0} to the clipboard.', COPY_NAMES[msg.field]));
    } else if (msg.type === 'openJson') {
      // Named for what it holds ("Demo Racer (F71AC) Login result …json"), not Untitled-1 (issue 21 item 7).
      const { titleId, titleName: name } = this.args;
      await openResultDocument(redactedLoginJson(this.args.result), 'json', { what: vscode.l10n.t('Login result'), title: { titleId, name } }, { viewColumn: vscode.ViewColumn.Beside });
    }
  }
}

/** Opens (or reveals and updates) the Login Result panel of a title. */
export function showLoginResult(host: PanelHost, args: ShowLoginResultArgs): void {
  LoginResultPanel.show(host, args);
}
