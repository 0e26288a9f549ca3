// The evidence pack written when a request closes: the same entries as JSON (one entry a line) and
// as a readable Markdown document. Each entry names the operator who caused it and carries the
// SHA-256 of the one before and its own hash (over RFC 8785 canonical JSON), so an edited, removed
// or reordered entry breaks the chain; each also carries a MAC under a key derived from the
// operator's private key (never written), and the pack carries the operator's public key and an
// Ed25519 signature over the head (evidencePack.ts), so a pack re-hashed without that key fails.
// No secret is ever put in. Personal identifiers are written as {pii: hash, value}: the hash is an
// HMAC under the request's own key, kept outside the evidence (core/operator.ts requestKey); the
// chain covers the hash only, so retention drops the values and the chain still holds, and once
// `request shred` destroys the key no dictionary links a hash to anyone.
import { createHash, createHmac } from 'node:crypto';
import { batchOperation, type BatchRecord, type JournalRecord } from '../deletion';
import type { OperatorRef } from '../operator';
import { serviceText } from '../serviceText';
import { extractIdentifiers } from './identifiers';
import type { DataRequest } from './types';

export const EVIDENCE_FORMAT = 'platform-explorer data request evidence';
export const EVIDENCE_VERSION = 2;

/** A personal identifier: its hash always, its value until retention drops it. */
export interface Pii {
  pii: string;
  value?: string;
}

export interface EvidenceEntry {
  seq: number;
  type: string;
  at: string;
  operator: OperatorRef;
  [field: string]: unknown;
  prev: string;
  hash: string;
  /** HMAC of the entry's place and hash under the signing operator's MAC key. */
  mac: string;
}

export interface Signer extends OperatorRef {
  /** PEM (SPKI), as `operator show --public-key` prints it. */
  publicKey: string;
}

export interface Evidence {
  format: string;
  version: number;
  requestId: string;
  entries: EvidenceEntry[];
  head: string;
  signer: Signer;
  /** SHA-256 of the personal values the entries held when signed (retention drops them). */
  values: string;
  /** Ed25519 signature (base64) of signedPayload(). */
  signature: string;
}

export type Body = { type: string; at: string } & Record<string, unknown>;

/** The hash a personal identifier is kept as: an HMAC under the request's own key (equal values in two requests differ). */
export function piiHash(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(`${EVIDENCE_FORMAT} identifier\n${value}`).digest('hex');
}

export function pii(key: Buffer, value: string): Pii {
  return { pii: piiHash(key, value), value };
}

export const isPii = (v: unknown): v is Pii => typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as Pii).pii === 'string' && Object.keys(v).every((k) => k === 'pii' || k === 'value');

/** `v` with every personal value dropped (its hash kept). */
export function withoutValues(v: unknown): unknown {
  if (isPii(v)) return { pii: v.pii };
  if (Array.isArray(v)) return v.map(withoutValues);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withoutValues(x)]));
  return v;
}

/** Every personal value in `v`, in order, with its hash. */
export function personalValues(v: unknown, out: [string, string][] = []): [string, string][] {
  if (isPii(v)) {
    if (v.value !== undefined) out.push([v.pii, v.value]);
  } else if (Array.isArray(v)) v.forEach((x) => personalValues(x, out));
  else if (typeof v === 'object' && v !== null) Object.values(v).forEach((x) => personalValues(x, out));
  return out;
}

const LONE_SURROGATE_RE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * RFC 8785 (JCS) canonical JSON: object keys sorted by UTF-16 code units, strings and numbers
 * serialised as ECMAScript's JSON does, no whitespace. Throws on what has no JSON form (undefined
 * or a function in an array, NaN, Infinity, a lone surrogate, a non-plain object); an object's
 * undefined members are left out, as JSON.stringify does.
 */
export function canonical(v: unknown): string {
  if (v === null || typeof v === 'boolean') return JSON.stringify(v);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new TypeError(`canonical JSON: ${v} has no JSON form`);
    return JSON.stringify(v);
  }
  if (typeof v === 'string') {
    if (LONE_SURROGATE_RE.test(v)) throw new TypeError('canonical JSON: a string holds a lone surrogate');
    return JSON.stringify(v);
  }
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  // Stryker disable next-line ConditionalExpression: a non-object left here (undefined, a function, a bigint, a symbol) has another prototype, or getPrototypeOf throws a TypeError (undefined), as the throw below does
  if (typeof v === 'object' && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null)) {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => `${canonical(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  throw new TypeError(`canonical JSON: a ${typeof v === 'object' ? 'non-plain object' : typeof v} has no JSON form`);
}

export function chainStart(requestId: string): string {
  return createHash('sha256').update(`${EVIDENCE_FORMAT} v${EVIDENCE_VERSION}\n${requestId}`).digest('hex');
}

/** The hash of an entry (without its prev, hash and mac fields, personal values dropped) after `prev`. */
export function entryHash(prev: string, entry: Record<string, unknown>): string {
  const { prev: _p, hash: _h, mac: _m, ...body } = entry;
  return createHash('sha256').update(`${prev}\n${canonical(withoutValues(body))}`).digest('hex');
}

/** The label of a request's entry MACs (the operator's MAC key for it). */
export const macLabel = (requestId: string): string => `evidence ${requestId}`;

/** An entry's MAC: its request, place and hash under the operator's MAC key. */
export function entryMac(key: Buffer, requestId: string, seq: number, hash: string): string {
  return createHmac('sha256', key).update(`${requestId}\n${seq}\n${hash}`).digest('hex');
}

/** Chains entries (type, at, operator and fields) in order, each with its MAC; the pack is signed by evidencePack.ts. */
export function chainEntries(requestId: string, bodies: readonly Body[], macKey: Buffer): { entries: EvidenceEntry[]; head: string } {
  let prev = chainStart(requestId);
  const entries = bodies.map((b, i) => {
    const body = { seq: i + 1, ...b };
    const hash = entryHash(prev, body);
    const e = { ...body, prev, hash, mac: entryMac(macKey, requestId, i + 1, hash) } as EvidenceEntry;
    prev = hash;
    return e;
  });
  return { entries, head: prev };
}

/** evidence.json: the envelope, then one entry a line, so a line is an entry. */
export function evidenceJson(ev: Evidence): string {
  const lines = ev.entries.map((e, i) => `${JSON.stringify(e)}${i < ev.entries.length - 1 ? ',' : ''}`);
  return `{"format":${JSON.stringify(ev.format)},"version":${ev.version},"requestId":${JSON.stringify(ev.requestId)},"entries":[\n${lines.join('\n')}\n],"head":${JSON.stringify(ev.head)},\n`
    + `"signer":${JSON.stringify(ev.signer)},\n"values":${JSON.stringify(ev.values)},"signature":${JSON.stringify(ev.signature)}}\n`;
}

const safe = (s: unknown, max = 500): string => serviceText(String(s), { max });

/** The operator whose step was running at `at`: the last step begun at or before it (the first step's before any). */
export function operatorAt(r: DataRequest, at: string, fallback: OperatorRef): OperatorRef {
  const steps = r.steps ?? [];
  let found: OperatorRef | undefined;
  for (const s of steps) if (s.at <= at) found = s.operator;
  return found ?? steps[0]?.operator ?? fallback;
}

/** The reference as text and personal identifiers: every identifier of the request and any e-mail or PlatformId typed in it. */
export function referenceParts(reference: string, known: readonly string[], P: (v: string) => Pii): (string | Pii)[] {
  const text = safe(reference, 200);
  const hits: { index: number; value: string }[] = extractIdentifiers(text).map((x) => ({ index: x.index, value: text.slice(x.index, x.index + x.value.length) }));
  const lower = text.toLowerCase();
  for (const v of known) {
    if (v.length < 3) continue;
    for (let i = lower.indexOf(v.toLowerCase()); i >= 0; i = lower.indexOf(v.toLowerCase(), i + 1)) hits.push({ index: i, value: text.slice(i, i + v.length) });
  }
  hits.sort((a, b) => a.index - b.index || b.value.length - a.value.length);
  const out: (string | Pii)[] = [];
  let at = 0;
  for (const h of hits) {
    if (h.index < at) continue;
    if (h.index > at) out.push(text.slice(at, h.index));
    out.push(P(h.value));
    at = h.index + h.value.length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** Every entry of a request's record: the request, its resolution, each call its journals recorded, each completion, the close; each naming its operator. */
export function evidenceBodies(r: DataRequest, journals: readonly { batch: BatchRecord; records: readonly JournalRecord[] }[], closedAt: string, o: { key: Buffer; closer: OperatorRef }): Body[] {
  const P = (v: string): Pii => pii(o.key, v);
  const ident = (i: number): { kind: string; id: Pii } => ({ kind: r.identifiers[i]?.kind ?? 'unknown', id: P(r.identifiers[i]?.value ?? '') });
  const by = (b: Body): Body => ({ ...b, operator: b.type === 'closed' ? o.closer : operatorAt(r, b.at, o.closer) });
  const res = r.resolution;
  const known = [...r.identifiers.map((x) => x.value), ...(res?.accounts ?? []).map((a) => a.platformId), ...(res?.gone ?? [])];
  const out: Body[] = [{
    type: 'request', at: r.createdAt, requestId: r.id, reference: referenceParts(r.reference, known, P), received: r.received, dueDays: r.dueDays, due: r.due,
    asks: r.asks, titles: r.titles, identifiers: r.identifiers.map((x, i) => ({ ...ident(i), ...(x.sandbox !== undefined ? { sandbox: x.sandbox } : {}) })),
  }];
  if (res !== undefined) {
    for (const t of res.titlesSkipped) out.push({ type: 'title-skipped', at: res.at, titleId: t.titleId, reason: safe(t.reason) });
    for (const c of res.calls) {
      out.push({
        type: 'call', at: c.at, titleId: c.titleId, operation: c.operation, outcome: safe(c.outcome),
        ...(c.identifiers !== undefined ? { identifiers: c.identifiers.map(ident) } : {}), ...(c.platformId !== undefined ? { platformId: P(c.platformId) } : {}),
      });
    }
    for (const f of res.findings) {
      out.push({ type: 'finding', at: res.at, identifier: ident(f.identifier), titleId: f.titleId, platformId: f.platformId === null ? null : P(f.platformId), ...(f.error !== undefined ? { error: safe(f.error) } : {}) });
    }
    for (const a of res.accounts) {
      out.push({ type: 'account', at: res.at, platformId: P(a.platformId), titleIds: a.titleIds, foundIn: a.foundIn, sentWith: a.senderTitleId, ...(a.error !== undefined ? { error: safe(a.error) } : {}) });
    }
    for (const g of res.gone) out.push({ type: 'account-gone', at: res.at, platformId: P(g), outcome: 'AccountNotFound' });
  }
  const sends: Body[] = [];
  for (const j of journals) {
    const operation = batchOperation(j.batch);
    for (const rec of j.records) {
      if (rec.type === 'batch') continue;
      const base = { at: rec.at, titleId: j.batch.titleId, platformId: P(rec.platformId) };
      if (rec.type === 'intent') sends.push({ type: 'sent', ...base, operation });
      else if (rec.type === 'verified') sends.push({ type: 'verified', ...base, operation: 'GetPlayedTitleList', outcome: 'AccountNotFound: the erasure is complete' });
      else {
        sends.push({
          type: 'outcome', ...base, operation, outcome: rec.state, ...(rec.jobReceiptId !== undefined ? { jobReceiptId: safe(rec.jobReceiptId, 200) } : {}),
          ...(rec.error !== undefined ? { error: safe(rec.error) } : {}),
        });
      }
    }
  }
  for (const a of r.actions) {
    if (a.kind === 'export' && a.status === 'completed' && a.downloadUrl !== undefined) {
      // The link is a bearer link to the person's data: only its origin and hash are kept.
      sends.push({
        type: 'export-link', at: a.completedAt ?? closedAt, platformId: P(a.platformId), jobReceiptId: safe(a.jobReceiptId ?? '', 200), by: a.completedBy ?? 'recorded',
        linkOrigin: safe(new URL(a.downloadUrl).origin, 200), linkSha256: createHash('sha256').update(a.downloadUrl).digest('hex'),
      });
    }
  }
  if (r.withdrawn !== undefined) sends.push({ type: 'withdrawn', at: r.withdrawn.at, reason: safe(r.withdrawn.reason) });
  sends.sort((x, y) => x.at.localeCompare(y.at));
  out.push(...sends);
  out.push({ type: 'closed', at: closedAt, actions: r.actions.map((a) => ({ kind: a.kind, platformId: P(a.platformId), titleId: a.titleId, status: a.status, completedBy: a.completedBy ?? null })) });
  return out.map(by);
}
