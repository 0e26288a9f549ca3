// The unit build's `vscode` (esbuild.mjs resolves `vscode` to this file for test/unit only): a
// small typed double of the parts of the API command logic uses, so a command runs in plain Node.
// The prompts themselves are not here: commands ask through CommandUi (src/extension/commands/
// context.ts), which tests build over a scripted Prompts (./commandHarness.ts). What is here:
// l10n, events and cancellation, tree items, Uri, a text document store with an active editor,
// the clipboard, configuration defaults, SecretStorage and Memento.
import type * as vscodeTypes from 'vscode';

export const l10n = {
  t(message: string | { message: string; args?: unknown[] }, ...args: unknown[]): string {
    const text = typeof message === 'string' ? message : message.message;
    const values = typeof message === 'string' ? args : (message.args ?? []);
    return text.replace(/\{(\d+)\}/g, (_, i: string) => String(values[Number(i)]));
  },
};

export class Disposable {
  constructor(private readonly onDispose: () => void = () => undefined) {}
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((d) => d.dispose()));
  }
  dispose(): void {
    this.onDispose();
  }
}

export class EventEmitter<T> {
  private listeners: ((e: T) => unknown)[] = [];
  readonly event = (listener: (e: T) => unknown): Disposable => {
    this.listeners.push(listener);
    return new Disposable(() => { this.listeners = this.listeners.filter((l) => l !== listener); });
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  readonly token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };
  cancel(): void {
    if (this.token.isCancellationRequested) return;
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

export class Uri {
  private constructor(readonly scheme: string, readonly authority: string, readonly path: string, readonly query: string, readonly fragment: string) {}
  get fsPath(): string {
    return this.path;
  }
  static file(path: string): Uri {
    return new Uri('file', '', path, '', '');
  }
  static parse(value: string): Uri {
    const u = new URL(value);
    return new Uri(u.protocol.replace(/:$/, ''), u.host, decodeURIComponent(u.pathname), u.search.replace(/^\?/, ''), u.hash.replace(/^#/, ''));
  }
  static from(c: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(c.scheme, c.authority ?? '', c.path ?? '', c.query ?? '', c.fragment ?? '');
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return base.with({ path: [base.path.replace(/\/$/, ''), ...parts].join('/') });
  }
  with(c: { scheme?: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(c.scheme ?? this.scheme, c.authority ?? this.authority, c.path ?? this.path, c.query ?? this.query, c.fragment ?? this.fragment);
  }
  toString(): string {
    return `${this.scheme}:${this.authority ? `//${this.authority}` : ''}${this.path}${this.query ? `?${this.query}` : ''}${this.fragment ? `#${this.fragment}` : ''}`;
  }
}

export enum TreeItemCollapsibleState { None = 0, Collapsed = 1, Expanded = 2 }
export enum ProgressLocation { SourceControl = 1, Window = 10, Notification = 15 }
export enum StatusBarAlignment { Left = 1, Right = 2 }
export enum ViewColumn { Active = -1, Beside = -2, One = 1 }
export enum ConfigurationTarget { Global = 1, Workspace = 2, WorkspaceFolder = 3 }
export enum QuickPickItemKind { Separator = -1, Default = 0 }
export enum FileType { Unknown = 0, File = 1, Directory = 2, SymbolicLink = 64 }

export class ThemeIcon {
  constructor(readonly id: string, readonly color?: ThemeColor) {}
}
export class ThemeColor {
  constructor(readonly id: string) {}
}
export class MarkdownString {
  constructor(public value = '', public supportThemeIcons = false) {}
  appendMarkdown(s: string): this {
    this.value += s;
    return this;
  }
  appendText(s: string): this {
    this.value += s;
    return this;
  }
}
export class TreeItem {
  description?: string | boolean;
  tooltip?: string | MarkdownString;
  contextValue?: string;
  iconPath?: ThemeIcon;
  id?: string;
  command?: unknown;
  accessibilityInformation?: { label: string; role?: string };
  resourceUri?: Uri;
  constructor(public label: string | { label: string }, public collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None) {}
}

export class Position {
  constructor(readonly line: number, readonly character: number) {}
}
export class Range {
  constructor(readonly start: Position, readonly end: Position) {}
  get isEmpty(): boolean {
    return this.start.line === this.end.line && this.start.character === this.end.character;
  }
}
export class Selection extends Range {
  constructor(readonly anchor: Position, readonly active: Position) {
    super(anchor, active);
  }
}

/** A text document the double holds (openTextDocument's result). */
export interface DoubleDocument {
  readonly uri: Uri;
  readonly languageId: string;
  getText(): string;
}

/** What a test sets and reads: the documents opened, the clipboard, the active editor, settings. */
export const double = {
  documents: [] as DoubleDocument[],
  clipboard: '',
  activeTextEditor: undefined as vscodeTypes.TextEditor | undefined,
  settings: {} as Record<string, unknown>,
  reset(): void {
    this.documents = [];
    this.clipboard = '';
    this.activeTextEditor = undefined;
    this.settings = {};
  },
};

export const env = {
  clipboard: {
    readText: async (): Promise<string> => double.clipboard,
    writeText: async (text: string): Promise<void> => { double.clipboard = text; },
  },
  language: 'en',
  appName: 'Unit',
  uriScheme: 'vscode',
};

export const window = {
  get activeTextEditor(): vscodeTypes.TextEditor | undefined {
    return double.activeTextEditor;
  },
  visibleTextEditors: [] as vscodeTypes.TextEditor[],
  async showTextDocument(doc: DoubleDocument): Promise<{ document: DoubleDocument }> {
    return { document: doc };
  },
  setStatusBarMessage: (): Disposable => new Disposable(),
  createOutputChannel: (): Record<string, (...a: unknown[]) => void> => ({
    trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined,
    appendLine: () => undefined, show: () => undefined, dispose: () => undefined,
  }),
};

export const workspace = {
  isTrusted: true,
  getConfiguration: (section?: string) => ({
    get: <T>(key: string, fallback?: T): T | undefined => (double.settings[`${section}.${key}`] as T | undefined) ?? fallback,
    inspect: (key: string) => ({ key, globalValue: double.settings[`${section}.${key}`] }),
    has: (key: string): boolean => `${section}.${key}` in double.settings,
    update: async (): Promise<void> => undefined,
  }),
  /** The documents open (a result document's URI is fresh while one of its name is open). */
  get textDocuments(): readonly DoubleDocument[] {
    return double.documents;
  },
  /** A Uri's text from its scheme's content provider (result documents), else empty; or an untitled document. */
  async openTextDocument(o: { content?: string; language?: string } | Uri): Promise<DoubleDocument> {
    const provider = o instanceof Uri ? providers.get(o.scheme) : undefined;
    const content = o instanceof Uri ? String((await provider?.provideTextDocumentContent(o as unknown as vscodeTypes.Uri, new CancellationTokenSource().token as unknown as vscodeTypes.CancellationToken)) ?? '') : (o.content ?? '');
    const doc: DoubleDocument = { uri: o instanceof Uri ? o : Uri.from({ scheme: 'untitled', path: `Untitled-${double.documents.length + 1}` }), languageId: o instanceof Uri ? 'plaintext' : (o.language ?? 'plaintext'), getText: () => content };
    double.documents.push(doc);
    return doc;
  },
  onDidChangeConfiguration: new EventEmitter<unknown>().event,
  onDidCloseTextDocument: new EventEmitter<DoubleDocument>().event,
  registerTextDocumentContentProvider(scheme: string, provider: vscodeTypes.TextDocumentContentProvider): Disposable {
    providers.set(scheme, provider);
    return new Disposable(() => providers.delete(scheme));
  },
};

const providers = new Map<string, vscodeTypes.TextDocumentContentProvider>();

export const languages = {
  getLanguages: async (): Promise<string[]> => ['plaintext', 'json', 'markdown'],
  async setTextDocumentLanguage(doc: DoubleDocument, languageId: string): Promise<DoubleDocument> {
    const changed = { ...doc, languageId };
    double.documents[double.documents.indexOf(doc)] = changed;
    return changed;
  },
};

export const commands = {
  executed: [] as { command: string; args: unknown[] }[],
  async executeCommand(command: string, ...args: unknown[]): Promise<unknown> {
    this.executed.push({ command, args });
    return undefined;
  },
};

/** vscode.SecretStorage, in memory. */
export class SecretStorageDouble implements vscodeTypes.SecretStorage {
  private readonly values = new Map<string, string>();
  private readonly changed = new EventEmitter<vscodeTypes.SecretStorageChangeEvent>();
  readonly onDidChange = this.changed.event as unknown as vscodeTypes.Event<vscodeTypes.SecretStorageChangeEvent>;
  async keys(): Promise<string[]> {
    return [...this.values.keys()];
  }
  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    this.changed.fire({ key });
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
    this.changed.fire({ key });
  }
}

/** vscode.Memento (globalState), in memory. */
export class MementoDouble implements vscodeTypes.Memento {
  private readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : fallback;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }
  setKeysForSync(): void {}
}
