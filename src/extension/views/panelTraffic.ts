// What the panels give their pages, seen by tests through the extension's test API. Its own
// module so the test API (at activation) does not load the panels (dist/panels.js, on first use).
import * as vscode from 'vscode';
import type { HostToPage, PanelKind } from '../../webview/protocol';

/** What a panel hands to its webview: the HTML once, then each message. */
export type PanelTraffic = { kind: PanelKind; titleId: string } & ({ html: string } | { message: HostToPage });
const observers = new Set<(t: PanelTraffic) => void>();

/** Lets tests (through the extension's test API) see everything the panels give their pages. */
export function observePanels(listener: (t: PanelTraffic) => void): vscode.Disposable {
  observers.add(listener);
  return new vscode.Disposable(() => observers.delete(listener));
}

/** Tells every observer what a panel gave its page. */
export function notePanelTraffic(t: PanelTraffic): void {
  for (const o of observers) o(t);
}
