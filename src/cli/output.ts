// What the command line prints: a readable table, or one JSON object per line (--json).
import { quoteForMessage } from '../core/ids';
import { NONE_RETURNED, type LedgerEntry } from '../core/deletion/types';

export interface Row {
  input: string;
  platformId?: string;
  state: string;
  jobReceiptId?: string;
  titleIds?: string[];
  detail?: string;
}

export function rowOf(e: LedgerEntry): Row {
  return { input: e.input, platformId: e.platformId, state: e.state, jobReceiptId: e.jobReceiptId ?? NONE_RETURNED, titleIds: e.titleIds, detail: e.error ?? e.verifiedAt };
}

export function table(rows: readonly Row[]): string {
  const cells = rows.map((r) => [
    quoteForMessage(r.input), r.platformId ?? '', r.state, r.jobReceiptId ?? '', (r.titleIds ?? []).join(' '), quoteForMessage(r.detail ?? '').slice(0, 120),
  ]);
  const head = ['INPUT', 'PLATFORMID', 'STATE', 'JOBRECEIPTID', 'TITLES', 'DETAIL'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  return [head, ...cells].map((c) => c.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd()).join('\n') + '\n';
}

export function jsonLines(rows: readonly object[]): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length > 0 ? '\n' : '');
}
