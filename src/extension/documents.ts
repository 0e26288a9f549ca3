// Results open as read-only documents of our own scheme, each named with what it holds so that
// several results can be told apart in the tabs. They are never dirty: closing one (or VS Code)
// asks nothing; File > Save As… keeps a copy. The text lives in memory only while the document
// is open (and at most MAX_HELD results at once).
import * as vscode from 'vscode';
import { named } from './titles';

export interface ResultName {
  /** e.g. "Storefront lookup" */
  what: string;
  title?: { titleId: string; name: string };
  /** ConsoleLive lookups: the sandbox the IDs belong to. */
  sandbox?: string;
}

export const RESULT_SCHEME = 'platform-result';

/** "Demo Racer (F71AC) ConsoleLive lookup RETAIL 2026-11-23 02.37.14 UTC": no character a file name cannot hold. */
function resultDocumentName(n: ResultName, now = new Date()): string {
  const stamp = `${now.toISOString().slice(0, 19).replace('T', ' ').replace(/:/g, '.')} UTC`;
  const parts = [n.title && named(n.title), n.what, n.sandbox, stamp];
  return parts.filter(Boolean).join(' ').replace(/[\\/:*?"<>|\u0000-\u001f\u007f]/g, '_');
}

const MAX_HELD = 100;
/** URI string → text; insertion order is age. */
const held = new Map<string, string>();

/** The provider of result documents' text; registered once at activation. */
export function registerResultDocuments(): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, {
      provideTextDocumentContent: (uri) =>
        held.get(uri.toString()) ?? vscode.l10n.t('This result is no longer held. Run the command again to see it.'),
    }),
    vscode.workspace.onDidCloseTextDocument((d) => {
      if (d.uri.scheme === RESULT_SCHEME) held.delete(d.uri.toString());
    }),
  );
}

/** A URI of its own for `base`.`format`: a second result in the same second gets " (2)". */
function freshUri(base: string, format: string): vscode.Uri {
  const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
  for (let i = 1; ; i++) {
    const uri = vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${base}${i === 1 ? '' : ` (${i})`}.${format}` });
    if (!held.has(uri.toString()) && !open.has(uri.toString())) return uri;
  }
}

function hold(uri: vscode.Uri, content: string): void {
  held.set(uri.toString(), content);
  // Bounded: the oldest text goes first (an open document keeps what it already shows).
  for (const key of held.keys()) {
    if (held.size <= MAX_HELD) break;
    held.delete(key);
  }
}

const LANGUAGE = { json: 'json', csv: 'plaintext', md: 'markdown' } as const;

/** Opens `content` as a new result document; `preview` for one a click opens (the next click's replaces it). */
export async function openResultDocument(
  content: string, format: 'json' | 'csv' | 'md', name: ResultName, o: { viewColumn?: vscode.ViewColumn; preview?: boolean } = {},
): Promise<vscode.TextDocument> {
  let language: string = LANGUAGE[format];
  if (format === 'csv' && (await vscode.languages.getLanguages()).includes('csv')) {
    language = 'csv';
  }
  const uri = freshUri(resultDocumentName(name), format);
  hold(uri, content);
  let doc = await vscode.workspace.openTextDocument(uri);
  if (doc.languageId !== language) doc = await vscode.languages.setTextDocumentLanguage(doc, language);
  await vscode.window.showTextDocument(doc, { preview: o.preview === true, viewColumn: o.viewColumn });
  return doc;
}
