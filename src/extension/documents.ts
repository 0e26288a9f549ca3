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
