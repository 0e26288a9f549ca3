// Draws a panel from its state. Pure DOM building with createElement/textContent only:
// every string may come from the service, so nothing is ever parsed as HTML, and no
// links, images, inline styles or event-handler attributes are created.
import type { Block, FieldRow, PageState, PageToHost, PanelAction, PanelView, SectionBlock, TableBlock } from './protocol';

export interface RenderOptions {
  /** Offer a "Try again" button when an error left nothing to show. */
  retry: boolean;
  /** A refresh is under way: its button is disabled. */
  busy: boolean;
  post(msg: PageToHost): void;
  onToggle(sectionId: string, open: boolean): void;
}

const ACTION_LABELS: Record<PanelAction, string> = {
  openJson: 'Open as JSON',
  refresh: 'Refresh',
};

export function renderPage(doc: Document, root: HTMLElement, state: PageState, opts: RenderOptions): void {
  const parts: HTMLElement[] = [];
  const view = state.view;
  if (view) parts.push(header(doc, view, opts));
  // A load that failed before anything came still gets the page's heading (the panel's title).
  else if (state.error !== undefined) parts.push(el(doc, 'h1', undefined, doc.title || 'Could not load'));
  if (state.error !== undefined) parts.push(errorBox(doc, state.error, !view && opts.retry, opts, state.fix));
  if (view) {
    for (const b of view.blocks) parts.push(block(doc, b, 2, state.open ?? {}, opts));
  } else if (state.error === undefined) {
    parts.push(el(doc, 'p', 'loading', 'Loading…'));
  }
  root.replaceChildren(...parts);
}

function el<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = doc.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function button(doc: Document, label: string, onClick: (e: MouseEvent) => void, className = 'button'): HTMLButtonElement {
  const b = el(doc, 'button', className, label);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

function actionButton(doc: Document, action: PanelAction, opts: RenderOptions, label = ACTION_LABELS[action]): HTMLButtonElement {
  const b = button(doc, label, () => opts.post({ type: action }), `button action-${action === 'openJson' ? 'json' : action}`);
  if (action === 'refresh' && opts.busy) {
    // aria-disabled, not disabled: a disabled button drops keyboard focus to the body.
    b.setAttribute('aria-disabled', 'true');
    b.textContent = 'Refreshing…';
  }
  return b;
}

function headingTag(level: number): 'h2' | 'h3' | 'h4' {
  return level <= 2 ? 'h2' : level === 3 ? 'h3' : 'h4';
}

const MASK = '••••••••';

/**
 * A value as text, except a masked secret: its bullets hidden from screen readers and
 * "masked, ends in IyAg" read instead of eight bullets and four characters (1.3.1).
 */
function valueInto(doc: Document, parent: HTMLElement, value: string): void {
  if (!value.startsWith(MASK) || value.length > MASK.length + 4) {
    parent.append(value);
    return;
  }
  const dots = el(doc, 'span', undefined, MASK);
  dots.setAttribute('aria-hidden', 'true');
  const tail = value.slice(MASK.length);
  parent.append(dots, el(doc, 'span', 'visually-hidden', tail ? 'masked, ends in ' : 'masked'), tail);
}

function header(doc: Document, view: PanelView, opts: RenderOptions): HTMLElement {
  const h = el(doc, 'header', 'panel-header');
  const titles = el(doc, 'div', 'titles');
  titles.append(el(doc, 'h1', undefined, view.heading), el(doc, 'p', 'subheading', view.subheading));
  h.append(titles);
  if (view.actions.length > 0) {
    const bar = el(doc, 'div', 'toolbar');
    for (const a of view.actions) bar.append(actionButton(doc, a, opts));
    h.append(bar);
  }
  return h;
}

function errorBox(doc: Document, message: string, withRetry: boolean, opts: RenderOptions, fix: string | undefined): HTMLElement {
  const box = el(doc, 'div', 'error');
  box.setAttribute('role', 'alert');
  // Each line of the host's text (what happened, then what to do) as its own paragraph.
  for (const line of message.split('\n')) box.append(el(doc, 'p', undefined, line));
  // The fixing action first, as a command's error message offers it.
  if (fix !== undefined) box.append(button(doc, fix, () => opts.post({ type: 'fix' }), 'button action-fix'));
  if (withRetry) box.append(actionButton(doc, 'refresh', opts, 'Try again'));
  return box;
}

function block(doc: Document, b: Block, level: number, open: Record<string, boolean>, opts: RenderOptions): HTMLElement {
  switch (b.kind) {
    case 'fields': return fields(doc, b.rows, opts);
    case 'table': return table(doc, b, level);
    case 'note': return el(doc, 'p', 'note', b.text);
    case 'section': return section(doc, b, level, open, opts);
  }
}

function section(doc: Document, s: SectionBlock, level: number, open: Record<string, boolean>, opts: RenderOptions): HTMLElement {
  const d = el(doc, 'details', `section level-${Math.min(level, 4)}`);
  d.open = open[s.id] ?? s.open;
  const summary = el(doc, 'summary');
  summary.append(el(doc, headingTag(level), undefined, s.heading));
  d.append(summary);
  for (const b of s.blocks) d.append(block(doc, b, level + 1, open, opts));
  d.addEventListener('toggle', () => opts.onToggle(s.id, d.open));
  return d;
}

function fields(doc: Document, rows: FieldRow[], opts: RenderOptions): HTMLElement {
  const dl = el(doc, 'dl', 'fields');
  for (const r of rows) {
    const dd = el(doc, 'dd');
    if (r.value === null) {
      dd.className = 'missing';
      dd.textContent = 'not returned';
    } else if (r.copy) {
      const field = r.copy;
      dd.className = 'secret';
      const code = el(doc, 'code');
      valueInto(doc, code, r.value);
      dd.append(code);
      // Only a person's click copies: a script's synthetic click (isTrusted false) asks the host for nothing.
      const b = button(doc, 'Copy', (e) => { if (e.isTrusted) opts.post({ type: 'copy', field }); }, 'button secondary copy');
      b.setAttribute('aria-label', `Copy ${r.label}`);
      b.title = `Copy the full ${r.label} to the clipboard`;
      dd.append(b);
    } else {
      valueInto(doc, dd, r.value);
    }
    dl.append(el(doc, 'dt', undefined, r.label), dd);
  }
  return dl;
}

function table(doc: Document, t: TableBlock, level: number): HTMLElement {
  const wrap = el(doc, 'div', 'table-block');
  // An empty caption: the enclosing section's heading already names the table.
  if (t.rows.length === 0) {
    if (t.caption) wrap.append(el(doc, headingTag(level), 'caption', t.caption));
    wrap.append(el(doc, 'p', 'note', t.emptyText));
    return wrap;
  }
  const tbl = el(doc, 'table');
  if (t.caption) tbl.append(el(doc, 'caption', undefined, t.caption));
  const headRow = el(doc, 'tr');
  for (const c of t.columns) {
    const th = el(doc, 'th', undefined, c);
    th.scope = 'col';
    headRow.append(th);
  }
  const thead = el(doc, 'thead');
  thead.append(headRow);
  const tbody = el(doc, 'tbody');
  for (const row of t.rows) {
    const tr = el(doc, 'tr');
    for (const cell of row) {
      const td = el(doc, 'td');
      valueInto(doc, td, cell);
      tr.append(td);
    }
    tbody.append(tr);
  }
  tbl.append(thead, tbody);
  wrap.append(tbl);
  return wrap;
}

/**
 * A table wider than a narrow panel scrolls sideways in its own box (its words kept whole): that
 * box is then a named region reachable by Tab, so a keyboard can scroll it (2.1.1); otherwise no
 * extra Tab stop. Run after each draw and whenever the page's size changes.
 */
export function markScrollingTables(root: HTMLElement): void {
  for (const box of root.querySelectorAll<HTMLElement>('.table-block')) {
    if (box.scrollWidth > box.clientWidth) {
      box.tabIndex = 0;
      box.setAttribute('role', 'region');
      // Named by its caption, else by the heading of the section it is in.
      const name = box.querySelector('caption')?.textContent || box.closest('details')?.querySelector('summary')?.textContent || 'Table';
      box.setAttribute('aria-label', `${name} (scrolls sideways)`);
    } else {
      box.removeAttribute('tabindex');
      box.removeAttribute('role');
      box.removeAttribute('aria-label');
    }
  }
}
