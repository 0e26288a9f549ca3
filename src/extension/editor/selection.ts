// What the editor offers the commands: the PlatformId at the cursor or in the selection,
// and the IDs or names of a selection. The cursor check reads one line, never the whole
// file, so it stays cheap in huge logs.
import * as vscode from 'vscode';
import { isPlatformId, parseIdList, platformIdAt } from '../../core/ids';

export function platformIdInEditor(editor: vscode.TextEditor | undefined): string | undefined {
  if (!editor) return undefined;
  const sel = editor.selection;
  if (!sel.isEmpty) {
    if (sel.start.line !== sel.end.line) return undefined;
    const text = editor.document.getText(sel).trim();
    return isPlatformId(text) ? text : undefined;
  }
  const line = editor.document.lineAt(sel.active.line).text;
  return platformIdAt(line, sel.active.character)?.id;
}

/** The entries of a non-empty selection: one per line or comma-separated. */
export function idListInEditor(editor: vscode.TextEditor | undefined): string[] | undefined {
  if (!editor || editor.selection.isEmpty) return undefined;
  const entries = parseIdList(editor.document.getText(editor.selection));
  return entries.length > 0 ? entries : undefined;
}
