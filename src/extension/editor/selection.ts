// What the editor offers the commands: the PlatformId at the cursor or in the selection,
// and the IDs or names of a selection. The cursor check reads one line, never the whole
// file, so it stays cheap in huge logs.
import * as vscode from 'vscode';
import { findPlatformIds, isPlatformId, parseIdList, PLATFORM_ID_REACH, platformIdAt } from '../../core/ids';

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

/** The non-empty selections (several after Find PlatformIds or with multiple cursors), in document order. */
function nonEmptySelections(editor: vscode.TextEditor): vscode.Selection[] {
  return editor.selections.filter((sel) => !sel.isEmpty).sort((a, b) => a.start.compareTo(b.start));
}

/** The entries of the non-empty selections: one per line or comma-separated. */
export function idListInEditor(editor: vscode.TextEditor | undefined): string[] | undefined {
  if (!editor) return undefined;
  const entries = nonEmptySelections(editor).flatMap((sel) => parseIdList(editor.document.getText(sel)));
  return entries.length > 0 ? entries : undefined;
}

/** The text of the non-empty selections, one after the other on lines of their own; '' when none. */
export function selectedText(editor: vscode.TextEditor): string {
  return nonEmptySelections(editor).map((sel) => editor.document.getText(sel)).join('\n');
}

/** selectedText's lines' numbers in the document (1-based), in the same order. */
export function selectedLineNumbers(editor: vscode.TextEditor): number[] {
  return nonEmptySelections(editor).flatMap((sel) => {
    const n = sel.end.line - sel.start.line + 1;
    return Array.from({ length: n }, (_, k) => sel.start.line + k + 1);
  });
}

/**
 * How much of the selections the context key's check reads: it runs on every selection change,
 * and a selection can be a whole multi-megabyte log (or 10,000 cursors after Find PlatformIds).
 */
const PEEK = { selections: 64, lines: 64, chars: 1024 };

/**
 * Whether the selections hold at least two PlatformIds, as entries (one per line or
 * comma-separated) or within text such as ticket lines. Reads at most PEEK: the first lines of
 * the first selections, the first characters of each line.
 */
export function selectionHasPlatformIds(editor: vscode.TextEditor | undefined): boolean {
  if (!editor) return false;
  let found = 0;
  const selections = editor.selections;
  for (let i = 0; i < selections.length && i < PEEK.selections; i++) {
    const sel = selections[i];
    if (sel.isEmpty) continue;
    const last = Math.min(sel.end.line, sel.start.line + PEEK.lines - 1);
    for (let line = sel.start.line; line <= last; line++) {
      const from = line === sel.start.line ? sel.start.character : 0;
      // One more character than kept tells a cut line: its last entry may be cut, so it is dropped.
      const to = line === sel.end.line ? Math.min(sel.end.character, from + PEEK.chars + 1) : from + PEEK.chars + 1;
      const text = editor.document.getText(new vscode.Range(line, from, line, to));
      // A cut line's last entry or word may be cut: it does not count.
      const cut = text.length > PEEK.chars;
      const entries = text.split(',');
      if (cut) entries.pop();
      const inText = findPlatformIds(text).filter((h) => !cut || h.index + h.id.length < PEEK.chars - 1).length;
      found += Math.max(entries.filter((e) => isPlatformId(e.trim())).length, inText);
      if (found >= 2) return true;
    }
  }
  return false;
}
