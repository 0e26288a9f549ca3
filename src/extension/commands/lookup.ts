// What the two PlatformId lookups share: where the entries come from (a pasted list is never
// silently one entry), entries of the wrong format kept apart, progress with cancel (which keeps
// what was looked up), and the result document with unlinked, invalid and not-looked-up entries
// marked and distinct identifiers counted.
import { ProgressGate } from '../../core/progressGate';
import * as vscode from 'vscode';
import { formatError } from '../../core/deletion/input';
import { parseIdList } from '../../core/ids';
import { idListInEditor } from '../editor/selection';
import { toCsv } from '../../core/csv';
import { isCancellation } from '../../core/api/errors';
import type { BulkOptions } from '../../core/api/options';
import { shownPlatformId } from '../../core/serviceText';
import { openResultDocument } from '../documents';
import { readSettings } from '../settings';
import type { CommandContext } from './context';
import { named, type TitleRecord } from '../titles';
import { parseTarget, stringListMember, stringMember, type Target } from './parse';
import { noteActivity } from '../activity/recorder';

/** The status of an entry a cancelled lookup did not reach. */
export const NOT_LOOKED_UP = 'not looked up';

export interface LookupRow {
  input: string;
  platformId: string | null;
  /** Why the entry was not sent (its format), for entries kept apart. */
  invalid?: string;
  /** The lookup was cancelled before this entry's answer came. */
  notLookedUp?: boolean;
}

export interface LookupSummary {
  titleId: string;
  /** Distinct identifiers linked, unlinked, of the wrong format; duplicates folded into them. */
  linked: number;
  unlinked: number;
  invalid: number;
  duplicates: number;
  /** Cancelled part-way: the result holds what was looked up, the rest marked "not looked up". */
  cancelled: boolean;
  notLookedUp: number;
  rows: LookupRow[];
  document: vscode.Uri;
}

export interface LookupSpec {
  /** Which identifiers: their format rule (core/deletion/input.ts) and how a typed list splits. */
  kind: 'consolelive' | 'storefront';
  /** e.g. "ConsoleLive IDs" */
  what: string;
  /** e.g. "ConsoleLive ID" */
  one: string;
  /** The result document's name, e.g. "ConsoleLive lookup" */
  documentName: string;
  /** The argument member carrying the entries: `ids` or `names`. */
  argName: 'ids' | 'names';
  /** The input column's name in the result, as the service names it. */
  inputField: string;
  placeHolder: string;
}

/** Entries of the wrong format, kept apart (never sent), with the rule each breaks. */
export function splitInvalid(spec: LookupSpec, entries: readonly string[]): { valid: string[]; invalid: LookupRow[] } {
  const valid: string[] = [];
  const invalid: LookupRow[] = [];
  for (const e of entries) {
    const why = formatError(spec.kind, e);
    if (why === undefined) valid.push(e);
    else invalid.push({ input: e, platformId: null, invalid: why });
  }
  return { valid, invalid };
}

/**
 * A typed or pasted list: commas and line breaks separate entries. An input box turns a pasted
 * list's line breaks into spaces, so a comma-less text with spaces is ambiguous: ConsoleLive IDs
 * never hold spaces (split on them), Storefront names may (ask).
 */
async function splitTyped(c: CommandContext, spec: LookupSpec, text: string): Promise<string[]> {
  const list = parseIdList(text);
  if (list.length !== 1 || !/\s/.test(list[0])) return list;
  const words = list[0].split(/\s+/).filter((w) => w.length > 0);
  if (spec.kind === 'consolelive') return words;
  const SEVERAL = vscode.l10n.t('{0} names, one per word', words.length);
  const picked = await c.ui.pick(
    [
      { label: SEVERAL, detail: words.slice(0, 5).join(' · ') + (words.length > 5 ? ' …' : '') },
      { label: vscode.l10n.t('One name with spaces'), detail: list[0] },
    ],
    { title: vscode.l10n.t('Is this one Storefront name, or a list whose line breaks became spaces?') },
  );
  return picked.label === SEVERAL ? words : list;
}

/** What a lookup is started with: the title, and the entries (and a Sandbox) when a JSON argument lists them. */
export interface LookupArgs {
  readonly target: Target;
  readonly list?: readonly string[];
  readonly sandbox?: string;
}

/**
 * `{ titleId, <argName>: [...], sandbox? }` (a link, a test), a title's node (the view's menu), an
 * editor's Uri (its context menu: the selection is read), nothing (the palette: the editor's
 * selection, else asked). A list member that is not a list of strings is refused here.
 */
export const parseLookupArgs = (argName: string) => (raw: readonly unknown[]): LookupArgs => ({
  target: parseTarget(raw),
  list: stringListMember(raw[0], argName),
  sandbox: stringMember(raw[0], 'sandbox'),
});

/** Entries from the argument, else the editor's selection, else typed or pasted. */
export async function gatherEntries(c: CommandContext, a: LookupArgs, spec: LookupSpec): Promise<string[]> {
  // From a node of the Platform view, the active editor's selection is not what the user meant.
  const listed = a.list ? [...a.list] : (a.target.node ? undefined : idListInEditor(vscode.window.activeTextEditor));
  if (listed !== undefined) return listed;
  const typed = await c.ui.input({
    title: vscode.l10n.t('Look Up PlatformIds from {0}', spec.what),
    prompt: vscode.l10n.t('{0}, comma-separated (or select a list in an editor first, one per line)', spec.what),
    placeHolder: spec.placeHolder,
    validateInput: (v) => (parseIdList(v).length === 0 ? vscode.l10n.t('Enter at least one of the {0}.', spec.what) : undefined),
  });
  return splitTyped(c, spec, typed);
}

/** What a task under runCancellable gets: the signal Cancel aborts, and where to report "done of total". */
export interface CancellableRun {
  signal: AbortSignal;
  concurrency: number;
  onProgress: (done: number, total: number) => void;
}

/**
 * Runs `task` under a cancellable progress notification. Cancel is not a failure: the task stops
 * and this answers true, so that the caller keeps what the task reported before (only the
 * extension stopping still throws the cancellation). The notification has no title: its message
 * says `what` after the changing number ("12 of 30 · Looking up Storefront names"), once per change.
 */
export function runCancellable(c: CommandContext, what: string, task: (run: CancellableRun) => Promise<unknown>): Promise<boolean> {
  return c.ui.progress('', async (progress, token) => {
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      if (token.isCancellationRequested) {
        abort.abort();
      }
      let last = 0;
      let said: string | undefined;
      const gate = new ProgressGate();
      await task({
        signal: abort.signal,
        concurrency: readSettings().lookupConcurrency,
        onProgress: (done, total) => {
          const message = `${vscode.l10n.t('{0} of {1}', done, total)} · ${what}`;
          if (!gate.due(done, total) || message === said) return;
          said = message;
          const pct = total > 0 ? (done / total) * 100 : 100;
          progress.report({ message, increment: pct - last });
          last = pct;
        },
      });
      return false;
    } catch (e) {
      if (abort.signal.aborted && isCancellation(e) && !c.token.isCancellationRequested) {
        c.services.log.info(`${what}: cancelled; what was done before is kept`);
        return true;
      }
      throw e;
    } finally {
      sub.dispose();
    }
  });
}

/**
 * Looks up the valid entries (the bulk call under a cancellable progress) and shows the result.
 * Cancel keeps the entries resolved so far; the others are marked "not looked up".
 */
export async function lookUpAndShow(
  c: CommandContext,
  title: TitleRecord,
  spec: LookupSpec,
  entries: { valid: string[]; invalid: LookupRow[] },
  call: (opts: BulkOptions) => Promise<unknown>,
  extra: Record<string, string> = {},
): Promise<LookupSummary> {
  const { valid } = entries;
  const found = new Map<string, string | null>();
  const cancelled = valid.length > 0 && await runCancellable(
    c,
    vscode.l10n.t('Looking up {0} in {1}', spec.what, title.name),
    (run) => call({ ...run, onResolved: (resolved) => resolved.forEach((pid, id) => found.set(id, pid)) }),
  );
  const rows = valid.map((id): LookupRow => (found.has(id) ? { input: id, platformId: found.get(id) ?? null } : { input: id, platformId: null, notLookedUp: true }));
  return showLookupResult(c, title, spec, rows, entries.invalid, cancelled, extra);
}

/** Opens the result as JSON or CSV (setting) and shows "n linked, m unlinked" (and, cancelled, how far it got). */
async function showLookupResult(
  c: CommandContext,
  title: TitleRecord,
  spec: LookupSpec,
  looked: LookupRow[],
  invalidRows: LookupRow[],
  cancelled: boolean,
  extra: Record<string, string>,
): Promise<LookupSummary> {
  // The service's PlatformIds are checked (and escaped when malformed) before they reach the document.
  const rows = [...looked.map((r) => ({ ...r, platformId: shownPlatformId(r.platformId) })), ...invalidRows];
  const status = (r: LookupRow): string =>
    r.invalid !== undefined ? 'invalid' : r.notLookedUp === true ? NOT_LOOKED_UP : r.platformId === null ? 'unlinked' : 'linked';
  const reason = (r: LookupRow): string | undefined => r.invalid ?? (r.notLookedUp === true ? 'cancelled' : undefined);
  // Counted over distinct identifiers: a duplicate is folded into its first row.
  const distinct = new Map(rows.map((r) => [r.input, r]));
  const count = (s: string): number => [...distinct.values()].filter((r) => status(r) === s).length;
  const linked = count('linked');
  const unlinked = count('unlinked');
  const invalid = count('invalid');
  const notLookedUp = count(NOT_LOOKED_UP);
  const duplicates = rows.length - distinct.size;
  const format = readSettings().lookupResultFormat;
  const content =
    format === 'csv'
      ? toCsv([spec.inputField, 'PlatformId', 'Status', 'Reason'], rows.map((r) => [r.input, r.platformId ?? '', status(r), reason(r) ?? '']))
      : JSON.stringify(
          {
            titleId: title.titleId,
            ...extra,
            ...(cancelled ? { cancelled: true, notLookedUp } : {}),
            linked,
            unlinked,
            invalid,
            duplicatesFolded: duplicates,
            results: rows.map((r) => ({
              [spec.inputField]: r.input,
              PlatformId: r.platformId,
              Status: status(r),
              ...(reason(r) !== undefined ? { Reason: reason(r) } : {}),
            })),
          },
          null,
          2,
        ) + '\n';
  const doc = await openResultDocument(content, format, { what: spec.documentName, title, sandbox: extra.sandbox });
  const parts = [vscode.l10n.t('{0} linked, {1} unlinked', linked, unlinked)];
  if (invalid > 0) parts.push(vscode.l10n.t('{0} invalid, not sent (the result says why)', invalid));
  const folded = duplicates === 0 ? '' : duplicates === 1 ? vscode.l10n.t('; 1 duplicate folded') : vscode.l10n.t('; {0} duplicates folded', duplicates);
  const sent = distinct.size - invalid;
  const counted = (n: number): string => (n === 1 ? vscode.l10n.t('1 {0}', spec.one) : vscode.l10n.t('{0} {1}', n, spec.what));
  if (sent === 0) {
    // Nothing went out: said so, with the first reason, and Activity says it too (not "succeeded").
    const more = invalid > 1 ? vscode.l10n.t(' ({0} more in the result)', invalid - 1) : '';
    noteActivity(vscode.l10n.t('nothing sent, no valid {0}', spec.one));
    void c.ui.info(vscode.l10n.t('{0}: nothing was looked up: {1}{2}', named(title), invalidRows[0]?.invalid ?? '', more));
  } else {
    void c.ui.info(
      cancelled
        ? vscode.l10n.t('{0}: cancelled after looking up {1} of {2}: {3}; the other {4} are marked "not looked up" in the result; {5} in all{6}.',
          named(title), sent - notLookedUp, counted(sent), parts.join(', '), notLookedUp, counted(distinct.size), folded)
        : vscode.l10n.t('{0}: {1}: {2}{3}.', named(title), counted(distinct.size), parts.join(', '), folded),
    );
  }
  return { titleId: title.titleId, linked, unlinked, invalid, duplicates, cancelled, notLookedUp, rows, document: doc.uri };
}
