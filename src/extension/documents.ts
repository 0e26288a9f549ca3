// Results opened as untitled documents (never saved anywhere by the extension).
import * as vscode from 'vscode';

export async function openResultDocument(content: string, format: 'json' | 'csv'): Promise<vscode.TextDocument> {
  let language = format === 'json' ? 'json' : 'plaintext';
  if (format === 'csv' && (await vscode.languages.getLanguages()).includes('csv')) {
    language = 'csv';
  }
  const doc = await vscode.workspace.openTextDocument({ language, content });
  await vscode.window.showTextDocument(doc, { preview: false });
  return doc;
}

/** One CSV field: quoted when needed, and a leading formula character neutralised for spreadsheets. */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}
