// Player IDs in files: context keys for the editor's context menu and a hover card with
// actions (the commands themselves live in ../commands).
import * as vscode from 'vscode';
import type { CommandId } from '../commandIds';
import { ContextKeys, setContext } from '../contextKeys';
import { RESULT_SCHEME } from '../documents';
import type { LedgerEntry } from '../../core/deletion/types';
import { TITLE_ID_RE } from '../../core/ids';
import { readableLocal } from '../../core/time';
import { platformIdAtPosition, platformIdInEditor, selectionHasPlatformIds } from './selection';

/** What the hover reads of the ledger. */
export interface HoverLedger { all(): readonly LedgerEntry[] }

/** Commands a hover card may run; nothing else is enabled in its markdown. */
const HOVER_COMMANDS = [
  'platformExplorer.deleteMasterPlayerAccount',
  'platformExplorer.showPlayedTitles',
  'platformExplorer.copyPlatformId',
] as const satisfies readonly CommandId[];

/** A markdown link that runs one of the hover's commands with `args`. */
function commandLink(label: string, id: (typeof HOVER_COMMANDS)[number], args: unknown[]): string {
  return `[${label}](command:${id}?${encodeURIComponent(JSON.stringify(args))})`;
}

export function registerEditorFeatures(ledger: HoverLedger): vscode.Disposable {
  const disposables: vscode.Disposable[] = [];
  let lastHasId: boolean | undefined;
  let lastHasList: boolean | undefined;
  let lastHasIds: boolean | undefined;

  const update = (editor: vscode.TextEditor | undefined): void => {
    const hasId = platformIdInEditor(editor) !== undefined;
    const hasList = editor !== undefined && !editor.selection.isEmpty;
    // Bounded: reads the first lines of the first selections only.
    const hasIds = selectionHasPlatformIds(editor);
    if (hasId !== lastHasId) {
      lastHasId = hasId;
      void setContext(ContextKeys.editorHasPlatformId, hasId);
    }
    if (hasList !== lastHasList) {
      lastHasList = hasList;
      void setContext(ContextKeys.editorHasIdList, hasList);
    }
    if (hasIds !== lastHasIds) {
      lastHasIds = hasIds;
      void setContext(ContextKeys.editorHasPlatformIds, hasIds);
    }
  };

  disposables.push(
    vscode.window.onDidChangeTextEditorSelection((e) => update(e.textEditor)),
    vscode.window.onDidChangeActiveTextEditor(update),
    vscode.languages.registerHoverProvider([{ scheme: 'file' }, { scheme: 'untitled' }, { scheme: RESULT_SCHEME }], { provideHover: (doc, pos) => provideHover(ledger, doc, pos) }),
  );
  update(vscode.window.activeTextEditor);
  return vscode.Disposable.from(...disposables);
}

/** "already deleted (ledger, verified …) in title X" lines for the deletions the ledger holds of `id`. */
/** A ledger's title ID as markdown may show it: hex, or not shown. */
const titleIdOf = (j: LedgerEntry): string => (TITLE_ID_RE.test(j.titleId) ? j.titleId : '?');

function ledgerLines(ledger: HoverLedger, id: string): string[] {
  const upper = id.toUpperCase();
  return ledger.all().filter((j) => j.platformId.toUpperCase() === upper && (j.state === 'verified-deleted' || j.state === 'queued')).map((j) => (
    j.state === 'verified-deleted'
      ? vscode.l10n.t('Already deleted in title {0} (ledger, verified {1})', titleIdOf(j), readableLocal(j.verifiedAt ?? j.requestedAt))
      : vscode.l10n.t('Deletion already queued in title {0} (ledger, requested {1})', titleIdOf(j), readableLocal(j.requestedAt))
  ));
}

function provideHover(ledger: HoverLedger, doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
  const hit = platformIdAtPosition(doc, pos);
  if (!hit) return undefined;
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = { enabledCommands: [...HOVER_COMMANDS] };
  // The ID is hex by construction (platformIdAt), so it is safe inside code and links.
  md.appendMarkdown(`**PlatformId** \`${hit.id}\`\n\n`);
  // Made of hex title IDs and readableLocal's digits and zone name only: safe as markdown.
  for (const line of ledgerLines(ledger, hit.id)) md.appendMarkdown(`${line}\n\n`);
  md.appendMarkdown(
    [
      commandLink(`$(list-unordered) ${vscode.l10n.t('Show Played Titles')}`, 'platformExplorer.showPlayedTitles', [{ platformId: hit.id }]),
      commandLink(`$(copy) ${vscode.l10n.t('Copy PlatformId')}`, 'platformExplorer.copyPlatformId', [{ platformId: hit.id }]),
      commandLink(`$(trash) ${vscode.l10n.t('Delete Master Player Account…')}`, 'platformExplorer.deleteMasterPlayerAccount', [{ platformId: hit.id }]),
    ].join(' · '),
  );
  return new vscode.Hover(md, hit.range);
}
