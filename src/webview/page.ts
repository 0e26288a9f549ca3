// The page side of a panel: restores the last state, listens to the host, and answers
// with the ready handshake. Shared by every page in pages/.
import { isPlainObject } from '../core/api/schema';
import type { HostToPage, PageState, PageToHost, PanelView } from './protocol';
import { renderPage } from './render';

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
  return (m.type === 'render' && isView(m.view)) || (m.type === 'error' && typeof m.message === 'string');
}

function restore(saved: unknown): PageState {
  if (!isRecord(saved)) return {};
  const state: PageState = {};
  if (isView(saved.view)) state.view = saved.view;
  if (typeof saved.error === 'string') state.error = saved.error;
  if (isRecord(saved.open)) {
    state.open = {};
    for (const [k, v] of Object.entries(saved.open)) if (typeof v === 'boolean') state.open[k] = v;
  }
  return state;
}

export function startPage(opts: PageOptions): void {
  const vscode = acquireVsCodeApi();
  const root = document.getElementById('app') ?? document.body;
  let state = restore(vscode.getState());
  let busy = false;

  const draw = (): void => renderPage(document, root, state, {
    retry: opts.retry,
    busy,
    post: (msg) => {
      if (msg.type === 'refresh') {
        busy = true;
        draw();
      }
      vscode.postMessage(msg);
    },
    onToggle: (id, open) => {
      state = { ...state, open: { ...state.open, [id]: open } };
      vscode.setState(state);
    },
  });

  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const msg = event.data;
    if (!isHostToPage(msg)) return;
    state = msg.type === 'render'
      ? { ...state, view: msg.view, error: undefined }
      : { ...state, error: msg.message };
    busy = false;
    vscode.setState(state);
    draw();
  });

  draw();
  vscode.postMessage({ type: 'ready' });
}
