// Messages between a panel's host (extension side) and its page (webview side), plus the
// view model the host sends. Both sides import this file, so it must stay free of DOM and
// `vscode` types. Everything in a view model is already redacted by the host.

export type PanelKind = 'loginResult' | 'handheldStore';

/** Secrets the page may ask the host to copy; the page itself only ever sees them masked. */
const COPY_FIELDS = ['EntityToken', 'SessionTicket'] as const;
export type CopyField = (typeof COPY_FIELDS)[number];

/** Buttons in a panel's toolbar. */
export type PanelAction = 'openJson' | 'refresh';

export interface FieldRow {
  label: string;
  /** null: the service did not return it. */
  value: string | null;
  /** Set on masked secrets: the row gets a "Copy" button that asks the host. */
  copy?: CopyField;
}

export interface FieldsBlock {
  kind: 'fields';
  rows: FieldRow[];
}

export interface TableBlock {
  kind: 'table';
  /** Empty when the enclosing section's heading names the table. */
  caption: string;
  columns: string[];
  rows: string[][];
  /** Shown instead of the table when there are no rows. */
  emptyText: string;
}

export interface NoteBlock {
  kind: 'note';
  text: string;
}

export interface SectionBlock {
  kind: 'section';
  /** Stable id, used to remember whether the section is open. */
  id: string;
  heading: string;
  /** Open unless the user closed it. */
  open: boolean;
  blocks: Block[];
}

export type Block = FieldsBlock | TableBlock | NoteBlock | SectionBlock;

export interface PanelView {
  kind: PanelKind;
  heading: string;
  subheading: string;
  actions: PanelAction[];
  blocks: Block[];
}

// ---- host -> page ----------------------------------------------------------------

export interface RenderMessage {
  type: 'render';
  view: PanelView;
}

export interface ErrorMessage {
  type: 'error';
  /** Plain text, already redacted. */
  message: string;
  /** The label of the action that fixes it (as a command's error offers it); the page's button sends 'fix'. */
  fix?: string;
}

/** A short confirmation ("Copied the session ticket…") for the panel's live status line. */
export interface StatusMessage {
  type: 'status';
  /** Plain text, no secret. */
  message: string;
}

export type HostToPage = RenderMessage | ErrorMessage | StatusMessage;

// ---- page -> host ----------------------------------------------------------------

export type PageToHost =
  | { type: 'ready' }
  | { type: 'copy'; field: CopyField }
  | { type: 'openJson' }
  | { type: 'refresh' }
  | { type: 'fix' };

/** The host checks every message: a page is less trusted than the host. */
export function isPageToHost(m: unknown): m is PageToHost {
  if (typeof m !== 'object' || m === null) return false;
  const t = (m as { type?: unknown }).type;
  if (t === 'ready' || t === 'openJson' || t === 'refresh' || t === 'fix') return true;
  if (t === 'copy') return (COPY_FIELDS as readonly unknown[]).includes((m as { field?: unknown }).field);
  return false;
}

/** What a page keeps in `vscode.setState` so a reloaded page comes back as it was. */
export interface PageState {
  view?: PanelView;
  /** The last error, shown above the view (a failed refresh keeps the old view). */
  error?: string;
  /** The label of the error's fixing action, if any. */
  fix?: string;
  /** Section id -> open, for sections the user toggled. */
  open?: Record<string, boolean>;
}
