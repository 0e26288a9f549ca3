// The steps of a request, each one load -> lock -> act -> save, shared by the editor and the
// command line (index.ts lists them). What the dry run shows is what `--confirm N:DIGEST` sends.
import type { OperatorRef } from '../operator';
import { heldUntil, planActions, readJournals, releaseWaiting, requestConfirmValue, sendActions, syncActions, type RunOptions, type RunSummary } from './actions';
import { isOverdue, newRequest, requestState, type NewRequest } from './model';
import { resolveRequest } from './resolve';
import type { RequestStorage } from './storage';
import { noteStep, withRequest, type Rebase } from './withRequest';
import { NOT_FOUND_WHY } from './words';
import { verifyActions, recordLink, type VerifySummary } from './verify';
import { ACTION_OPERATIONS, RequestError, type Action, type DataRequest, type Identifier, type IdentifierKind, type RequestServices, type RequestState } from './types';

export type { RunOptions, RunSummary } from './actions';
export { ConfirmMismatch, heldUntil, requestConfirmValue } from './actions';
export { NoAnchorError } from './seal';
export type { VerifySummary } from './verify';
export type { EvidenceCheck } from './evidenceCheck';
export { checkEvidence } from './evidenceCheck';
export { linkProblem } from './verify';

export async function createRequest(store: RequestStorage, o: NewRequest, operator?: OperatorRef): Promise<DataRequest> {
  const r = newRequest(o);
  noteStep(r, 'new', operator, r.createdAt);
  await store.create(r);
  return r;
}

export interface DryRunAccount {
  platformId: string;
  /** Titles of its publisher it played (GetPlayedTitleList). */
  titleIds: string[];
  foundIn: string[];
  senderTitleId: string;
  identifiers: Identifier[];
  actions: { kind: Action['kind']; operation: string; titleId: string; status: Action['status'] }[];
  error?: string;
}

export interface DryRun {
  id: string;
  reference: string;
  state: RequestState;
  due: string;
  overdue: boolean;
  /** One per master account the request acts on; `--confirm` takes accounts.length. */
  accounts: DryRunAccount[];
  /** Identifiers no asked title knows. */
  notFound: Identifier[];
  /** Why a miss of these kinds says little about the person (NOT_FOUND_WHY), once per kind among notFound. */
  notFoundWhy: { kind: IdentifierKind; why: string }[];
  /** Identifiers whose lookup failed in a title (unknown there, not "nothing"). */
  unresolved: { identifier: Identifier; titleId: string; error: string }[];
  titlesSkipped: { titleId: string; reason: string }[];
  /** Lookups not sent in a title, and why (display names on a title that allows non-unique ones). */
  lookupsSkipped: { identifier: Identifier; titleId: string; reason: string }[];
  /** PlatformIds found whose account is already gone (AccountNotFound). */
  gone: string[];
  /** What --confirm takes: "N:DIGEST", N the accounts (requestConfirmValue). */
  confirm: string;
  /** While an erasure hold lasts: when it ends (ISO time); erasures stay planned until then. */
  heldUntil?: string;
  holdDays?: number;
}

/** What the request does, from its state file (no call). */
export function describe(r: DataRequest, now = new Date()): DryRun {
  const res = r.resolution;
  const accounts = (res?.accounts ?? []).filter((a) => r.actions.some((x) => x.platformId === a.platformId)).map((a): DryRunAccount => ({
    platformId: a.platformId, titleIds: a.titleIds, foundIn: a.foundIn, senderTitleId: a.senderTitleId,
    identifiers: a.identifiers.map((i) => r.identifiers[i]),
    actions: r.actions.filter((x) => x.platformId === a.platformId).map((x) => ({ kind: x.kind, operation: ACTION_OPERATIONS[x.kind], titleId: x.titleId, status: x.status })),
    ...(a.error !== undefined ? { error: a.error } : {}),
  }));
  const found = new Set((res?.findings ?? []).filter((f) => f.platformId !== null).map((f) => f.identifier));
  const failed = (res?.findings ?? []).filter((f) => f.error !== undefined);
  // Not found: asked somewhere (a finding), found nowhere, failed nowhere; one skipped in every title was not asked.
  const asked = new Set((res?.findings ?? []).map((f) => f.identifier));
  const notFound = res === undefined ? [] : r.identifiers.filter((_, i) => asked.has(i) && !found.has(i) && !failed.some((f) => f.identifier === i));
  return {
    id: r.id, reference: r.reference, state: requestState(r), due: r.due, overdue: isOverdue(r, now), accounts,
    notFound, notFoundWhy: [...new Set(notFound.map((x) => x.kind))].flatMap((kind) => (NOT_FOUND_WHY[kind] !== undefined ? [{ kind, why: NOT_FOUND_WHY[kind] }] : [])),
    unresolved: failed.map((f) => ({ identifier: r.identifiers[f.identifier], titleId: f.titleId, error: f.error! })),
    titlesSkipped: res?.titlesSkipped ?? [],
    lookupsSkipped: (res?.lookupsSkipped ?? []).map((s) => ({ identifier: r.identifiers[s.identifier], titleId: s.titleId, reason: s.reason })),
    gone: res?.gone ?? [], confirm: requestConfirmValue(r),
    ...(heldUntil(r, now) !== undefined ? { heldUntil: r.holdUntil, holdDays: r.holdDays } : {}),
  };
}

/** The dry run: resolves the request the first time (every title with a key asked, paced) and plans its actions; sends nothing else. */
export async function dryRun(store: RequestStorage, id: string, services: RequestServices): Promise<DryRun> {
  return withRequest(store, id, async (r) => {
    if (r.closedAt !== undefined) throw new RequestError(`Request ${id} is closed; nothing is run for it.`);
    if (r.withdrawn !== undefined) throw new RequestError(`Request ${id} was withdrawn (${r.withdrawn.at}): nothing more is looked up or sent for it.`);
    if (r.resolution === undefined) {
      noteStep(r, 'dry-run', services.operator, (services.now?.() ?? new Date()).toISOString());
      const resolution = await resolveRequest(r, services);
      if (resolution.titlesAsked.length === 0) throw new RequestError(`No title of request ${id} has a secret key (${r.titles.join(', ')}): nothing could be looked up. Set the keys and run again.`);
      r.resolution = resolution;
      r.actions = planActions(r, resolution);
    }
    return describe(r, services.now?.());
  });
}

/** A run or check that raced another on the team store: the actions read again from the journals; exports this one found completed kept. */
function fromJournals(store: RequestStorage, services: RequestServices): Rebase {
  return async (latest, mine) => {
    syncActions(latest, await readJournals(store, latest.id, services));
    for (const a of mine.actions) {
      const there = latest.actions.find((x) => x.kind === a.kind && x.platformId === a.platformId);
      if (there !== undefined && a.status === 'completed' && there.status !== 'completed') Object.assign(there, a);
    }
    releaseWaiting(latest);
  };
}

/** Sends the request's ready actions after the typed confirmation (the dry run's number of accounts). */
export async function runActions(store: RequestStorage, id: string, services: RequestServices, o: RunOptions): Promise<RunSummary & { request: DataRequest }> {
  return withRequest(store, id, async (r) => {
    if (r.closedAt !== undefined) throw new RequestError(`Request ${id} is closed; nothing is sent for it.`);
    if (r.resolution === undefined) throw new RequestError(`Request ${id} has not been resolved: run its dry run first and check the accounts it acts on.`);
    noteStep(r, 'run', services.operator, (services.now?.() ?? new Date()).toISOString());
    const summary = await sendActions(store, r, services, o);
    return { ...summary, request: r };
  }, fromJournals(store, services));
}

/**
 * Withdraws a request (the person or the team called it off, or it was mistaken or fraudulent):
 * nothing more is sent for it; what was already sent stays recorded, and the evidence says when and why.
 */
export async function withdrawRequest(store: RequestStorage, id: string, reason: string, now: Date = new Date()): Promise<DataRequest> {
  const why = reason.trim();
  if (why.length === 0 || why.length > 500 || /[\u0000-\u001f\u007f-\u009f]/.test(why)) throw new RequestError('The reason for withdrawing must be 1 to 500 characters without control characters.');
  return withRequest(store, id, async (r) => {
    if (r.closedAt !== undefined) throw new RequestError(`Request ${id} is closed; it cannot be withdrawn.`);
    if (r.withdrawn !== undefined) throw new RequestError(`Request ${id} was already withdrawn (${r.withdrawn.at}); nothing was changed.`);
    r.withdrawn = { at: now.toISOString(), reason: why };
    return r;
  });
}

/** Checks queued erasures (AccountNotFound) and exports (their event) once. */
export async function verifyRequest(store: RequestStorage, id: string, services: RequestServices): Promise<VerifySummary & { request: DataRequest }> {
  return withRequest(store, id, async (r) => {
    noteStep(r, 'verify', services.operator, (services.now?.() ?? new Date()).toISOString());
    return { ...(await verifyActions(store, r, services)), request: r };
  }, fromJournals(store, services));
}

/** Records an export's download link (from the e-mail): it completes the export with that JobReceiptId. */
export async function recordExportLink(store: RequestStorage, id: string, receipt: string, url: string, operator?: OperatorRef): Promise<DataRequest> {
  return withRequest(store, id, async (r) => {
    if (r.closedAt !== undefined) throw new RequestError(`Request ${id} is closed; nothing was changed.`);
    noteStep(r, 'record-export', operator, new Date().toISOString());
    recordLink(r, receipt, url);
    return r;
  });
}

