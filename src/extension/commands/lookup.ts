// What the two PlatformId lookups share: where the entries come from, progress with
// cancel, and the result document with unlinked entries marked.
import * as vscode from 'vscode';
import { parseIdList, quoteForMessage } from '../../core/ids';
import { idListInEditor } from '../editor/selection';
import { CommandError } from '../errors';
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
}

export interface LookupSummary {
  titleId: string;
  linked: number;
  unlinked: number;
  rows: LookupRow[];
  document: vscode.Uri;
}

export interface LookupSpec {
  /** e.g. "ConsoleLive IDs" */
  what: string;
  /** The result document's name, e.g. "ConsoleLive lookup" */
  documentName: string;
  /** The argument member carrying the entries: `ids` or `names`. */
  argName: 'ids' | 'names';
  /** The input column's name in the result, as the service names it. */
  inputField: string;
  placeHolder: string;
  validateEntry: (entry: string) => string | undefined;
}

/** Entries from the argument, else the editor's selection, else typed or pasted. */
export async function gatherEntries(c: CommandContext, arg: unknown, spec: LookupSpec): Promise<string[]> {
  const fromArg = stringListArg(arg, spec.argName);
  const entries =
    fromArg ??
    idListInEditor(vscode.window.activeTextEditor) ??
    parseIdList(
      await c.ui.input({
        title: vscode.l10n.t('Look Up PlatformIds from {0}', spec.what),
        prompt: vscode.l10n.t('{0}, comma-separated (or select a list in an editor first, one per line)', spec.what),
        placeHolder: spec.placeHolder,
        validateInput: (v) => {
          const list = parseIdList(v);
          if (list.length === 0) {
            return vscode.l10n.t('Enter at least one of the {0}.', spec.what);
          }
          return list.map(spec.validateEntry).find((p) => p !== undefined);
        },
      }),
    );
  const problem = entries.map(spec.validateEntry).find((p) => p !== undefined);
  if (problem) {
    throw new CommandError(problem, vscode.l10n.t('Fix the list of {0} and run the lookup again.', spec.what));
  }
  return entries;
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
  rows: LookupRow[],
  extra: Record<string, string> = {},
): Promise<LookupSummary> {
  // The service's PlatformIds are checked (and escaped when malformed) before they reach the document.
  rows = rows.map((r) => ({ ...r, platformId: shownPlatformId(r.platformId) }));
  const linked = rows.filter((r) => r.platformId !== null).length;
  const unlinked = rows.length - linked;
  const format = readSettings().lookupResultFormat;
  const content =
    format === 'csv'
      ? toCsv(
          [spec.inputField, 'PlatformId', 'Status'],
          rows.map((r) => [r.input, r.platformId ?? '', r.platformId === null ? 'unlinked' : 'linked']),
        )
      : JSON.stringify(
          {
            titleId: title.titleId,
            ...extra,
            linked,
            unlinked,
            results: rows.map((r) => ({
              [spec.inputField]: r.input,
              PlatformId: r.platformId,
              Status: r.platformId === null ? 'unlinked' : 'linked',
            })),
          },
          null,
          2,
        ) + '\n';
  const doc = await openResultDocument(content, format, { what: spec.documentName, title, sandbox: extra.sandbox });
  void c.ui.info(vscode.l10n.t('{0}: {1} linked, {2} unlinked ({3} {4}).', title.name, linked, unlinked, rows.length, spec.what));
  return { titleId: title.titleId, linked, unlinked, rows, document: doc.uri };
}

/** Free-text identifiers: non-empty, single-line, bounded. */
export function validateFreeText(what: string, max: number): (entry: string) => string | undefined {
  return (entry) => {
    if (/[\u0000-\u001f\u007f]/.test(entry)) {
      return vscode.l10n.t('The {0} "{1}" contains control characters.', what, quoteForMessage(entry));
    }
    if (entry.length > max) {
      return vscode.l10n.t('The {0} "{1}" is longer than {2} characters.', what, quoteForMessage(entry), max);
    }
    return undefined;
  };
}
