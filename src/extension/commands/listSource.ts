// Where Delete Master Player Accounts from List… reads its list, resolved the same way for every
// entry point: the palette (the active editor's selections, else its document), the editor's
// context menu (VS Code passes the document's URI: its selections, never the whole file), the
// explorer's context menu (the file and the explorer's selection: the file), a node of the Platform
// view (asks for a file: the editor behind the view is not what the user meant), or a test's text.
import * as vscode from 'vscode';
import { CommandError } from '../errors';
import type { CommandUi } from './context';
import { selectedLineNumbers, selectedText } from '../editor/selection';
import { isTreeNode } from '../tree/nodes';

export interface ListSource {
  text: string;
  csv: boolean;
  /** The document's line number of each line of `text`, when it is a selection (starts mid-file). */
  lineNumbers?: number[];
  /** Where the text came from, for the dry run and the tests. */
  from: 'argument' | 'selection' | 'document' | 'file';
}

const isCsv = (uri: vscode.Uri): boolean => uri.path.toLowerCase().endsWith('.csv');

/** The editor showing `uri` that the command came from: the active one. */
function editorOf(uri: vscode.Uri): vscode.TextEditor | undefined {
  const editor = vscode.window.activeTextEditor;
  return editor !== undefined && editor.document.uri.toString() === uri.toString() ? editor : undefined;
}

function fromEditor(editor: vscode.TextEditor, wholeWhenEmpty: boolean): ListSource | undefined {
  const selected = selectedText(editor);
  if (selected.trim().length > 0) {
    return { text: selected, csv: isCsv(editor.document.uri), lineNumbers: selectedLineNumbers(editor), from: 'selection' };
  }
  if (!wholeWhenEmpty) return undefined;
  const text = editor.document.getText();
  return text.trim().length > 0 ? { text, csv: isCsv(editor.document.uri), from: 'document' } : undefined;
}

async function readFile(uri: vscode.Uri): Promise<ListSource> {
  return { text: new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), csv: isCsv(uri), from: 'file' };
}

/** Where a call names its list, as parseListOrigin reads its first two arguments. */
export interface ListOrigin {
  /** The list itself, given as `{ text }` (a test, a task). */
  readonly text?: string;
  /** The document (the editor's context menu) or the file (the explorer's) the command was run on. */
  readonly uri?: vscode.Uri;
  /** The explorer's selection passed beside the clicked file (the editor's menu passes none). */
  readonly explorer?: readonly vscode.Uri[];
  /** Run from a node of the Platform view: the editor behind the view is not read. */
  readonly fromNode: boolean;
}

/** The ListOrigin of `[arg, second]` as VS Code (a Uri and the explorer's selection, a node) or a test (`{ text }`) passes them. */
export function parseListOrigin(raw: readonly unknown[], text: string | undefined): ListOrigin {
  const [arg, second] = raw;
  const uri = arg instanceof vscode.Uri ? arg : undefined;
  const explorer = uri && Array.isArray(second) && second.every((u) => u instanceof vscode.Uri) ? (second as vscode.Uri[]) : undefined;
  return { text, uri, explorer, fromNode: isTreeNode(arg) };
}

/** The list of one command call: the text its argument gave, else where the command was run from. */
export async function listSource(ui: Pick<CommandUi, 'openFile'>, o: ListOrigin): Promise<ListSource> {
  if (o.text !== undefined) return { text: o.text, csv: false, from: 'argument' };
  const arg = o.uri;
  if (arg !== undefined) {
    // The explorer passes the clicked file and every selected one: the clicked file is the list.
    const explorer = o.explorer !== undefined;
    if (o.explorer && o.explorer.length > 1) {
      throw new CommandError(vscode.l10n.t('Select one list file at a time.'), vscode.l10n.t('Each file is a batch of its own: run the command on one file.'));
    }
    const editor = explorer ? undefined : editorOf(arg);
    if (editor !== undefined) {
      // The editor's context menu: exactly what is selected (the menu shows only with a selection).
      const picked = fromEditor(editor, false);
      if (picked === undefined) throw new CommandError(vscode.l10n.t('Nothing is selected.'), vscode.l10n.t('Select the identifiers (one per line) and run the command again.'));
      return picked;
    }
    return readFile(arg);
  }
  const editor = vscode.window.activeTextEditor;
  // From a node of the Platform view, the active editor's selection is not what the user meant.
  if (editor !== undefined && !o.fromNode) {
    const picked = fromEditor(editor, true);
    if (picked !== undefined) return picked;
  }
  return readFile(await ui.openFile({ openLabel: vscode.l10n.t('Use This List'), filters: { [vscode.l10n.t('Identifier lists')]: ['txt', 'csv'] } }));
}
