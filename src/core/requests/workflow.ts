// The steps of a request, each one load -> lock -> act -> save, shared by the editor and the
// command line (index.ts lists them). What the dry run shows is what `--confirm N` sends.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Journal } from '../deletion';
import { writeWhole } from '../ownFiles';
import { heldUntil, journalNames, planActions, requestConfirmValue, sendActions, type RunOptions, type RunSummary } from './actions';
import { chain, evidenceBodies, evidenceJson, piiHash, type Evidence } from './evidence';
import { checkEvidence, dropPersonalValues, type EvidenceCheck } from './evidenceCheck';
import { evidenceMarkdown } from './evidenceMarkdown';
import { closeProblem, isOverdue, newRequest, requestState, type NewRequest } from './model';
import { resolveRequest } from './resolve';
import type { RequestStore } from './store';
import { verifyActions, recordLink, type VerifySummary } from './verify';
import { ACTION_OPERATIONS, RequestError, type Action, type DataRequest, type Identifier, type RequestServices, type RequestState } from './types';

export type { RunOptions, RunSummary } from './actions';
export { ConfirmMismatch, heldUntil, requestConfirmValue } from './actions';
export { NoAnchorError } from './seal';
export type { VerifySummary } from './verify';
export type { EvidenceCheck } from './evidenceCheck';
export { checkEvidence } from './evidenceCheck';
export { linkProblem } from './verify';

/** Runs `fn` on the request under its lock and saves what it changed. */
async function withRequest<T>(store: RequestStore, id: string, fn: (r: DataRequest) => Promise<T>): Promise<T> {
  const unlock = await store.lock(id);
  try {
    // Authenticated before anything is sent or changed: a state file changed by anything but the tool is refused.
    const r = await store.loadChecked(id);
    try {
      return await fn(r);
    } finally {
      // What was sent or learned is kept even when a later step fails.
      await store.save(r);
    }
  } finally {
    await unlock();
  }
}

export async function createRequest(store: RequestStore, o: NewRequest): Promise<DataRequest> {
  const r = newRequest(o);
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
  /** Identifiers whose lookup failed in a title (unknown there, not "nothing"). */
  unresolved: { identifier: Identifier; titleId: string; error: string }[];
  titlesSkipped: { titleId: string; reason: string }[];
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
  return {
    id: r.id, reference: r.reference, state: requestState(r), due: r.due, overdue: isOverdue(r, now), accounts,
    notFound: res === undefined ? [] : r.identifiers.filter((_, i) => !found.has(i) && !failed.some((f) => f.identifier === i)),
    unresolved: failed.map((f) => ({ identifier: r.identifiers[f.identifier], titleId: f.titleId, error: f.error! })),
    titlesSkipped: res?.titlesSkipped ?? [], gone: res?.gone ?? [], confirm: requestConfirmValue(r),
    ...(heldUntil(r, now) !== undefined ? { heldUntil: r.holdUntil, holdDays: r.holdDays } : {}),
  };
}

/** The dry run: resolves the request the first time (every title with a key asked, paced) and plans its actions; sends nothing else. */
export async function dryRun(store: RequestStore, id: string, services: RequestServices): Promise<DryRun> {
  return withRequest(store, id, async (r) => {
    if (r.closedAt !== undefined) throw new RequestError(`Request ${id} is closed; nothing is run for it.`);
    if (r.withdrawn !== undefined) throw new RequestError(`Request ${id} was withdrawn (${r.withdrawn.at}): nothing more is looked up or sent for it.`);
    if (r.resolution === undefined) {
      const resolution = await resolveRequest(r, services);
      if (resolution.titlesAsked.length === 0) throw new RequestError(`No title of request ${id} has a secret key (${r.titles.join(', ')}): nothing could be looked up. Set the keys and run again.`);
      r.resolution = resolution;
      r.actions = planActions(r, resolution);
    }
    return describe(r, services.now?.());
  });
}

/** Sends the request's ready actions after the typed confirmation (the dry run's number of accounts). */
export async function runActions(store: RequestStore, id: string, services: RequestServices, o: RunOptions): Promise<RunSummary & { request: DataRequest }> {
  return withRequest(store, id, async (r) => {
    if (r.closedAt !== undefined) throw new RequestError(`Request ${id} is closed; nothing is sent for it.`);
    if (r.resolution === undefined) throw new RequestError(`Request ${id} has not been resolved: run its dry run first and check the accounts it acts on.`);
    const summary = await sendActions(store, r, services, o);
    return { ...summary, request: r };
  });
}

/**
 * Withdraws a request (the person or the team called it off, or it was mistaken or fraudulent):
 * nothing more is sent for it; what was already sent stays recorded, and the evidence says when and why.
 */
export async function withdrawRequest(store: RequestStore, id: string, reason: string, now: Date = new Date()): Promise<DataRequest> {
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
export async function verifyRequest(store: RequestStore, id: string, services: RequestServices): Promise<VerifySummary & { request: DataRequest }> {
  return withRequest(store, id, async (r) => ({ ...(await verifyActions(store, r, services)), request: r }));
}

/** Records an export's download link (from the e-mail): it completes the export with that JobReceiptId. */
export async function recordExportLink(store: RequestStore, id: string, receipt: string, url: string): Promise<DataRequest> {
  return withRequest(store, id, async (r) => {
    if (r.closedAt !== undefined) throw new RequestError(`Request ${id} is closed; nothing was changed.`);
    recordLink(r, receipt, url);
    return r;
  });
}

/** Closes a completed request: writes evidence.json and evidence.md and anchors the chain's head in the state file. */
export async function closeRequest(store: RequestStore, id: string, services: RequestServices, o: { hashIdentifiers?: boolean } = {}): Promise<{ request: DataRequest; evidence: Evidence }> {
  const closed = await withRequest(store, id, async (r) => {
    const why = closeProblem(r);
    if (why !== undefined) throw new RequestError(`Not closed: ${why}`);
    const journals = [];
    for (const j of await journalNames(store, id)) {
      await store.check(id, j.name);
      const found = await Journal.read(join(store.folder(id), j.name), (t) => services.key(t), services.anchors);
      if (found !== undefined) journals.push(found);
    }
    const closedAt = (services.now?.() ?? new Date()).toISOString();
    const evidence = chain(r.id, evidenceBodies(r, journals, closedAt));
    await writeEvidence(store, id, evidence);
    r.closedAt = closedAt;
    r.evidenceHead = evidence.head;
    return { request: r, evidence };
  });
  return o.hashIdentifiers === true ? hashIdentifiers(store, id) : closed;
}

async function writeEvidence(store: RequestStore, id: string, ev: Evidence): Promise<void> {
  for (const which of ['json', 'md'] as const) await store.check(id, which === 'json' ? 'evidence.json' : 'evidence.md');
  await writeWhole(store.evidencePath(id, 'json'), evidenceJson(ev));
  await writeWhole(store.evidencePath(id, 'md'), evidenceMarkdown(ev));
}

/**
 * Retention, for a closed request: every personal identifier (PlatformIds, e-mails, names) in its
 * evidence and state file replaced by its hash, the export links dropped, and its journals removed
 * (every call they recorded is in the evidence). The evidence chain still verifies.
 */
export async function hashIdentifiers(store: RequestStore, id: string): Promise<{ request: DataRequest; evidence: Evidence }> {
  return withRequest(store, id, async (r) => {
    if (r.closedAt === undefined) throw new RequestError(`Request ${id} is not closed: identifiers are hashed only after closing, once the evidence is written.`);
    await store.check(id, 'evidence.json');
    const text = await readFile(store.evidencePath(id, 'json'), 'utf8');
    const check = checkEvidence(text, { anchor: r.evidenceHead, requestId: id });
    if (!check.ok) throw new RequestError(`The evidence of request ${id} does not verify (${check.problems[0]}); nothing was hashed. Keep it as it is and check who changed it.`);
    const evidence = dropPersonalValues(JSON.parse(text) as Evidence);
    await writeEvidence(store, id, evidence);
    const h = (v: string): string => `sha256:${piiHash(r.id, v)}`;
    const hashed = (v: string): string => (v.startsWith('sha256:') ? v : h(v));
    r.identifiers = r.identifiers.map((x) => ({ ...x, value: hashed(x.value) }));
    r.actions = r.actions.map(({ downloadUrl: _u, ...a }) => ({ ...a, platformId: hashed(a.platformId) }));
    if (r.resolution !== undefined) {
      const res = r.resolution;
      res.findings = res.findings.map((f) => ({ ...f, platformId: f.platformId === null ? null : hashed(f.platformId) }));
      res.accounts = res.accounts.map((a) => ({ ...a, platformId: hashed(a.platformId) }));
      res.gone = res.gone.map(hashed);
      res.calls = res.calls.map((c) => (c.platformId !== undefined ? { ...c, platformId: hashed(c.platformId) } : c));
    }
    for (const j of await journalNames(store, id)) await rm(join(store.folder(id), j.name), { force: true });
    r.identifiersHashedAt ??= new Date().toISOString();
    return { request: r, evidence };
  });
}

/** Checks the evidence of a closed request: the chain, its anchor in the state file, and the Markdown. */
export async function verifyEvidence(store: RequestStore, id: string): Promise<EvidenceCheck> {
  const r = await store.load(id);
  if (r.closedAt === undefined || r.evidenceHead === undefined) return { ok: false, entries: 0, problems: [`request ${id} is not closed: it has no evidence yet`] };
  const read = async (which: 'json' | 'md'): Promise<string | undefined> => {
    await store.check(id, which === 'json' ? 'evidence.json' : 'evidence.md');
    return readFile(store.evidencePath(id, which), 'utf8').catch(() => undefined);
  };
  const json = await read('json');
  if (json === undefined) return { ok: false, entries: 0, problems: ['evidence.json is missing'] };
  const markdown = await read('md');
  const check = checkEvidence(json, { markdown: markdown ?? '', anchor: r.evidenceHead, requestId: id });
  if (markdown === undefined) check.problems.push('evidence.md is missing');
  return { ...check, ok: check.problems.length === 0 };
}
