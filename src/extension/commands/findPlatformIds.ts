// Find PlatformIds in This File: selects every PlatformId of the active document (one cursor
// each), so they can be copied, edited or run through a command together.
import * as vscode from 'vscode';
import { findPlatformIds as scan } from '../../core/ids';
import { CommandError } from '../errors';
import type { CommandContext } from './context';
import { defineCommand, noArguments } from './define';

/** More cursors than this make the editor sluggish and are no use to read. */
export const MAX_SELECTIONS = 10_000;

export interface FoundPlatformIds {
  /** Every PlatformId in the file, repeats included. */
  found: number;
  distinct: number;
  selected: number;
}

export async function findPlatformIds(c: CommandContext): Promise<FoundPlatformIds> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    throw new CommandError(vscode.l10n.t('No file is open in the editor.'), vscode.l10n.t('Open a file and run "Find PlatformIds in This File" again.'));
  }
  const doc = editor.document;
  const hits = scan(doc.getText());
  const distinct = new Set(hits.map((h) => h.id)).size;
  if (hits.length === 0) {
    void c.ui.info(vscode.l10n.t('No PlatformIds in this file.'));
    return { found: 0, distinct: 0, selected: 0 };
  }
  const shown = hits.slice(0, MAX_SELECTIONS);
  editor.selections = shown.map((h) => new vscode.Selection(doc.positionAt(h.index), doc.positionAt(h.index + h.id.length)));
  editor.revealRange(editor.selections[0]);
  void c.ui.info(
    shown.length < hits.length
      ? vscode.l10n.t('Selected the first {0} of {1} PlatformIds ({2} distinct).', shown.length, hits.length, distinct)
      : vscode.l10n.t('Selected {0} PlatformIds ({1} distinct).', hits.length, distinct),
  );
  return { found: hits.length, distinct, selected: shown.length };
}

export const findPlatformIdsCommand = defineCommand({
  id: 'platformExplorer.findPlatformIds',
  title: 'Find PlatformIds in This File',
  category: true,
  palette: 'editorIsOpen',
  menus: {
    'editor/context': [
      { group: 'platformExplorer@7' },
    ],
  },
  lazy: 'lookups',
  parse: noArguments,
  handler: findPlatformIds,
});
