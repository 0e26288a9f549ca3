// The host side every panel shares: a locked-down webview, the ready handshake, one panel
// per title per kind, and cleanup on close.
import * as vscode from 'vscode';
import type { ErrorMessage, HostToPage, PageToHost, PanelKind, RenderMessage } from '../../webview/protocol';
import { isPageToHost } from '../../webview/protocol';
import { describeFailure, fixFor, type FixAction } from '../errors';
import { reportFailure, type FailureServices } from '../failures';
import { Disposable } from '../lifecycle';
import type { TitleStore } from '../titles';
import { newNonce, panelHtml } from './html';
import { notePanelTraffic } from './panelTraffic';

const openPanels = new Map<string, BasePanel>();

/** What a panel needs of the extension: its context, the titles (a removed title closes its panels), and the log and prompts its failures go through. */
export type PanelHost = FailureServices & { readonly ctx: vscode.ExtensionContext; readonly titles: Pick<TitleStore, 'get' | 'onDidChange'> };

function panelKey(kind: PanelKind, titleId: string): string {
  return `${kind}/${titleId}`;
}

export abstract class BasePanel extends Disposable {
  protected readonly panel: vscode.WebviewPanel;
  private readonly key: string;
  private readonly kind: PanelKind;
  private readonly titleId: string;
  /** The page only receives messages after its 'ready'; until then the host just remembers. */
  private pageReady = false;
  private lastRender: RenderMessage | undefined;
  /** The fixing action of the failure shown, run by the page's button. */
  private fix: FixAction | undefined;
  private lastError: ErrorMessage | undefined;

  /** The open panel of this kind for this title, if any. */
  protected static existing(kind: PanelKind, titleId: string): BasePanel | undefined {
    return openPanels.get(panelKey(kind, titleId));
  }

  protected constructor(protected readonly host: PanelHost, kind: PanelKind, titleId: string, title: string) {
    super();
    const ctx = host.ctx;
    this.key = panelKey(kind, titleId);
    this.kind = kind;
    this.titleId = titleId;
    const roots = [vscode.Uri.joinPath(ctx.extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(ctx.extensionUri, 'media')];
    // Registered first, so it is disposed last, after its listeners.
    this.panel = this._register(vscode.window.createWebviewPanel(`platformExplorer.${kind}`, title, vscode.ViewColumn.Active, {
      enableScripts: true,
      enableCommandUris: false,
      enableForms: false,
      localResourceRoots: roots,
      // The page restores itself from vscode.getState() and the host re-sends on 'ready'.
      retainContextWhenHidden: false,
    }));
    const webview = this.panel.webview;
    const html = panelHtml({
      cspSource: webview.cspSource,
      nonce: newNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(roots[0], `${kind}.js`)).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(roots[1], 'panel.css')).toString(),
      title,
    });
    webview.html = html;
    notePanelTraffic({ kind, titleId, html });
    this._register(webview.onDidReceiveMessage((m: unknown) => this.receive(m)));
    this._register(this.panel.onDidChangeViewState((e) => {
      // A hidden page is torn down; it says 'ready' again when shown.
      if (!e.webviewPanel.visible) this.pageReady = false;
    }));
    this._register(this.panel.onDidDispose(() => this.dispose()));
    // A removed title's panels close with it: they would show (and act for) a title that is gone.
    this._register(host.titles.onDidChange(() => { if (host.titles.get(titleId) === undefined) this.dispose(); }));
    openPanels.set(this.key, this);
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  protected render(msg: RenderMessage): void {
    this.lastRender = msg;
    this.lastError = undefined;
    this.fix = undefined;
    this.send(msg);
  }

  /**
   * Shows a failure in the panel (not as a toast), keeping any earlier view under it, with its
   * fixing action as a button (as a command's error offers it); logged as a command's failure is.
   */
  protected showError(e: unknown): void {
    const { message, hint } = describeFailure(e, [...this.host.secrets.known(), ...this.knownSecrets()]);
    this.host.log.error(`${this.kind} panel of ${this.titleId} failed: ${message}${hint ? ` ${hint}` : ''}`);
    this.fix = fixFor(e);
    this.lastError = { type: 'error', message: hint ? `${message}\n${hint}` : message, ...(this.fix ? { fix: this.fix.label } : {}) };
    this.send(this.lastError);
  }

  /** Logs the failure and shows it through the prompt layer with its fix and Show Log. */
  protected reportFailure(e: unknown): void {
    reportFailure(this.host, `${this.kind} panel of ${this.titleId}`, e, this.knownSecrets());
  }

  /** A confirmation read out by the page's live status line (not kept for a re-created page). */
  protected announce(message: string): void {
    this.send({ type: 'status', message });
  }

  /** Secrets this panel holds, masked out of any error text it shows. */
  protected knownSecrets(): readonly string[] {
    return [];
  }

  protected abstract onPageMessage(msg: Exclude<PageToHost, { type: 'ready' }>): Promise<void>;

  private send(msg: HostToPage): void {
    if (this.disposed || !this.pageReady) return;
    notePanelTraffic({ kind: this.kind, titleId: this.titleId, message: msg });
    void this.panel.webview.postMessage(msg);
  }

  private receive(m: unknown): void {
    if (!isPageToHost(m)) return;
    if (m.type === 'fix') {
      if (this.fix && this.lastError) void vscode.commands.executeCommand(this.fix.command, ...(this.fix.args ?? []));
      return;
    }
    if (m.type === 'ready') {
      this.pageReady = true;
      if (this.lastRender) this.send(this.lastRender);
      if (this.lastError !== undefined) this.send(this.lastError);
      return;
    }
    // Logged and shown with its fix, as a command's failure is.
    this.onPageMessage(m).catch((e: unknown) => this.reportFailure(e));
  }

  override dispose(): void {
    if (openPanels.get(this.key) === this) openPanels.delete(this.key);
    super.dispose();
  }
}
