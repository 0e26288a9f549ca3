// The host side every panel shares: a locked-down webview, the ready handshake, one panel
// per title per kind, and cleanup on close.
import * as vscode from 'vscode';
import type { HostToPage, PageToHost, PanelKind, RenderMessage } from '../../webview/protocol';
import { isPageToHost } from '../../webview/protocol';
import { describeFailure } from '../errors';
import { Disposable } from '../lifecycle';
import { newNonce, panelHtml } from './html';

const openPanels = new Map<string, BasePanel>();

/** What a panel hands to its webview: the HTML once, then each message. */
export type PanelTraffic = { kind: PanelKind; titleId: string } & ({ html: string } | { message: HostToPage });
const observers = new Set<(t: PanelTraffic) => void>();

/** Lets tests (through the extension's test API) see everything the panels give their pages. */
export function observePanels(listener: (t: PanelTraffic) => void): vscode.Disposable {
  observers.add(listener);
  return new vscode.Disposable(() => observers.delete(listener));
}

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
  private lastError: string | undefined;

  /** The open panel of this kind for this title, if any. */
  protected static existing(kind: PanelKind, titleId: string): BasePanel | undefined {
    return openPanels.get(panelKey(kind, titleId));
  }

  protected constructor(ctx: vscode.ExtensionContext, kind: PanelKind, titleId: string, title: string) {
    super();
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
    for (const o of observers) o({ kind, titleId, html });
    this._register(webview.onDidReceiveMessage((m: unknown) => this.receive(m)));
    this._register(this.panel.onDidChangeViewState((e) => {
      // A hidden page is torn down; it says 'ready' again when shown.
      if (!e.webviewPanel.visible) this.pageReady = false;
    }));
    this._register(this.panel.onDidDispose(() => this.dispose()));
    openPanels.set(this.key, this);
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  protected render(msg: RenderMessage): void {
    this.lastRender = msg;
    this.lastError = undefined;
    this.send(msg);
  }

  /** Shows a failure in the panel (not as a toast), keeping any earlier view under it. */
  protected showError(e: unknown): void {
    const { message, hint } = describeFailure(e, this.knownSecrets());
    this.lastError = hint ? `${message}\n${hint}` : message;
    this.send({ type: 'error', message: this.lastError });
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
    for (const o of observers) o({ kind: this.kind, titleId: this.titleId, message: msg });
    void this.panel.webview.postMessage(msg);
  }

  private receive(m: unknown): void {
    if (!isPageToHost(m)) return;
    if (m.type === 'ready') {
      this.pageReady = true;
      if (this.lastRender) this.send(this.lastRender);
      if (this.lastError !== undefined) this.send({ type: 'error', message: this.lastError });
      return;
    }
    this.onPageMessage(m).catch((e: unknown) => {
      const { message } = describeFailure(e, this.knownSecrets());
      void vscode.window.showErrorMessage(message);
    });
  }

  override dispose(): void {
    if (openPanels.get(this.key) === this) openPanels.delete(this.key);
    super.dispose();
  }
}
