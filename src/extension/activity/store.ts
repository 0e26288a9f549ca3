// The Activity history: one entry per operation run through the extension, kept in
// globalState across restarts. Entries hold only operation names, title IDs, outcome codes,
// durations and receipt IDs (every field is checked on write and read): never a secret.
import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';

export type ActivityOutcome = 'succeeded' | 'failed' | 'cancelled' | 'outcomeUnknown';

export interface ActivityEntry {
  /** ISO 8601 UTC start time. */
  time: string;
  /** The command that ran, e.g. platformExplorer.showPlayedTitles. */
  command: string;
  /** The API operation(s) it ran, e.g. GetPlayedTitleList. */
  operation: string;
  titleId?: string;
  outcome: ActivityOutcome;
  /** The service's numeric error code, when it gave one. */
  errorCode?: number;
  durationMs: number;
  jobReceiptId?: string;
  /** What happened in words, where the outcome alone misleads: "dry run", "nothing sent", "cancelled (12 of 20 queued)". */
  note?: string;
  /** Every title acted on, when more than one (titleId is the last). */
  titles?: string[];
  /** The entry's name where the operation alone says too little: "Run data request PRIV-0412". */
  summary?: string;
}

const STATE_KEY = 'platformExplorer.activity';
/** The newest entries kept; older ones are dropped. */
const MAX_ACTIVITY = 500;
const OUTCOMES: readonly ActivityOutcome[] = ['succeeded', 'failed', 'cancelled', 'outcomeUnknown'];
const SAFE = {
  time: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/,
  command: /^platformExplorer\.[A-Za-z.]{1,60}$/,
  operation: /^[A-Za-z, ]{1,200}$/,
  titleId: /^[0-9A-F]{4,16}$/,
  jobReceiptId: /^[A-Za-z0-9-]{1,64}$/,
  note: /^[A-Za-z0-9 (),.]{1,80}$/,
  // A command's words and a ticket reference: letters, digits and plain punctuation, no control or markup.
  summary: /^[\p{L}\p{N} ()\-_.,:#/'·]{1,120}$/u,
};
const MAX_TITLES = 50;

/** The entry with only checked fields, or undefined when a required one is malformed. */
// eslint-disable-next-line complexity -- one check per member of a stored entry, kept or dropped on its own
export function cleanEntry(v: unknown): ActivityEntry | undefined {
  if (typeof v !== 'object' || v === null) {
    return undefined;
  }
  const o = v as Record<string, unknown>;
  const ok = (name: keyof typeof SAFE): string | undefined =>
    typeof o[name] === 'string' && SAFE[name].test(o[name]) ? o[name] : undefined;
  const time = ok('time');
  const command = ok('command');
  const operation = ok('operation');
  const outcome = OUTCOMES.find((x) => x === o.outcome);
  const durationMs = typeof o.durationMs === 'number' && Number.isFinite(o.durationMs) && o.durationMs >= 0 ? Math.round(o.durationMs) : undefined;
  if (!time || !command || !operation || !outcome || durationMs === undefined) {
    return undefined;
  }
  const titleId = ok('titleId');
  const jobReceiptId = ok('jobReceiptId');
  const note = ok('note');
  const summary = ok('summary');
  const titles = Array.isArray(o.titles) ? o.titles.filter((t): t is string => typeof t === 'string' && SAFE.titleId.test(t)).slice(0, MAX_TITLES) : [];
  const errorCode = Number.isInteger(o.errorCode) ? (o.errorCode as number) : undefined;
  return {
    time, command, operation, outcome, durationMs,
    ...(titleId ? { titleId } : {}),
    ...(errorCode !== undefined ? { errorCode } : {}),
    ...(jobReceiptId ? { jobReceiptId } : {}),
    ...(note ? { note } : {}),
    ...(titles.length > 1 ? { titles } : {}),
    ...(summary ? { summary } : {}),
  };
}

export class ActivityStore extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: vscode.Memento) {
    super();
  }

  /** Oldest first. */
  all(): ActivityEntry[] {
    const raw = this.memento.get<unknown>(STATE_KEY);
    return Array.isArray(raw) ? raw.map(cleanEntry).filter((e): e is ActivityEntry => e !== undefined) : [];
  }

  async add(entry: ActivityEntry): Promise<void> {
    const clean = cleanEntry(entry);
    if (!clean) {
      return;
    }
    const list = [...this.all(), clean].slice(-MAX_ACTIVITY);
    await this.memento.update(STATE_KEY, list);
    this.changed.fire();
  }

  async clear(): Promise<void> {
    await this.memento.update(STATE_KEY, undefined);
    this.changed.fire();
  }
}
