// A request's actions: one per kind asked and master account (never per title), sent through the
// deletion journal and pacer (core/deletion), which record each send before and after it so a
// crash or kill -9 never sends one twice. Journals are the truth of what was sent: a player already
// in any journal of a kind is never put in another; the state file's actions mirror them.
// Order per account: its export, then its events-only erasure, then its erasure; each waits until
// the one before has completed (erasing first would destroy the data the person asked for).
import { randomUUID } from 'node:crypto';
import { confirmDigest, JOURNAL_VERSION, runBatch, type BatchRecord, type PlayerRecord, type RunProgress } from '../deletion';
import { ACTION_OPERATIONS, isSettled, NO_COMPLETION_SIGNAL, RequestError, type Action, type ActionKind, type DataRequest, type RequestServices, type Resolution } from './types';
import type { JournalAccess, RequestStorage } from './storage';

export const ACTION_ORDER: readonly ActionKind[] = ['export', 'events', 'erasure'];
const KIND_OF_ASK = { access: 'export', events: 'events', erasure: 'erasure' } as const;

/** The actions of a resolution: for each account, each kind asked, in order; all but the first wait. */
export function planActions(r: DataRequest, resolution: Resolution): Action[] {
  const kinds = ACTION_ORDER.filter((k) => r.asks.some((a) => KIND_OF_ASK[a] === k));
  return resolution.accounts.flatMap((a) => kinds.map((kind, i): Action => ({
    kind, platformId: a.platformId, titleId: a.senderTitleId, status: i === 0 ? 'planned' : 'waiting',
  })));
}

/** Master accounts the request acts on: the N of what --confirm takes. */
export function accountsActedOn(r: DataRequest): string[] {
  return [...new Set(r.actions.map((a) => a.platformId))];
}

/**
 * What --confirm takes to send the request's actions: "N:DIGEST", N its accounts and DIGEST a digest
 * of the request, its resolution and each action (kind, account, sending title) as the dry run shows
 * them (deletion's confirmDigest), so a value made for one request, or before a re-resolution or a
 * change of its accounts, never sends another. Statuses are left out: the same value sends the
 * erasures once the exports completed.
 */
export function requestConfirmValue(r: DataRequest): string {
  const actions = r.actions.map((a) => `${a.kind} ${a.platformId} ${a.titleId}`).sort();
  return confirmDigest(accountsActedOn(r).length, ['data request', r.id, r.resolution?.at ?? null, actions]);
}

/** Kinds an erasure hold keeps planned. */
const HELD: readonly ActionKind[] = ['erasure', 'events'];

/** When the request's erasure hold ends (ISO time), while it has not; undefined when none holds it at `now`. */
export function heldUntil(r: DataRequest, now: Date = new Date()): string | undefined {
  return r.holdUntil !== undefined && now.toISOString() < r.holdUntil ? r.holdUntil : undefined;
}

/** A waiting action whose account's earlier actions have all completed becomes planned. */
export function releaseWaiting(r: DataRequest): void {
  for (const a of r.actions) {
    if (a.status !== 'waiting') continue;
    const before = r.actions.filter((x) => x.platformId === a.platformId && ACTION_ORDER.indexOf(x.kind) < ACTION_ORDER.indexOf(a.kind));
    if (before.every(isSettled)) a.status = 'planned';
  }
}

/** Each journal of the request read and authenticated: its batch and each player's record. */
export async function readJournals(store: RequestStorage, id: string, services: RequestServices): Promise<{ name: string; kind: ActionKind; batch: BatchRecord; players: Map<string, PlayerRecord> }[]> {
  const out = [];
  for (const j of await store.journalNames(id)) {
    const journal = await store.openJournal(id, j.name, journalOptions(services));
    try {
      out.push({ name: j.name, kind: j.kind, batch: journal.batch, players: journal.players() });
    } finally {
      await journal.close();
    }
  }
  return out;
}

/** How a request's journals are opened: each title's key, and the anchors outside the folder. */
export function journalOptions(services: RequestServices): JournalAccess {
  return { key: (t) => services.key(t), anchors: services.anchors, ...(services.noAnchor === true ? { noAnchor: true } : {}) };
}

/** Mirrors a journal's record of one player into its action. */
export function syncAction(a: Action, p: PlayerRecord): void {
  if (a.status === 'completed' && a.kind !== 'events') return;
  // Recorded "completed" by an older version: the service never says so; accepted is what it said.
  if (a.kind === 'events' && a.status === 'completed') delete a.completedAt;
  a.requestedAt = p.requestedAt ?? a.requestedAt;
  if (p.jobReceiptId !== undefined) a.jobReceiptId = p.jobReceiptId;
  delete a.error;
  switch (p.state) {
    case 'pending': a.status = 'planned'; break;
    case 'unknown': a.status = 'unknown'; a.error = p.error ?? 'sent; no answer was recorded (it may or may not have been taken)'; break;
    case 'failed': a.status = 'failed'; a.error = p.error; break;
    case 'queued':
      // Events-only erasure has no receipt and no completion signal: taken is accepted, never "completed".
      if (a.kind === 'events') Object.assign(a, { status: 'accepted', completedBy: NO_COMPLETION_SIGNAL });
      else if (a.status !== 'completed') a.status = 'queued';
      break;
    case 'verified-deleted':
      if (a.kind === 'erasure') Object.assign(a, { status: 'completed', completedAt: p.verifiedAt ?? p.requestedAt, completedBy: 'AccountNotFound' });
      else Object.assign(a, { status: 'failed', error: 'the service reports no such account (AccountNotFound): it was erased before this could run' });
      break;
  }
}

/** Mirrors every journal into the request's actions. */
export function syncActions(r: DataRequest, journals: readonly { kind: ActionKind; batch?: { titleId: string }; players: Map<string, PlayerRecord> }[], titleId?: string): void {
  for (const j of journals) {
    const title = titleId ?? j.batch?.titleId;
    for (const [pid, p] of j.players) {
      const a = r.actions.find((x) => x.kind === j.kind && x.platformId === pid);
      if (a === undefined) continue;
      // A journal of a title the action moved away from (its export refused there) no longer speaks for it,
      // unless something was taken or may have been there (then that journal is where it stands).
      if (title !== undefined && title !== a.titleId) {
        if (p.intents === 0 || p.state === 'failed' || p.state === 'pending') continue;
        a.titleId = title;
      }
      syncAction(a, p);
    }
  }
}

export interface RunSummary {
  /** Requests sent by this run, per kind. */
  sent: Record<ActionKind, number>;
  /** Actions per status after the run. */
  counts: Record<Action['status'], number>;
  cancelled: boolean;
  /** Set while an erasure hold keeps erasures planned: when it ends (ISO time). */
  heldUntil?: string;
}

/** A --confirm value that is not the one of the request as it is now. */
export class ConfirmMismatch extends RequestError {}

export interface RunOptions {
  /** The dry run's "N:DIGEST" (requestConfirmValue): what the user confirmed, bound to the accounts and actions shown. */
  confirm: string;
  /**
   * Send again the actions sent without a recorded answer (the user's decision: they may have been
   * taken, so an export may be made twice or events deleted twice; the service refuses a second
   * erasure while one is queued). Off by default: nothing is ever sent twice unasked.
   */
  resendUnknown?: boolean;
  onProgress?: (kind: ActionKind, p: RunProgress) => void;
}

/** Moves each export refused with EmailAddressNotAvailable (1006) to the account's next title with a key; false when none moved. */
function nextExportTitle(r: DataRequest, services: RequestServices): boolean {
  let moved = false;
  for (const a of r.actions) {
    if (a.kind !== 'export' || a.status !== 'failed' || !NO_ADDRESS_RE.test(a.error ?? '')) continue;
    const found = r.resolution?.accounts.find((x) => x.platformId === a.platformId)?.foundIn ?? [];
    const next = found.slice(found.indexOf(a.titleId) + 1).find((t) => services.client(t) !== undefined);
    if (next === undefined) continue;
    Object.assign(a, { titleId: next, status: 'planned' });
    delete a.error;
    moved = true;
  }
  return moved;
}

const NO_ADDRESS_RE = /EmailAddressNotAvailable|notification e-mail address|\b1006\b/;

/** Sends the ready actions of one kind through their journals; true when cancelled. */
async function sendKind(
  store: RequestStorage, r: DataRequest, services: RequestServices, kind: ActionKind, ready: Action[],
  journals: Awaited<ReturnType<typeof readJournals>>, sent: Record<ActionKind, number>, o: RunOptions,
): Promise<boolean> {
  // A player already in a journal of this kind is resumed there, never put in a second one; only one
  // refused there (failed) and moved to another title goes in a new journal of that title.
  const inJournal = new Map<string, { name: string; titleId: string; state: string }>();
  for (const j of journals) if (j.kind === kind) for (const [pid, p] of j.players) inJournal.set(pid, { name: j.name, titleId: j.batch.titleId, state: p.state });
  const names = new Set<string>();
  const fresh: Action[] = [];
  for (const a of ready) {
    const known = inJournal.get(a.platformId);
    if (known !== undefined && (known.titleId === a.titleId || known.state !== 'failed')) names.add(known.name);
    else fresh.push(a);
  }
  const titleOf = new Map([...journals.map((j) => [j.name, j.batch.titleId] as const)]);
  for (const titleId of [...new Set(fresh.map((a) => a.titleId))]) {
    const name = await newJournal(store, r, kind, titleId, fresh.filter((a) => a.titleId === titleId).map((a) => a.platformId), services);
    names.add(name);
    titleOf.set(name, titleId);
  }
  let cancelled = false;
  for (const name of names) {
    const title = titleOf.get(name)!;
    const client = services.client(title);
    if (client === undefined) throw new RequestError(`No secret key for title ${title}, whose key sends ${ACTION_OPERATIONS[kind]} for this request; set it and run again.`);
    const journal = await store.openJournal(r.id, name, journalOptions(services));
    try {
      // A send whose answer was not recorded stays unknown unless the user asked to send it again (verify settles erasures).
      const res = await runBatch(client, journal, { resendUnknown: o.resendUnknown === true, signal: services.signal, onProgress: (p) => o.onProgress?.(kind, p) });
      sent[kind] += res.sent;
      cancelled ||= res.cancelled;
      await journal.reload?.();
      syncActions(r, [{ kind, players: journal.players() }], journal.batch.titleId);
    } finally {
      await journal.close();
    }
  }
  return cancelled;
}

/** Sends every action that is ready (loads of the state file and saving it are the caller's). */
export async function sendActions(store: RequestStorage, r: DataRequest, services: RequestServices, o: RunOptions): Promise<RunSummary> {
  if (r.withdrawn !== undefined) throw new RequestError(`Request ${r.id} was withdrawn (${r.withdrawn.at}): nothing more is sent for it.`);
  // Never echoes the right value: it is read from the dry run the user checked.
  if (o.confirm !== requestConfirmValue(r)) {
    throw new ConfirmMismatch(`The confirmation does not match what request ${r.id} acts on now (its accounts and actions, as its dry run shows them): it was made for another request, or before the request changed. Nothing was sent. Run the dry run again, check it, and confirm with the value on its last line.`);
  }
  const sent: Record<ActionKind, number> = { export: 0, events: 0, erasure: 0 };
  let cancelled = false;
  const held = heldUntil(r, services.now?.());
  for (const kind of ACTION_ORDER) {
    // An erasure hold keeps erasures planned until it ends (so a mistaken or fraudulent request can be withdrawn).
    if (held !== undefined && HELD.includes(kind)) continue;
    // An export refused for want of a notification address goes again with the account's next title (bounded by the titles).
    for (let pass = 0; pass <= r.titles.length && !cancelled; pass++) {
      const journals = await readJournals(store, r.id, services);
      syncActions(r, journals);
      releaseWaiting(r);
      if (pass > 0 && !nextExportTitle(r, services)) break;
      if (services.signal?.aborted === true) {
        cancelled = true;
        break;
      }
      const ready = r.actions.filter((a) => a.kind === kind && (a.status === 'planned' || a.status === 'failed' || (o.resendUnknown === true && a.status === 'unknown')));
      if (ready.length === 0) break;
      cancelled = await sendKind(store, r, services, kind, ready, journals, sent, o);
      if (kind !== 'export') break;
    }
    releaseWaiting(r);
  }
  const counts = { planned: 0, waiting: 0, queued: 0, unknown: 0, failed: 0, completed: 0, accepted: 0 };
  for (const a of r.actions) counts[a.status]++;
  return { sent, counts, cancelled, ...(held !== undefined ? { heldUntil: held } : {}) };
}

async function newJournal(store: RequestStorage, r: DataRequest, kind: ActionKind, titleId: string, players: string[], services: RequestServices): Promise<string> {
  const account = (pid: string): string[] => r.resolution?.accounts.find((a) => a.platformId === pid)?.titleIds ?? [];
  const batch: BatchRecord = {
    type: 'batch', version: JOURNAL_VERSION, batchId: randomUUID(), titleId, kind: 'platform-id',
    // DeleteMasterPlayerAccount's MetaData comes back in its completion event: how the ticket is matched.
    metaData: `${r.reference} (${r.id})`.slice(0, 1000),
    createdAt: new Date().toISOString(),
    entries: players.map((pid, i) => ({ line: i + 1, input: pid, status: 'delete', platformId: pid, titleIds: account(pid) })),
    ...(kind === 'erasure' ? {} : { operation: ACTION_OPERATIONS[kind] as 'ExportMasterPlayerData' | 'DeleteMasterPlayerEventData' }),
  };
  return store.createJournal(r.id, kind, titleId, batch, journalOptions(services));
}
