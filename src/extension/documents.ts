// Results opened as untitled documents (never saved anywhere by the extension), each named with
// what they hold so that several results can be told apart in the tabs.
import * as vscode from 'vscode';

export interface ResultName {
  /** e.g. "Storefront lookup" */
  what: string;
  title?: { titleId: string; name: string };
  /** ConsoleLive lookups: the sandbox the IDs belong to. */
  sandbox?: string;
}

/** "Demo Racer (F71AC) ConsoleLive lookup RETAIL 2026-11-23 02.37.14 UTC": no character a file name cannot hold. */
export function resultDocumentName(n: ResultName, now = new Date()): string {
  const stamp = `${now.toISOString().slice(0, 19).replace('T', ' ').replace(/:/g, '.')} UTC`;
  const parts = [n.title && `${n.title.name} (${n.title.titleId})`, n.what, n.sandbox, stamp];
  return parts.filter(Boolean).join(' ').replace(/[\\/:*?"<>|\u0000-\u001f\u007f]/g, '_');
}

const LANGUAGE = { json: 'json', csv: 'plaintext', md: 'markdown' } as const;

export async function openResultDocument(content: string, format: 'json' | 'csv' | 'md', name: ResultName): Promise<vscode.TextDocument> {
  let language: string = LANGUAGE[format];
  if (format === 'csv' && (await vscode.languages.getLanguages()).includes('csv')) {
    language = 'csv';
  }
  // A name of its own, never a recycled Untitled-N that a closed result may still hold in this host.
  const base = resultDocumentName(name);
  const taken = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
  let uri = vscode.Uri.from({ scheme: 'untitled', path: `${base}.${format}` });
  for (let i = 2; taken.has(uri.toString()) && i < 100; i++) {
    uri = vscode.Uri.from({ scheme: 'untitled', path: `${base} (${i}).${format}` });
  }
  const doc = await vscode.workspace.openTextDocument(uri);
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  // CSV keeps its CRLF line ends (RFC 4180): an inserted text takes the document's.
  await editor.edit((b) => {
    b.insert(new vscode.Position(0, 0), content);
    b.setEndOfLine(content.includes('\r\n') ? vscode.EndOfLine.CRLF : vscode.EndOfLine.LF);
  });
  return doc.languageId === language ? doc : vscode.languages.setTextDocumentLanguage(doc, language);
}
