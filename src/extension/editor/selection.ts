// What the editor offers the commands: the PlatformId at the cursor or in the selection,
// and the IDs or names of a selection. The cursor check reads one line, never the whole
// file, so it stays cheap in huge logs.
import * as vscode from 'vscode';
import { isPlatformId, parseIdList, PLATFORM_ID_REACH, platformIdAt } from '../../core/ids';

/**
 * The PlatformId at `pos`, read from a few characters around it (never the whole line: a line
 * of a log can be megabytes). One more than platformIdAt's reach, which then never hits the edge.
 */
export function platformIdAtPosition(doc: vscode.TextDocument, pos: vscode.Position): { id: string; range: vscode.Range } | undefined {
  const window = PLATFORM_ID_REACH + 1;
  const from = Math.max(0, pos.character - window);
  const text = doc.getText(new vscode.Range(pos.line, from, pos.line, pos.character + window));
  const hit = platformIdAt(text, pos.character - from);
  return hit && { id: hit.id, range: new vscode.Range(pos.line, from + hit.start, pos.line, from + hit.end) };
}

export function platformIdInEditor(editor: vscode.TextEditor | undefined): string | undefined {
  if (!editor) return undefined;
  const sel = editor.selection;
  if (!sel.isEmpty) {
    if (sel.start.line !== sel.end.line) return undefined;
    // A selection longer than an ID with its surrounding spaces is not one: read no more of it.
    if (sel.end.character - sel.start.character > 64) return undefined;
    const text = editor.document.getText(sel).trim();
    return isPlatformId(text) ? text : undefined;
  }
  return platformIdAtPosition(editor.document, sel.active)?.id;
}

/** The entries of a non-empty selection: one per line or comma-separated. */
export function idListInEditor(editor: vscode.TextEditor | undefined): string[] | undefined {
  if (!editor || editor.selection.isEmpty) return undefined;
  const entries = parseIdList(editor.document.getText(editor.selection));
  return entries.length > 0 ? entries : undefined;
}
