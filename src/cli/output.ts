// What the command line prints: a readable table, or one JSON object per line (--json). Every
// string from the service (and the journal) is clipped, its control characters and escape
// sequences made inert, and known secrets masked (core/serviceText.ts) before it reaches a terminal.
// Our own text (paths, request and batch IDs, messages) is escaped and has known secrets masked,
// and is never masked as if it were a token: the user must be able to read which file is meant.
import { ownText, serviceText, serviceValue } from '../core/serviceText';
import { NONE_RETURNED, type LedgerEntry } from '../core/deletion/types';

export interface Row {
  input: string;
  platformId?: string;
  state: string;
  jobReceiptId?: string;
  titleIds?: string[];
  detail?: string;
}

/** Secrets masked wherever the CLI writes (the key it was given). */
export const knownSecrets: string[] = [];

export function rowOf(e: LedgerEntry): Row {
  return { input: e.input, platformId: e.platformId, state: e.state, jobReceiptId: e.jobReceiptId ?? NONE_RETURNED, titleIds: e.titleIds, detail: e.error ?? e.verifiedAt };
}

const cell = (s: string, max: number): string => serviceText(s, { max, secrets: knownSecrets });

export function table(rows: readonly Row[]): string {
  const cells = rows.map((r) => [
    cell(r.input, 80), cell(r.platformId ?? '', 40), cell(r.state, 20), cell(r.jobReceiptId ?? '', 80), cell((r.titleIds ?? []).slice(0, 20).join(' '), 120), cell(r.detail ?? '', 120),
  ]);
  const head = ['INPUT', 'PLATFORMID', 'STATE', 'JOBRECEIPTID', 'TITLES', 'DETAIL'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  return [head, ...cells].map((c) => c.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd()).join('\n') + '\n';
}

/** One JSON object per line, every string made safe. */
export function jsonLines(rows: readonly object[]): string {
  return rows.map((r) => JSON.stringify(serviceValue(r, { secrets: knownSecrets }))).join('\n') + (rows.length > 0 ? '\n' : '');
}

/** Our own text for the terminal: each line's controls made visible, known secrets masked, nothing else hidden. */
export function terminal(s: string): string {
  return ownText(s, knownSecrets);
}
