// The page side of a panel: restores the last state, listens to the host, and answers
// with the ready handshake. Shared by every page in pages/.
import { isPlainObject } from '../core/api/schema';
import type { HostToPage, PageState, PageToHost, PanelView } from './protocol';
import { markScrollingTables, renderPage } from './render';

interface VsCodeApi {
  postMessage(msg: PageToHost): void;
  getState(): unknown;
  setState(state: PageState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export interface PageOptions {
  /** Offer "Try again" (a refresh) when loading failed before anything was shown. */
  retry: boolean;
}

const isRecord = isPlainObject;

function isView(v: unknown): v is PanelView {
  return isRecord(v) && typeof v.heading === 'string' && typeof v.subheading === 'string'
    && Array.isArray(v.actions) && Array.isArray(v.blocks);
}

function isHostToPage(m: unknown): m is HostToPage {
  if (!isRecord(m)) return false;
  return (m.type === 'render' && isView(m.view)) || ((m.type === 'error' || m.type === 'status') && typeof m.message === 'string');
}

function restore(saved: unknown): PageState {
  if (!isRecord(saved)) return {};
  const state: PageState = {};
  if (isView(saved.view)) state.view = saved.view;
  if (typeof saved.error === 'string') state.error = saved.error;
  if (typeof saved.fix === 'string') state.fix = saved.fix;
  if (isRecord(saved.open)) {
    state.open = {};
    for (const [k, v] of Object.entries(saved.open)) if (typeof v === 'boolean') state.open[k] = v;
  }
  return state;
}

/** The live status line (outside the redrawn main, so only what changes is announced). */
function statusLine(): HTMLElement {
  const existing = document.getElementById('status');
  if (existing) return existing;
  const p = document.createElement('p');
  p.id = 'status';
  p.className = 'status';
  p.setAttribute('role', 'status');
  (document.getElementById('app')?.parentElement ?? document.body).append(p);
  return p;
}

/** A button's identity across redraws: its class and name ("Try again" and "Refresh" are both the refresh action). */
function focusKey(e: Element | null): string | undefined {
  if (!(e instanceof HTMLButtonElement)) return undefined;
  return e.classList.contains('action-refresh') ? 'refresh' : `${e.className}|${e.getAttribute('aria-label') ?? e.textContent ?? ''}`;
}

export function startPage(opts: PageOptions): void {
  const vscode = acquireVsCodeApi();
  const root = document.getElementById('app') ?? document.body;
  const status = statusLine();
  let state = restore(vscode.getState());
  let busy = false;

  const say = (text: string): void => {
    status.textContent = text;
  };

  const draw = (): void => {
    // A redraw replaces every button: the one that had focus gets it back (2.4.3), not the body.
    const key = root.contains(document.activeElement) ? focusKey(document.activeElement) : undefined;
    renderPage(document, root, state, {
      retry: opts.retry,
      busy,
      post: (msg) => {
        if (msg.type === 'refresh') {
          if (busy) return;
          busy = true;
          say('Refreshing…');
          draw();
        }
        vscode.postMessage(msg);
      },
      onToggle: (id, open) => {
        state = { ...state, open: { ...state.open, [id]: open } };
        vscode.setState(state);
      },
    });
    markScrollingTables(root);
    if (key === undefined) return;
    const again = [...root.querySelectorAll('button')].find((b) => focusKey(b) === key);
    again?.focus();
  };

  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const msg = event.data;
    if (!isHostToPage(msg)) return;
    if (msg.type === 'status') {
      say(msg.message);
      return;
    }
    // The error box is an alert of its own; a good answer after a refresh is confirmed in the status line.
    say(msg.type === 'render' && busy ? 'Refreshed.' : '');
    state = msg.type === 'render'
      ? { ...state, view: msg.view, error: undefined, fix: undefined }
      : { ...state, error: msg.message, fix: typeof msg.fix === 'string' ? msg.fix : undefined };
    busy = false;
    vscode.setState(state);
    draw();
  });

  // A narrower panel, or a section opened, can make a table scroll.
  new ResizeObserver(() => markScrollingTables(root)).observe(root);
  draw();
  vscode.postMessage({ type: 'ready' });
}
