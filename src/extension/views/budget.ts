// A panel's total budget: however large the service's answer (a valid login result can be 8 MB),
// a panel shows at most PANEL_ROWS rows and PANEL_CHARS characters of it, in order, and says
// what it left out where it left it out and at the top. Applied before the view is redacted and
// posted, so neither the host nor the page pays for what is not shown.
import { clipForRedaction } from '../../core/redact';
import type { Block, FieldRow, PanelView } from '../../webview/protocol';

const PANEL_ROWS = 2_000;
export const PANEL_CHARS = 250_000;

export interface PanelLimits {
  rows: number;
  chars: number;
}

const fmt = (n: number): string => n.toLocaleString('en-US');

/** `view` within `limits`; strings are cut only away from `secrets` (clipForRedaction), so masking still finds them. */
export function fitPanel(view: PanelView, secrets: readonly string[], limits: PanelLimits = { rows: PANEL_ROWS, chars: PANEL_CHARS }): PanelView {
  let rows = limits.rows;
  let chars = limits.chars;
  let hiddenRows = 0;
  let cut = false;
  const limitText = `a panel shows at most ${fmt(limits.rows)} rows and ${fmt(limits.chars)} characters of a result`;
  const text = (s: string): string => {
    const out = clipForRedaction(s, Math.max(chars, 0), secrets);
    if (out !== s) cut = true;
    chars -= s.length;
    return out;
  };
  /** The rows that fit, each with its strings clipped, and how many did not. */
  const fit = <R>(list: readonly R[], strings: (r: R) => (s: (x: string) => string) => R): { kept: R[]; hidden: number } => {
    const kept: R[] = [];
    for (const r of list) {
      if (rows <= 0 || chars <= 0) break;
      rows--;
      kept.push(strings(r)(text));
    }
    hiddenRows += list.length - kept.length;
    return { kept, hidden: list.length - kept.length };
  };
  const clippedNote = (hidden: number): Block => ({ kind: 'note', text: `Clipped: ${fmt(hidden)} more ${hidden === 1 ? 'row is' : 'rows are'} not shown (${limitText}).` });
  const walk = (blocks: readonly Block[]): Block[] => blocks.flatMap((b): Block[] => {
    switch (b.kind) {
      case 'note':
        if (chars > 0) return [{ ...b, text: text(b.text) }];
        cut = true;
        return [];
      case 'section':
        return [{ ...b, heading: text(b.heading), blocks: walk(b.blocks) }];
      case 'fields': {
        const { kept, hidden } = fit<FieldRow>(b.rows, (r) => (t) => ({ ...r, label: t(r.label), value: r.value === null ? null : t(r.value) }));
        return hidden === 0 ? [{ ...b, rows: kept }] : [...(kept.length > 0 ? [{ ...b, rows: kept }] : []), clippedNote(hidden)];
      }
      case 'table': {
        const { kept, hidden } = fit<string[]>(b.rows, (r) => (t) => r.map(t));
        return hidden === 0 ? [{ ...b, rows: kept }] : [...(kept.length > 0 ? [{ ...b, rows: kept }] : []), clippedNote(hidden)];
      }
    }
  });
  const blocks = walk(view.blocks);
  if (hiddenRows === 0 && !cut) return { ...view, blocks };
  const top: Block = { kind: 'note', text: `Clipped: this result is larger than a panel shows; ${fmt(hiddenRows)} rows are not shown and long values are cut (${limitText}).` };
  return { ...view, blocks: [top, ...blocks] };
}
