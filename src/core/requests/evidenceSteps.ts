// The evidence steps of a request: close (the signed, anchored pack), retention (identifiers
// replaced by their hashes: pseudonymised), shred (the request's key destroyed: anonymised), and
// verify-evidence (the store's copy, or an auditor's pack with the operator's public key).
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AnchorStore } from '../deletion';
import { requestKey, shredRequestKey, type KeyStore, type Operator } from '../operator';
import { journalOptions } from './actions';
import { evidenceBodies, evidenceJson, piiHash, type Evidence } from './evidence';
import { checkEvidence, dropPersonalValues, type EvidenceCheck } from './evidenceCheck';
import { extractIdentifiers } from './identifiers';
import { evidenceMarkdown } from './evidenceMarkdown';
import { signedEvidence } from './evidencePack';
import { closeProblem } from './model';
import type { RequestStorage } from './storage';
import { RequestError, type DataRequest, type RequestServices } from './types';
import { noteStep, withRequest } from './withRequest';

/** The anchor (core/deletion/anchor.ts) of a request's evidence head, outside the store. */
export const evidenceAnchorId = (id: string): string => `evidence-${id}`;

interface EvidenceServices {
  operator?: Operator;
  keys?: KeyStore;
  anchors: AnchorStore;
  now?: () => Date;
}

function need<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new RequestError(`No ${what} is available: the evidence cannot be signed or pseudonymised without it.`);
  return v;
}

async function writeEvidence(store: RequestStorage, id: string, ev: Evidence): Promise<void> {
  await store.writeEvidence(id, evidenceJson(ev), evidenceMarkdown(ev));
}

/** Closes a completed request: writes the signed evidence, anchors its head in the state file and outside the store. */
export async function closeRequest(store: RequestStorage, id: string, services: RequestServices, o: { hashIdentifiers?: boolean } = {}): Promise<{ request: DataRequest; evidence: Evidence }> {
  const operator = need(services.operator, 'operator key');
  const keys = need(services.keys, 'key store');
  const closed = await withRequest(store, id, async (r) => {
    const why = closeProblem(r);
    if (why !== undefined) throw new RequestError(`Not closed: ${why}`);
    const journals = [];
    for (const j of await store.journalNames(id)) {
      const found = await store.readJournal(id, j.name, journalOptions(services));
      if (found !== undefined) journals.push(found);
    }
    const closedAt = (services.now?.() ?? new Date()).toISOString();
    const key = (await requestKey(keys, id))!;
    const closer = { fingerprint: operator.fingerprint, name: operator.name };
    const evidence = signedEvidence(r.id, evidenceBodies(r, journals, closedAt, { key, closer }), operator);
    await writeEvidence(store, id, evidence);
    await services.anchors.set({ batchId: evidenceAnchorId(id), titleId: 'evidence', lines: evidence.entries.length, mac: evidence.head, path: store.evidencePath(id, 'json'), at: closedAt });
    noteStep(r, 'close', operator, closedAt);
    r.closedAt = closedAt;
    r.evidenceHead = evidence.head;
    return { request: r, evidence };
  });
  return o.hashIdentifiers === true ? hashIdentifiers(store, id, services) : closed;
}

const identifierValues = (r: DataRequest): string[] => {
  const res = r.resolution;
  const all = [
    ...r.identifiers.map((x) => x.value), ...r.actions.map((a) => a.platformId), ...(res?.findings ?? []).map((f) => f.platformId ?? ''),
    ...(res?.accounts ?? []).map((a) => a.platformId), ...(res?.gone ?? []), ...(res?.calls ?? []).map((c) => c.platformId ?? ''),
  ];
  return [...new Set(all.filter((v) => v.length >= 3 && !v.startsWith('hmac:')))].sort((a, b) => b.length - a.length);
};

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `v` (any part of the state) with every occurrence of an identifier replaced by `hmac:<its hash>`. */
function pseudonymised(v: unknown, replace: (s: string) => string): unknown {
  if (typeof v === 'string') return replace(v);
  if (Array.isArray(v)) return v.map((x) => pseudonymised(x, replace));
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, pseudonymised(x, replace)]));
  return v;
}

/**
 * Retention, for a closed request: every personal identifier (the identifiers, the PlatformIds found,
 * gone or acted on, any typed in the reference) in its evidence and state file replaced by its HMAC
 * under the request's key, the export links dropped, its journals removed (every call they recorded
 * is in the evidence). Pseudonymised: whoever holds the key can still test a known identifier. The
 * evidence still verifies.
 */
export async function hashIdentifiers(store: RequestStorage, id: string, services: Omit<EvidenceServices, 'anchors'> & { anchors?: AnchorStore }): Promise<{ request: DataRequest; evidence: Evidence }> {
  const keys = need(services.keys, 'key store');
  return withRequest(store, id, async (r) => {
    if (r.closedAt === undefined) throw new RequestError(`Request ${id} is not closed: identifiers are hashed only after closing, once the evidence is written.`);
    const key = await requestKey(keys, id, { create: false });
    if (key === undefined) throw new RequestError(`Request ${id}: its pseudonymisation key is not in ${keys.where} (shredded, or closed with another key folder); nothing was changed.`);
    const text = await store.readEvidence(id, 'json');
    if (text === undefined) throw new RequestError(`The evidence of request ${id} is missing (${store.evidencePath(id, 'json')}); nothing was hashed.`);
    const check = checkEvidence(text, { anchor: r.evidenceHead, requestId: id, requestKey: key });
    if (!check.ok) throw new RequestError(`The evidence of request ${id} does not verify (${check.problems[0]}); nothing was hashed. Keep it as it is and check who changed it.`);
    const evidence = dropPersonalValues(JSON.parse(text) as Evidence);
    await writeEvidence(store, id, evidence);
    const values = identifierValues(r);
    const canon = new Map(values.map((v) => [v.toLowerCase(), v]));
    const h = (v: string): string => `hmac:${piiHash(key, canon.get(v.toLowerCase()) ?? v)}`;
    const re = values.length > 0 ? new RegExp(values.map(escapeRe).join('|'), 'gi') : undefined;
    const replace = (s: string): string => (s.startsWith('hmac:') || re === undefined ? s : s.replace(re, h));
    // Identifiers typed in the reference that the request does not name (another e-mail, a PlatformId).
    let reference = replace(r.reference);
    for (const x of extractIdentifiers(reference).reverse()) {
      if (reference.slice(x.index).startsWith('hmac:') || /hmac:[0-9a-f]*$/.test(reference.slice(0, x.index))) continue;
      reference = `${reference.slice(0, x.index)}${h(reference.slice(x.index, x.index + x.value.length))}${reference.slice(x.index + x.value.length)}`;
    }
    r.reference = reference;
    r.identifiers = pseudonymised(r.identifiers, replace) as DataRequest['identifiers'];
    r.actions = (pseudonymised(r.actions, replace) as DataRequest['actions']).map(({ downloadUrl: _u, ...a }) => a);
    if (r.resolution !== undefined) r.resolution = pseudonymised(r.resolution, replace) as DataRequest['resolution'];
    await store.removeJournals(id);
    r.identifiersHashedAt ??= (services.now?.() ?? new Date()).toISOString();
    if (services.operator !== undefined) noteStep(r, 'retention', services.operator, r.identifiersHashedAt);
    return { request: r, evidence };
  });
}

/**
 * `request shred`: retention if not done, then the request's pseudonymisation key destroyed. The
 * hashes left in the evidence and state file can then not be linked to anyone (anonymised); the
 * chain and the signature still verify.
 */
export async function shredRequest(store: RequestStorage, id: string, services: Omit<EvidenceServices, 'anchors'>): Promise<DataRequest> {
  const keys = need(services.keys, 'key store');
  const r0 = await store.load(id);
  if (r0.closedAt === undefined) throw new RequestError(`Request ${id} is not closed: close it first (its evidence is written with the identifiers' hashes), then shred.`);
  if (r0.identifiersHashedAt === undefined) await hashIdentifiers(store, id, services);
  return withRequest(store, id, async (r) => {
    await shredRequestKey(keys, id);
    r.shreddedAt ??= (services.now?.() ?? new Date()).toISOString();
    if (services.operator !== undefined) noteStep(r, 'shred', services.operator, r.shreddedAt);
    return r;
  });
}

export interface VerifyOptions {
  operator?: Operator;
  keys?: KeyStore;
  anchors?: AnchorStore;
  signer?: { pem: string; from: string };
}

/** Checks the evidence of a closed request: the chain, the signature, its anchors, the MACs, the Markdown. */
export async function verifyEvidence(store: RequestStorage, id: string, o: VerifyOptions = {}): Promise<EvidenceCheck> {
  const r = await store.load(id);
  if (r.closedAt === undefined || r.evidenceHead === undefined) return { ok: false, entries: 0, problems: [`request ${id} is not closed: it has no evidence yet`], checked: [] };
  const read = (which: 'json' | 'md'): Promise<string | undefined> => store.readEvidence(id, which);
  const json = await read('json');
  if (json === undefined) return { ok: false, entries: 0, problems: ['evidence.json is missing'], checked: [] };
  const markdown = await read('md');
  const anchor = o.anchors === undefined ? undefined : await o.anchors.get(evidenceAnchorId(id));
  const key = o.keys === undefined ? undefined : await requestKey(o.keys, id, { create: false });
  const check = checkEvidence(json, {
    markdown: markdown ?? '', anchor: r.evidenceHead, requestId: id, operator: o.operator, signer: o.signer,
    ...(o.anchors !== undefined ? { outside: { head: anchor?.mac, where: o.anchors.where } } : {}), ...(key !== undefined ? { requestKey: key } : {}),
  });
  if (markdown === undefined) check.problems.push('evidence.md is missing');
  const closer = [...(r.steps ?? [])].reverse().find((s) => s.step === 'close')?.operator;
  if (closer !== undefined && check.signer !== undefined && closer.fingerprint !== check.signer.fingerprint) {
    check.problems.push(`the request's state file names ${closer.fingerprint} as the operator who closed it, but ${check.signer.fingerprint} signed the evidence: it was replaced`);
  }
  return { ...check, ok: check.problems.length === 0 };
}

/** An auditor's check of a pack (evidence.json, and evidence.md beside it when there) with the operator's public key. */
export async function verifyEvidenceFile(path: string, signer: { pem: string; from: string }): Promise<EvidenceCheck> {
  const json = await readFile(path, 'utf8');
  const markdown = await readFile(join(dirname(path), 'evidence.md'), 'utf8').catch(() => undefined);
  const check = checkEvidence(json, { signer, ...(markdown !== undefined ? { markdown } : {}) });
  if (markdown === undefined) check.checked.push('not checked: evidence.md (not beside evidence.json)');
  return check;
}
