// The Emulator Requests view: every service request an emulator of ours receives (the one this
// window runs, or `npm run demo`'s), live from its request log stream (GET /_emulator/requests/stream,
// masked by the emulator before it leaves it). Newest first, bounded, filterable.
import * as vscode from 'vscode';
import type { RequestLogEntry } from '../../emulator/requestLog';
import { readableDuration, readableLocal } from '../../core/time';
import { controlHeaders } from '../../core/controlToken';
import { clip } from '../labelText';

/** An entry as the emulator's request log serves it (bodies already masked). */
export type EmulatorRequestEntry = RequestLogEntry;

/** Entries kept in the view; older ones stay in the emulator's own log. */
const MAX_ENTRIES = 1000;
const POLL_MS = 2000;
const PROBE_EVERY_MS = 10_000;

export class EmulatorRequestsView implements vscode.TreeDataProvider<EmulatorRequestEntry>, vscode.Disposable {
  private entries: EmulatorRequestEntry[] = [];
  private filterText = '';
  private origin: string | undefined;
  private abort: AbortController | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastProbe = 0;
  private refreshTimer: NodeJS.Timeout | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  view: vscode.TreeView<EmulatorRequestEntry> | undefined;

  /** `inProcess`: this window's emulator; `probe`: another emulator of ours serving the titles. */
  constructor(private readonly inProcess: () => string | undefined, private readonly probe: () => Promise<string | undefined>) {}

  /** Follows the view's visibility: connected while shown, checking every 2 s for an emulator to start or stop. */
  attach(view: vscode.TreeView<EmulatorRequestEntry>): vscode.Disposable {
    this.view = view;
    const follow = () => {
      if (view.visible && !this.timer) {
        void this.sync();
        this.timer = setInterval(() => void this.sync(), POLL_MS);
      } else if (!view.visible && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
    follow();
    return view.onDidChangeVisibility(follow);
  }

  get filter(): string {
    return this.filterText;
  }

  setFilter(text: string): void {
    this.filterText = text.trim();
    if (this.view) this.view.description = this.filterText ? vscode.l10n.t('filter: {0}', clip(this.filterText, 40)) : undefined;
    this.changed.fire();
  }

  /** The rows shown, newest first, after the filter. */
  shown(): EmulatorRequestEntry[] {
    const f = this.filterText.toLowerCase();
    if (!f) return this.entries;
    return this.entries.filter((e) => [e.operation ?? e.path, e.titleId ?? '', String(e.status), e.error ?? '', e.credential].some((s) => s.toLowerCase().includes(f)));
  }

  entry(seq: number): EmulatorRequestEntry | undefined {
    return this.entries.find((e) => e.seq === seq);
  }

  /** Connects to the emulator running now (or drops a connection to one that stopped); `force` probes at once. */
  async sync(force = false): Promise<string | undefined> {
    let origin = this.inProcess();
    if (!origin && this.origin && this.abort) return this.origin; // connected to an external emulator: the stream says when it ends
    if (!origin && (force || Date.now() - this.lastProbe >= PROBE_EVERY_MS)) {
      this.lastProbe = Date.now();
      origin = await this.probe().catch(() => undefined);
    }
    if (origin !== this.origin || (origin && !this.abort)) this.connect(origin);
    return this.origin;
  }

  private connect(origin: string | undefined): void {
    this.abort?.abort();
    this.abort = undefined;
    if (origin !== this.origin) this.entries = [];
    this.origin = origin;
    this.setMessage();
    this.changed.fire();
    if (!origin) return;
    const abort = new AbortController();
    this.abort = abort;
    const since = this.entries[0]?.seq ?? 0;
    void this.read(`${origin}/_emulator/requests/stream?since=${since}`, abort).finally(() => {
      if (this.abort === abort) this.abort = undefined;
    });
  }

  private async read(url: string, abort: AbortController): Promise<void> {
    try {
      const res = await fetch(url, { signal: abort.signal, headers: { Accept: 'text/event-stream', ...controlHeaders(url) } });
      if (!res.ok || !res.body) return;
      const decoder = new TextDecoder();
      let buffered = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffered += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const frame = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const data = frame.split('\n').find((l) => l.startsWith('data: '));
          if (data) this.add(JSON.parse(data.slice(6)) as EmulatorRequestEntry);
        }
      }
    } catch {
      // Stopped, aborted or unreachable: the next sync reconnects to whatever runs then.
    }
  }

  private add(e: EmulatorRequestEntry): void {
    if (this.entries[0] && e.seq <= this.entries[0].seq) return;
    this.entries.unshift(e);
    if (this.entries.length > MAX_ENTRIES) this.entries.length = MAX_ENTRIES;
    // One refresh per burst of requests.
    this.refreshTimer ??= setTimeout(() => {
      this.refreshTimer = undefined;
      this.setMessage();
      this.changed.fire();
    }, 100);
  }

  private setMessage(): void {
    if (!this.view) return;
    this.view.message = !this.origin
      ? vscode.l10n.t('No emulator of ours is running. Start one with Platform: Start Local Emulator; its requests appear here as they arrive.')
      : this.entries.length === 0 ? vscode.l10n.t('Connected to the emulator at {0}; no request yet.', this.origin) : undefined;
  }

  getChildren(e?: EmulatorRequestEntry): EmulatorRequestEntry[] {
    return e ? [] : this.shown();
  }

  getTreeItem(e: EmulatorRequestEntry): vscode.TreeItem {
    const item = new vscode.TreeItem(`${e.status || '—'} ${clip(e.operation ?? `${e.method} ${e.path}`, 120)}`);
    const time = e.time.slice(11, 19);
    // AccountNotFound is the service's answer (a deleted or unknown player; what a verification
    // expects), not a failure: a word and an icon of its own, never the error icon.
    const answer = e.error === 'AccountNotFound';
    const error = answer ? vscode.l10n.t('account not found (an answer, not an error)') : e.error ? clip(e.error, 60) : '';
    item.description = [e.titleId ? clip(e.titleId, 20) : '', error, readableDuration(e.durationMs), time].filter(Boolean).join(' · ');
    item.tooltip = [
      `${clip(e.method, 10)} ${clip(e.path, 200)}`,
      vscode.l10n.t('Status {0}{1}', e.status || '—', e.error ? ` ${clip(e.error, 60)} (${e.errorCode ?? ''})` : ''),
      vscode.l10n.t('Credential: {0}', e.credential),
      `${readableDuration(e.durationMs)} · ${readableLocal(e.time)}`,
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon(e.status >= 200 && e.status < 300 ? 'pass' : answer ? 'circle-slash' : 'error');
    item.contextValue = 'emulatorRequest';
    item.command = { command: 'platformExplorer.openEmulatorRequest', title: vscode.l10n.t('Open Request'), arguments: [e.seq] };
    return item;
  }

  dispose(): void {
    this.abort?.abort();
    if (this.timer) clearInterval(this.timer);
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.changed.dispose();
  }
}
