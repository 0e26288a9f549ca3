// Feeds the Activity history from one place: the command wrapper runs each command in an
// async context; the clients note the title and every request's operation into it.
import type { CommandId } from '../commandIds';
import { AsyncLocalStorage } from 'node:async_hooks';
import { PlatformError } from '../../core/api/errors';
import { busyTime } from '../../core/busyTime';
import { OPERATIONS, type OperationName } from '../../core/api/operations';
import { isSilent } from '../errors';
import type { ActivityEntry, ActivityOutcome, ActivityStore } from './store';

interface Run {
  titleId?: string;
  /** Every title the command acted on, in order. */
  titles: string[];
  /** What the entry is called where the command name alone says too little ("Run data request PRIV-0412"). */
  summary?: string;
  /** The command asked to be recorded though it sent nothing (Record Export Link…). */
  record?: boolean;
  operations: string[];
  /** Each request attempt's [start, end] in ms: the duration is the time the service was waited on, not the prompts. */
  requests: [number, number][];
  /** A client was asked for: the command reached the point of talking to the service. */
  usedService: boolean;
  /** A failure the command showed where it belongs (a panel) instead of throwing it. */
  failure?: unknown;
  /** What happened, in words, where the outcome alone misleads ("dry run", "nothing sent"). */
  note?: string;
  cancelled?: boolean;
}

const current = new AsyncLocalStorage<Run>();

/**
 * The operations each command stands for, as its registration declares them (commands/index.ts,
 * the one place): Activity names the command's runs by them, and offers a re-run only where every
 * one of them only reads (the table's `mutating`).
 */
const COMMAND_OPERATIONS = new Map<string, readonly OperationName[]>();

export function declareOperations(command: CommandId, operations: readonly OperationName[]): void {
  COMMAND_OPERATIONS.set(command, operations);
}

/** A command whose declared operations all only read, run on a title: the only entries Activity offers to re-run. */
export function isRerunnable(e: ActivityEntry): boolean {
  const declared = COMMAND_OPERATIONS.get(e.command) ?? [];
  // What the entry says was sent counts too (an entry from an older version, or written by hand).
  const sent = e.operation.split(', ').filter((op): op is OperationName => Object.hasOwn(OPERATIONS, op));
  return declared.length > 0 && [...declared, ...sent].every((op) => !OPERATIONS[op].mutating) && e.titleId !== undefined;
}

/** Called by Clients.get: the title the running command acts on. */
export function noteTitle(titleId: string): void {
  const run = current.getStore();
  if (run) {
    run.titleId = titleId;
    if (!run.titles.includes(titleId)) run.titles.push(titleId);
    run.usedService = true;
  }
}

/**
 * Called by a command: what happened in words ("dry run", "nothing sent", "cancelled (12 of 20
 * queued)"); `summary` names the entry ("Run data request PRIV-0412"); `record` keeps an entry of a
 * command that sent nothing (Record Export Link…).
 */
export function noteActivity(note: string | undefined, o: { cancelled?: boolean; summary?: string; record?: boolean } = {}): void {
  const run = current.getStore();
  if (!run) return;
  if (note !== undefined) run.note = note;
  if (o.cancelled === true) run.cancelled = true;
  if (o.summary !== undefined) run.summary = o.summary;
  if (o.record === true) run.record = true;
}

/** A command with no API operation of its own, named in words: "Verify Deletions", never its command ID. */
function readableCommand(command: string): string {
  const words = command.replace(/^platformExplorer\.(tool\.)?/, '').replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[^A-Za-z ]/g, ' ').trim();
  return words.length > 0 ? words.charAt(0).toUpperCase() + words.slice(1) : 'Command';
}

/** Called after every request attempt: the API operation (as `Area/Name` or `Name`) and how long it took. */
export function noteOperation(operation: string, durationMs = 0, now = Date.now()): void {
  const run = current.getStore();
  if (!run) return;
  const name = operation.split('/').pop() ?? operation;
  if (!run.operations.includes(name)) run.operations.push(name);
  run.requests.push([now - Math.max(0, durationMs), now]);
}

/**
 * Called where a command shows a failure itself (in a panel) and returns normally: Activity
 * records the run as failed all the same. Outside a command (a panel's Refresh) it does nothing.
 */
export function noteFailure(e: unknown): void {
  const run = current.getStore();
  if (run) run.failure = e;
}

function outcomeOf(e: unknown): { outcome: ActivityOutcome; errorCode?: number } {
  if (isSilent(e)) {
    return { outcome: 'cancelled' };
  }
  if (e instanceof PlatformError) {
    return { outcome: e.outcomeUnknown ? 'outcomeUnknown' : 'failed', errorCode: e.errorCode };
  }
  return { outcome: 'failed' };
}

/** A command that was cancelled part-way and returned what it had (`{ cancelled: true }`) counts as cancelled. */
function cancelledPartWay(result: unknown): boolean {
  return typeof result === 'object' && result !== null && (result as Record<string, unknown>).cancelled === true;
}

function receiptOf(result: unknown): string | undefined {
  const r = typeof result === 'object' && result !== null ? (result as Record<string, unknown>).JobReceiptId : undefined;
  return typeof r === 'string' ? r : undefined;
}

/** Runs a command and records it in Activity when it talked to the service. */
/** What ran: a command, or a language model tool (named `platformExplorer.tool.<name>`). */
export type ActivitySource = CommandId | `platformExplorer.tool.${string}`;

export async function recordActivity<T>(store: ActivityStore, command: ActivitySource, run: () => Promise<T>): Promise<T> {
  const state: Run = { operations: [], titles: [], requests: [], usedService: false };
  const started = Date.now();
  // eslint-disable-next-line complexity -- what one finished command records: each optional member of the entry (counted as branches)
  const record = async (outcome: { outcome: ActivityOutcome; errorCode?: number }, receipt?: string): Promise<void> => {
    if (!state.usedService && state.operations.length === 0 && state.record !== true) {
      return;
    }
    // A command that names its entry (a data request's steps) lists the operations it actually sent, not all it may send.
    const operation = state.summary !== undefined
      ? state.operations.join(', ') || 'none'
      : COMMAND_OPERATIONS.get(command)?.join(', ') ?? (state.operations.join(', ') || readableCommand(command));
    const service = busyTime(state.requests);
    // A cancel before any request went out says so, rather than "cancelled · 0 ms".
    const note = state.note ?? (outcome.outcome === 'cancelled' && state.requests.length === 0 ? 'cancelled before anything was sent' : undefined);
    await store.add({
      time: new Date(service.start ?? started).toISOString(),
      command,
      operation,
      titleId: state.titleId,
      ...(state.titles.length > 1 ? { titles: state.titles } : {}),
      ...(state.summary !== undefined ? { summary: state.summary } : {}),
      ...outcome,
      durationMs: service.ms,
      jobReceiptId: receipt,
      ...(note !== undefined ? { note } : {}),
    });
  };
  try {
    const result = await current.run(state, run);
    if (state.failure !== undefined) await record(outcomeOf(state.failure));
    else await record({ outcome: state.cancelled === true || cancelledPartWay(result) ? 'cancelled' : 'succeeded' }, receiptOf(result));
    return result;
  } catch (e) {
    await record(outcomeOf(e));
    throw e;
  }
}
