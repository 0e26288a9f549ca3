// The evidence pack written when a request closes: the same entries as JSON (one entry a line) and
// as a readable Markdown document. Each entry carries the SHA-256 of the one before and its own
// hash, so an edited, removed or reordered entry breaks the chain; the head is also kept in the
// state file, so cutting entries off the end is seen. No secret is ever put in (keys never reach
// the journals; service text was made safe where it was recorded). Personal identifiers are
// written as {pii: hash, value}: the chain covers the hash only, so retention can drop the values
// later (hashIdentifiers) and the chain still holds; a value left in must match its hash.
import { createHash } from 'node:crypto';
import { batchOperation, type BatchRecord, type JournalRecord } from '../deletion';
import { serviceText } from '../serviceText';
import type { DataRequest } from './types';

export const EVIDENCE_FORMAT = 'platform-explorer data request evidence';
export const EVIDENCE_VERSION = 1;

/** A personal identifier: its hash always, its value until retention drops it. */
export interface Pii {
  pii: string;
  value?: string;
}

export interface EvidenceEntry {
  seq: number;
  type: string;
  at: string;
  [field: string]: unknown;
  prev: string;
  hash: string;
}

export interface Evidence {
  format: string;
  version: number;
  requestId: string;
  entries: EvidenceEntry[];
  head: string;
}

/** The hash a personal identifier is kept as (salted by the request, so equal values in two requests differ). */
export function piiHash(requestId: string, value: string): string {
  return createHash('sha256').update(`${EVIDENCE_FORMAT} ${requestId}\n${value}`).digest('hex');
}

export function pii(requestId: string, value: string): Pii {
  return { pii: piiHash(requestId, value), value };
}

const isPii = (v: unknown): v is Pii => typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as Pii).pii === 'string' && Object.keys(v).every((k) => k === 'pii' || k === 'value');

/** `v` with every personal value dropped (its hash kept). */
export function withoutValues(v: unknown): unknown {
  if (isPii(v)) return { pii: v.pii };
  if (Array.isArray(v)) return v.map(withoutValues);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withoutValues(x)]));
  return v;
}

/** JSON with object keys sorted: the form an entry is hashed in. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    return `{${Object.keys(v).sort().filter((k) => (v as Record<string, unknown>)[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

export function chainStart(requestId: string): string {
  return createHash('sha256').update(`${EVIDENCE_FORMAT} v${EVIDENCE_VERSION}\n${requestId}`).digest('hex');
}

/** The hash of an entry (without its prev and hash fields) after `prev`. */
export function entryHash(prev: string, entry: Record<string, unknown>): string {
  const { prev: _p, hash: _h, ...body } = entry;
  return createHash('sha256').update(`${prev}\n${canonical(withoutValues(body))}`).digest('hex');
}

/** Chains entries (type, at and fields) in order. */
export function chain(requestId: string, bodies: readonly ({ type: string; at: string } & Record<string, unknown>)[]): Evidence {
  let prev = chainStart(requestId);
  const entries = bodies.map((b, i) => {
    const body = { seq: i + 1, ...b };
    const hash = entryHash(prev, body);
    const e = { ...body, prev, hash } as EvidenceEntry;
    prev = hash;
    return e;
  });
  return { format: EVIDENCE_FORMAT, version: EVIDENCE_VERSION, requestId, entries, head: prev };
}

/** evidence.json: the envelope, then one entry a line, so a line is an entry. */
export function evidenceJson(ev: Evidence): string {
  const lines = ev.entries.map((e, i) => `${JSON.stringify(e)}${i < ev.entries.length - 1 ? ',' : ''}`);
  return `{"format":${JSON.stringify(ev.format)},"version":${ev.version},"requestId":${JSON.stringify(ev.requestId)},"entries":[\n${lines.join('\n')}\n],"head":${JSON.stringify(ev.head)}}\n`;
}

const safe = (s: unknown, max = 500): string => serviceText(String(s), { max });

/** Every entry of a request's record: the request, its resolution, each call its journals recorded, each completion, the close. */
export function evidenceBodies(r: DataRequest, journals: readonly { batch: BatchRecord; records: readonly JournalRecord[] }[], closedAt: string): ({ type: string; at: string } & Record<string, unknown>)[] {
  const P = (v: string): Pii => pii(r.id, v);
  const ident = (i: number): { kind: string; id: Pii } => ({ kind: r.identifiers[i]?.kind ?? 'unknown', id: P(r.identifiers[i]?.value ?? '') });
  const out: ({ type: string; at: string } & Record<string, unknown>)[] = [{
    type: 'request', at: r.createdAt, requestId: r.id, reference: safe(r.reference, 200), received: r.received, dueDays: r.dueDays, due: r.due,
    asks: r.asks, titles: r.titles, identifiers: r.identifiers.map((x, i) => ({ ...ident(i), ...(x.sandbox !== undefined ? { sandbox: x.sandbox } : {}) })),
  }];
  const res = r.resolution;
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
  const sends: ({ type: string; at: string } & Record<string, unknown>)[] = [];
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
  return out;
}
