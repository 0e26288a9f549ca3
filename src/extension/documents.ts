// Results opened as untitled documents (never saved by the extension), each named with what
// they hold so that several results can be told apart in the tabs; Save puts them under that
// name in the first workspace folder (else the home folder).
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { named } from './titles';

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
  const parts = [n.title && named(n.title), n.what, n.sandbox, stamp];
  return parts.filter(Boolean).join(' ').replace(/[\\/:*?"<>|\u0000-\u001f\u007f]/g, '_');
}

/**
 * Where a result is saved on Ctrl+S: the first workspace folder, else the home folder. An untitled
 * document with a path saves there without a dialog, so the path must be a real folder (a bare
 * name would mean the file system's root).
 */
function saveFolder(): string {
  return (vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(homedir())).path;
}

/**
 * An empty untitled document named `base`.`format` in the save folder: a name of its own, never a
 * recycled Untitled-N that a closed result may still hold in this host, nor a file that exists.
 */
async function openNamedUntitled(base: string, format: string): Promise<vscode.TextDocument> {
  const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
  const folder = saveFolder().replace(/\/+$/, '');
  let lastError: unknown;
  for (let i = 1; i < 100; i++) {
    const uri = vscode.Uri.from({ scheme: 'untitled', path: `${folder}/${base}${i === 1 ? '' : ` (${i})`}.${format}` });
    if (open.has(uri.toString())) continue;
    try {
      return await vscode.workspace.openTextDocument(uri);
    } catch (e) {
      lastError = e; // "file already exists": the next name
    }
  }
  throw lastError instanceof Error ? lastError : new Error(`Could not open a result document named ${base}.`);
}

const LANGUAGE = { json: 'json', csv: 'plaintext', md: 'markdown' } as const;

export async function openResultDocument(
  content: string, format: 'json' | 'csv' | 'md', name: ResultName, viewColumn?: vscode.ViewColumn,
): Promise<vscode.TextDocument> {
  let language: string = LANGUAGE[format];
  if (format === 'csv' && (await vscode.languages.getLanguages()).includes('csv')) {
    language = 'csv';
  }
  const doc = await openNamedUntitled(resultDocumentName(name), format);
  const editor = await vscode.window.showTextDocument(doc, { preview: false, viewColumn });
  // CSV keeps its CRLF line ends (RFC 4180): an inserted text takes the document's.
  await editor.edit((b) => {
    b.insert(new vscode.Position(0, 0), content);
    b.setEndOfLine(content.includes('\r\n') ? vscode.EndOfLine.CRLF : vscode.EndOfLine.LF);
  });
  return doc.languageId === language ? doc : vscode.languages.setTextDocumentLanguage(doc, language);
}
