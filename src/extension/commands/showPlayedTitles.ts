// Show Played Titles: the titles GetPlayedTitleList reports for a PlatformId (an info message), or
// for several (a selection of PlatformIds, or `{ platformIds: [...] }`): each distinct valid one
// checked, a few at a time, under a cancellable progress, into a JSON or CSV result document.
import * as vscode from 'vscode';
import { toCsv } from '../../core/csv';
import { isPlatformId, validatePlatformId } from '../../core/ids';
import { MAX_MESSAGE, redactText } from '../../core/redact';
import { checkPlayedTitles, type PlayedTitlesCheck } from '../../core/playedTitles';
import { shownTitleId } from '../../core/serviceText';
import { openResultDocument } from '../documents';
import { idListInEditor, selectedLineNumbers, selectedText } from '../editor/selection';
import { readIdentifiers } from '../../core/deletion/input';
import { readSettings } from '../settings';
import { named, type TitleRecord } from '../titles';
import { usableTitle } from './args';
import type { CommandContext } from './context';
import { NOT_LOOKED_UP, runCancellable } from './lookup';
import { editorFor, givenOrEditorPlatformId, parsePlayerArgs, type PlayerArgs } from './platformIdArg';
import { defineCommand, type Invocation } from './define';
import { stringListMember, stringMember } from './parse';

export type PlayedStatus = 'found' | 'account not found' | 'invalid' | 'failed' | typeof NOT_LOOKED_UP;

export interface PlayedRow {
  /** Upper case when valid; as given when invalid. */
  platformId: string;
  status: PlayedStatus;
  titleIds?: string[];
  /** Why: the format rule broken, the service's failure, or "cancelled". */
  reason?: string;
}

export interface PlayedTitlesSummary {
  titleId: string;
  /** Distinct PlatformIds per status; duplicates folded into them. */
  found: number;
  accountNotFound: number;
  invalid: number;
  failed: number;
  notLookedUp: number;
  duplicates: number;
  cancelled: boolean;
  rows: PlayedRow[];
  document: vscode.Uri;
}

/** An entry to check: a PlatformId as given, or a selected line that holds none, with why. */
type Entry = string | { input: string; reason: string };

/** What Show Played Titles is started with: a player command's arguments, or several PlatformIds. */
export interface PlayedTitlesArgs extends PlayerArgs {
  /** Several given (`{ platformIds: [...] }`), each checked (invalid ones reported, not refused). */
  readonly platformIds?: readonly string[];
}

/**
 * A player command's arguments (parsePlayerArgs), and `{ titleId, platformIds: [...] }` (a hover
 * link, a test): one entry is read as `{ platformId }`, several are checked each.
 */
export function parsePlayedTitlesArgs(raw: readonly unknown[], at: Invocation): PlayedTitlesArgs {
  const list = !at.inView && stringMember(raw[0], 'platformId') === undefined ? stringListMember(raw[0], 'platformIds') : undefined;
  const player = parsePlayerArgs(list?.length === 1 ? [{ ...(raw[0] as object), platformId: list[0] }] : raw, at);
  return list !== undefined && list.length > 1 ? { ...player, platformIds: list } : player;
}

/**
 * The PlatformIds in `editor`'s selections, when they hold a valid one among several entries.
 */
function severalInEditor(editor: vscode.TextEditor | undefined): Entry[] | undefined {
  const listed = idListInEditor(editor);
  // A list (mostly PlatformIds, one per line or comma-separated): each entry, invalid ones reported.
  if (listed !== undefined && listed.length > 1 && listed.filter(isPlatformId).length * 2 >= listed.length) return listed;
  // Text that holds PlatformIds (ticket lines, a log): read by the batch's rule (readIdentifiers),
  // so a line without a PlatformId (a malformed one, say) is reported with its line number, not dropped.
  if (editor === undefined) return undefined;
  const lines = readIdentifiers(selectedText(editor), 'platform-id', { lineNumbers: selectedLineNumbers(editor) });
  const ids = new Set(lines.flatMap((l) => (l.value === undefined ? [] : [l.value])));
  if (ids.size === 0 || (ids.size === 1 && lines.every((l) => l.value !== undefined))) return undefined;
  return lines.map((l) => l.value ?? { input: l.input, reason: vscode.l10n.t('line {0}: {1}', l.line, l.invalid ?? '') });
}

function titleLabel(c: CommandContext, id: string): string {
  const known = c.services.titles.get(id);
  return known ? `${id} (${known.name})` : id;
}

/**
 * Asks for one PlatformId or several: PlatformIds hold no spaces, so commas, spaces and the line
 * breaks of a pasted list (which the input box turns into spaces) all separate them.
 */
async function askPlatformIds(c: CommandContext): Promise<string[]> {
  const split = (v: string): string[] => v.split(/[\s,;]+/).filter((x) => x.length > 0);
  const typed = await c.ui.input({
    title: vscode.l10n.t('Show Played Titles'),
    prompt: vscode.l10n.t('The player\'s PlatformId, or several separated by commas or spaces (a pasted list works too)'),
    placeHolder: vscode.l10n.t('e.g. {0}', '9437A5ADDAE3012D'),
    validateInput: (v) => {
      const ids = split(v);
      if (ids.length === 0) return validatePlatformId('');
      const bad = ids.map(validatePlatformId).find((problem) => problem !== undefined);
      return bad === undefined || ids.length === 1 ? bad : vscode.l10n.t('{0} Remove it, or check the others.', bad);
    },
  });
  return split(typed);
}

export async function showPlayedTitles(c: CommandContext, a: PlayedTitlesArgs): Promise<string[] | PlayedTitlesSummary> {
  const editor = editorFor(a);
  const { title, client } = await usableTitle(c, a.target);
  const several = a.platformIds ? [...a.platformIds] : a.platformId === undefined ? severalInEditor(editor) : undefined;
  if (several !== undefined) return showPlayedTitlesOfMany(c, title, client, several);
  const known = givenOrEditorPlatformId(a.platformId, a.target, editor);
  const asked = known === undefined ? await askPlatformIds(c) : [known];
  if (asked.length > 1) return showPlayedTitlesOfMany(c, title, client, asked);
  const platformId = asked[0].toUpperCase();
  const { TitleIds } = await client.getPlayedTitleList(platformId);
  const list = (TitleIds ?? []).map(shownTitleId);
  const names = list.map((id) => titleLabel(c, id));
  void c.ui.info(
    list.length === 0
      ? vscode.l10n.t('{0}: PlatformId {1} has played no titles of this publisher.', named(title), platformId)
      : list.length === 1
        ? vscode.l10n.t('{0}: PlatformId {1} has played {2} title: {3}.', named(title), platformId, list.length, names.join(', '))
        : vscode.l10n.t('{0}: PlatformId {1} has played {2} titles: {3}.', named(title), platformId, list.length, names.join(', ')),
  );
  return list;
}

/** Each distinct entry once (PlatformIds in upper case), in the order first seen; invalid ones never sent. */
function distinctRows(entries: readonly Entry[]): { rows: PlayedRow[]; duplicates: number } {
  const rows = new Map<string, PlayedRow>();
  for (const entry of entries) {
    if (typeof entry !== 'string') {
      rows.set(`\n${entry.reason}`, { platformId: entry.input.slice(0, 80), status: 'invalid', reason: entry.reason });
      continue;
    }
    const e = entry;
    const problem = validatePlatformId(e);
    const key = problem === undefined ? e.toUpperCase() : e;
    if (!rows.has(key)) rows.set(key, problem === undefined ? { platformId: key, status: NOT_LOOKED_UP } : { platformId: e, status: 'invalid', reason: problem });
  }
  return { rows: [...rows.values()], duplicates: entries.length - rows.size };
}

function applyCheck(c: CommandContext, row: PlayedRow, check: PlayedTitlesCheck): void {
  if (check.status === 'found') Object.assign(row, { status: 'found', titleIds: check.titleIds.map(shownTitleId) });
  else if (check.status === 'not-found') row.status = 'account not found';
  // The failure's text goes into a document: redacted like any error shown.
  else Object.assign(row, { status: 'failed', reason: redactText(check.reason, c.services.secrets.known(), MAX_MESSAGE) });
}

async function showPlayedTitlesOfMany(
  c: CommandContext, title: TitleRecord, client: Parameters<typeof checkPlayedTitles>[0], entries: readonly Entry[],
): Promise<PlayedTitlesSummary> {
  const { rows, duplicates } = distinctRows(entries);
  const byId = new Map(rows.filter((r) => r.status !== 'invalid').map((r) => [r.platformId, r]));
  const cancelled = byId.size > 0 && await runCancellable(
    c,
    vscode.l10n.t('Checking played titles in {0}', title.name),
    (run) => checkPlayedTitles(client, [...byId.keys()], {
      signal: run.signal,
      onProgress: run.onProgress,
      onChecked: (id, check) => applyCheck(c, byId.get(id)!, check),
    }),
  );
  for (const r of rows) if (r.status === NOT_LOOKED_UP) r.reason = 'cancelled';
  const count = (s: PlayedStatus): number => rows.filter((r) => r.status === s).length;
  const summary = {
    titleId: title.titleId, found: count('found'), accountNotFound: count('account not found'), invalid: count('invalid'),
    failed: count('failed'), notLookedUp: count(NOT_LOOKED_UP), duplicates, cancelled,
  };
  const doc = await openResultDocument(playedDocument(c, rows, summary), readSettings().lookupResultFormat, { what: vscode.l10n.t('Played titles'), title });
  void c.ui.info(playedMessage(title, summary, rows.length));
  return { ...summary, rows, document: doc.uri };
}

type Counts = Omit<PlayedTitlesSummary, 'rows' | 'document'>;

function playedDocument(c: CommandContext, rows: readonly PlayedRow[], n: Counts): string {
  const labels = (r: PlayedRow): string[] => (r.titleIds ?? []).map((id) => titleLabel(c, id));
  if (readSettings().lookupResultFormat === 'csv') {
    return toCsv(['PlatformId', 'Status', 'PlayedTitles', 'Reason'], rows.map((r) => [r.platformId, r.status, labels(r).join('; '), r.reason ?? '']));
  }
  return JSON.stringify(
    {
      titleId: n.titleId,
      ...(n.cancelled ? { cancelled: true, notLookedUp: n.notLookedUp } : {}),
      found: n.found,
      accountNotFound: n.accountNotFound,
      invalid: n.invalid,
      failed: n.failed,
      duplicatesFolded: n.duplicates,
      results: rows.map((r) => ({
        PlatformId: r.platformId,
        Status: r.status,
        ...(r.titleIds !== undefined ? { TitleIds: r.titleIds, Titles: labels(r) } : {}),
        ...(r.reason !== undefined ? { Reason: r.reason } : {}),
      })),
    },
    null,
    2,
  ) + '\n';
}

function playedMessage(title: TitleRecord, n: Counts, distinct: number): string {
  const parts = [vscode.l10n.t('{0} found', n.found), vscode.l10n.t('{0} account not found', n.accountNotFound)];
  if (n.invalid > 0) parts.push(vscode.l10n.t('{0} invalid, not sent (the result says why)', n.invalid));
  if (n.failed > 0) parts.push(vscode.l10n.t('{0} could not be checked (see the result)', n.failed));
  const folded = n.duplicates > 0 ? vscode.l10n.t('; {0} duplicates folded', n.duplicates) : '';
  const valid = distinct - n.invalid;
  return n.cancelled
    ? vscode.l10n.t('{0}: played titles cancelled after checking {1} of {2} PlatformIds: {3}; the other {4} are marked "not looked up" in the result ({5} distinct{6}).',
      named(title), valid - n.notLookedUp, valid, parts.join(', '), n.notLookedUp, distinct, folded)
    : vscode.l10n.t('{0}: played titles of {1} distinct PlatformIds: {2}{3}.', named(title), distinct, parts.join(', '), folded);
}

export const showPlayedTitlesCommand = defineCommand({
  id: 'platformExplorer.showPlayedTitles',
  title: 'Show Played Titles',
  category: true,
  icon: 'list-unordered',
  inView: true,
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bkeySet\\b/', group: '2_player@1' },
    ],
    'editor/context': [
      { when: 'editorTextFocus && platformExplorer.editorHasPlatformId || editorTextFocus && platformExplorer.editorHasPlatformIds', group: 'platformExplorer@1' },
    ],
  },
  lazy: 'lookups',
  operations: ['GetPlayedTitleList'],
  parse: parsePlayedTitlesArgs,
  handler: showPlayedTitles,
});
