// verify-evidence: the chain of evidence.json recomputed entry by entry (order, links, hashes, each
// personal value against its hash), its head against the anchor kept in the state file, and
// evidence.md against the document the entries render to.
import { chainStart, entryHash, EVIDENCE_FORMAT, EVIDENCE_VERSION, piiHash, withoutValues, type Evidence, type EvidenceEntry } from './evidence';
import { evidenceMarkdown } from './evidenceMarkdown';

export interface EvidenceCheck {
  ok: boolean;
  entries: number;
  head?: string;
  problems: string[];
}

function valueProblems(requestId: string, v: unknown, seq: number, out: string[]): void {
  if (Array.isArray(v)) {
    v.forEach((x) => valueProblems(requestId, x, seq, out));
  } else if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    if (typeof o.pii === 'string' && typeof o.value === 'string' && piiHash(requestId, o.value) !== o.pii) out.push(`entry ${seq}: a personal identifier does not match its hash (changed)`);
    Object.values(o).forEach((x) => valueProblems(requestId, x, seq, out));
  }
}

/** Checks evidence.json's text (and evidence.md's, and the state file's anchor, when given). */
export function checkEvidence(jsonText: string, o: { markdown?: string; anchor?: string; requestId?: string } = {}): EvidenceCheck {
  const problems: string[] = [];
  let ev: Evidence;
  try {
    ev = JSON.parse(jsonText) as Evidence;
  } catch (e) {
    return { ok: false, entries: 0, problems: [`evidence.json is not JSON (${(e as Error).message}): a line was removed, cut or edited`] };
  }
  if (typeof ev !== 'object' || ev === null || ev.format !== EVIDENCE_FORMAT || ev.version !== EVIDENCE_VERSION || !Array.isArray(ev.entries) || typeof ev.requestId !== 'string') {
    return { ok: false, entries: 0, problems: ['evidence.json is not an evidence pack of this version'] };
  }
  if (o.requestId !== undefined && ev.requestId !== o.requestId) problems.push(`evidence.json is the evidence of request ${ev.requestId}, not ${o.requestId}`);
  let prev = chainStart(ev.requestId);
  ev.entries.forEach((e: EvidenceEntry, i) => {
    const n = i + 1;
    if (typeof e !== 'object' || e === null) {
      problems.push(`entry ${n} is not an entry`);
      return;
    }
    if (e.seq !== n) problems.push(`entry ${n} is numbered ${String(e.seq)}: entries were removed, added or reordered`);
    if (e.prev !== prev) problems.push(`entry ${n} does not follow entry ${n - 1}: the chain is broken here (an entry before it was removed, changed or moved)`);
    const hash = entryHash(e.prev, e as unknown as Record<string, unknown>);
    if (hash !== e.hash) problems.push(`entry ${n} was changed: its content does not match its SHA-256`);
    valueProblems(ev.requestId, e, n, problems);
    prev = e.hash;
  });
  if (ev.head !== prev) problems.push('the chain head does not match the last entry: entries were added or cut off at the end');
  if (o.anchor !== undefined && o.anchor !== ev.head) problems.push('the chain head differs from the one the request\'s state file recorded on closing: the evidence was replaced, cut or extended');
  if (o.markdown !== undefined && problems.length === 0 && o.markdown !== evidenceMarkdown(ev)) {
    problems.push('evidence.md does not match evidence.json: the readable document was edited');
  }
  return { ok: problems.length === 0, entries: ev.entries.length, head: ev.head, problems };
}

/** The evidence with every personal value dropped (its hash kept): the chain still holds. */
export function dropPersonalValues(ev: Evidence): Evidence {
  return { ...ev, entries: ev.entries.map((e) => withoutValues(e) as EvidenceEntry) };
}
