// What the two PlatformId lookups share: where the entries come from (a pasted list is never
// silently one entry), entries of the wrong format kept apart, progress with cancel, and the
// result document with unlinked and invalid entries marked and distinct identifiers counted.
import * as vscode from 'vscode';
import { formatError } from '../../core/deletion/input';
import { parseIdList } from '../../core/ids';
import { idListInEditor } from '../editor/selection';
import { isTreeNode } from '../tree/nodes';
import { toCsv } from '../../core/csv';
import { shownPlatformId } from '../../core/serviceText';
import { openResultDocument } from '../documents';
import { readSettings } from '../settings';
import type { CommandContext } from './context';
import type { TitleRecord } from '../titles';
import { stringListArg } from './args';

export interface LookupRow {
  input: string;
  platformId: string | null;
  /** Why the entry was not sent (its format), for entries kept apart. */
  invalid?: string;
}

export interface LookupSummary {
  titleId: string;
  /** Distinct identifiers linked, unlinked, of the wrong format; duplicates folded into them. */
  linked: number;
  unlinked: number;
  invalid: number;
  duplicates: number;
  rows: LookupRow[];
  document: vscode.Uri;
}

export interface LookupSpec {
  /** Which identifiers: their format rule (core/deletion/input.ts) and how a typed list splits. */
  kind: 'consolelive' | 'storefront';
  /** e.g. "ConsoleLive IDs" */
  what: string;
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

/** Entries from the argument, else the editor's selection, else typed or pasted. */
export async function gatherEntries(c: CommandContext, arg: unknown, spec: LookupSpec): Promise<string[]> {
  const fromArg = stringListArg(arg, spec.argName);
  // From a node of the Platform view, the active editor's selection is not what the user meant.
  const listed = fromArg ?? (isTreeNode(arg) ? undefined : idListInEditor(vscode.window.activeTextEditor));
  if (listed !== undefined) return listed;
  const typed = await c.ui.input({
    title: vscode.l10n.t('Look Up PlatformIds from {0}', spec.what),
    prompt: vscode.l10n.t('{0}, comma-separated (or select a list in an editor first, one per line)', spec.what),
    placeHolder: spec.placeHolder,
    validateInput: (v) => (parseIdList(v).length === 0 ? vscode.l10n.t('Enter at least one of the {0}.', spec.what) : undefined),
  });
  return splitTyped(c, spec, typed);
}

/** Runs the bulk call under a cancellable progress notification. */
export function withLookupProgress<T>(
  c: CommandContext,
  title: TitleRecord,
  spec: LookupSpec,
  count: number,
  call: (opts: { signal: AbortSignal; concurrency: number; onProgress: (done: number, total: number) => void }) => Promise<T>,
): Promise<T> {
  return c.ui.progress(vscode.l10n.t('Looking up {0} {1} for {2}', count, spec.what, title.name), async (progress, token) => {
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      if (token.isCancellationRequested) {
        abort.abort();
      }
      let last = 0;
      return await call({
        signal: abort.signal,
        concurrency: readSettings().lookupConcurrency,
        onProgress: (done, total) => {
          const pct = total > 0 ? (done / total) * 100 : 100;
          progress.report({ message: vscode.l10n.t('{0} of {1}', done, total), increment: pct - last });
          last = pct;
        },
      });
    } finally {
      sub.dispose();
    }
  });
}

/** Opens the result as JSON or CSV (setting) and shows "n linked, m unlinked". */
export async function showLookupResult(
  c: CommandContext,
  title: TitleRecord,
  spec: LookupSpec,
  looked: LookupRow[],
  invalidRows: LookupRow[],
  extra: Record<string, string> = {},
): Promise<LookupSummary> {
  // The service's PlatformIds are checked (and escaped when malformed) before they reach the document.
  const rows = [...looked.map((r) => ({ ...r, platformId: shownPlatformId(r.platformId) })), ...invalidRows];
  const status = (r: LookupRow): string => (r.invalid !== undefined ? 'invalid' : r.platformId === null ? 'unlinked' : 'linked');
  // Counted over distinct identifiers: a duplicate is folded into its first row.
  const distinct = new Map(rows.map((r) => [r.input, r]));
  const count = (s: string): number => [...distinct.values()].filter((r) => status(r) === s).length;
  const linked = count('linked');
  const unlinked = count('unlinked');
  const invalid = count('invalid');
  const duplicates = rows.length - distinct.size;
  const format = readSettings().lookupResultFormat;
  const content =
    format === 'csv'
      ? toCsv([spec.inputField, 'PlatformId', 'Status', 'Reason'], rows.map((r) => [r.input, r.platformId ?? '', status(r), r.invalid ?? '']))
      : JSON.stringify(
          {
            titleId: title.titleId,
            ...extra,
            linked,
            unlinked,
            invalid,
            duplicatesFolded: duplicates,
            results: rows.map((r) => ({
              [spec.inputField]: r.input,
              PlatformId: r.platformId,
              Status: status(r),
              ...(r.invalid !== undefined ? { Reason: r.invalid } : {}),
            })),
          },
          null,
          2,
        ) + '\n';
  const doc = await openResultDocument(content, format, { what: spec.documentName, title, sandbox: extra.sandbox });
  const parts = [vscode.l10n.t('{0} linked, {1} unlinked', linked, unlinked)];
  if (invalid > 0) parts.push(vscode.l10n.t('{0} invalid (not sent; see the result)', invalid));
  const folded = duplicates > 0 ? vscode.l10n.t('; {0} duplicates folded', duplicates) : '';
  void c.ui.info(vscode.l10n.t('{0}: {1} ({2} distinct {3}{4}).', title.name, parts.join(', '), distinct.size, spec.what, folded));
  return { titleId: title.titleId, linked, unlinked, invalid, duplicates, rows, document: doc.uri };
}
