// verify-evidence: the chain of evidence.json recomputed entry by entry (order, links, hashes), the
// operator's signature over its head (with the public key the pack carries, and with `signer`
// that it is the expected operator's), each entry's MAC when this machine's operator signed it,
// the personal values against the signed digest (and their hashes, while the request's key
// exists), the head against its anchors (the state file's, and the one kept outside the store),
// and evidence.md against the document the entries render to. `checked` says what was checked.
import { readPublicKey, signatureValid, type Operator } from '../operator';
import { chainStart, entryHash, entryMac, EVIDENCE_FORMAT, EVIDENCE_VERSION, macLabel, personalValues, piiHash, withoutValues, type Evidence, type EvidenceEntry } from './evidence';
import { evidenceMarkdown } from './evidenceMarkdown';
import { signedPayload, valuesDigest } from './evidencePack';

export interface EvidenceCheck {
  ok: boolean;
  entries: number;
  head?: string;
  /** Who signed it, as the pack says (checked against its signature). */
  signer?: { name: string; fingerprint: string };
  problems: string[];
  /** What was checked, in words (and what could not be, with why). */
  checked: string[];
}

export interface CheckOptions {
  markdown?: string;
  /** The head the request's state file recorded on closing. */
  anchor?: string;
  /** The head anchored outside the store, and where (undefined head: no anchor there). */
  outside?: { head: string | undefined; where: string };
  requestId?: string;
  /** The expected operator's public key (PEM, what `operator show --public-key` printed), and where it was read. */
  signer?: { pem: string; from: string };
  /** This machine's operator: checks the entries' MACs when it signed the pack. */
  operator?: Operator;
  /** The request's pseudonymisation key, while it exists: each personal value against its hash. */
  requestKey?: Buffer;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isRef = (v: unknown): boolean => isObj(v) && typeof v.fingerprint === 'string' && typeof v.name === 'string';

function chainProblems(ev: Evidence, problems: string[]): string {
  let prev = chainStart(ev.requestId);
  ev.entries.forEach((e: EvidenceEntry, i) => {
    const n = i + 1;
    if (!isObj(e)) {
      problems.push(`entry ${n} is not an entry`);
      return;
    }
    if (e.seq !== n) problems.push(`entry ${n} is numbered ${String(e.seq)}: entries were removed, added or reordered`);
    if (e.prev !== prev) problems.push(`entry ${n} does not follow entry ${n - 1}: the chain is broken here (an entry before it was removed, changed or moved)`);
    if (entryHash(e.prev, e as unknown as Record<string, unknown>) !== e.hash) problems.push(`entry ${n} was changed: its content does not match its SHA-256`);
    if (!isRef(e.operator)) problems.push(`entry ${n} names no operator`);
    prev = e.hash;
  });
  return prev;
}

function signatureProblems(ev: Evidence, o: CheckOptions, problems: string[], checked: string[]): void {
  const s = ev.signer;
  const key = isObj(s) && typeof s.publicKey === 'string' ? readPublicKey(s.publicKey) : undefined;
  if (key === undefined || !isRef(s)) {
    problems.push('the pack carries no Ed25519 public key of its signer: it was not signed by Platform Explorer');
    return;
  }
  if (key.fingerprint !== s.fingerprint) problems.push(`the signer's fingerprint ${s.fingerprint} is not the fingerprint of the public key the pack carries (${key.fingerprint})`);
  const payload = signedPayload({ requestId: ev.requestId, head: ev.head, entries: ev.entries.length, signer: s, values: String(ev.values) });
  if (typeof ev.signature !== 'string' || !signatureValid(s.publicKey, payload, ev.signature)) {
    problems.push(`the signature over the chain head does not verify with the public key the pack carries (${key.fingerprint}): the entries, the head or the signer were changed, or the pack was re-hashed by someone without the operator's key`);
  } else checked.push(`the Ed25519 signature over the chain head, by ${s.name} (${key.fingerprint}), with the public key the pack carries`);
  const closed = ev.entries[ev.entries.length - 1];
  if (isObj(closed) && isRef(closed.operator) && closed.operator.fingerprint !== s.fingerprint) problems.push(`the close is named to operator ${closed.operator.fingerprint}, but ${s.fingerprint} signed the pack`);
  if (o.signer !== undefined) {
    const want = readPublicKey(o.signer.pem);
    if (want === undefined) problems.push(`${o.signer.from} holds no Ed25519 public key (give the PEM that platform-explorer operator show --public-key prints)`);
    else if (want.fingerprint !== key.fingerprint) problems.push(`the pack was signed by ${key.fingerprint} (${s.name}), not by the operator of ${o.signer.from} (${want.fingerprint})`);
    else checked.push(`that the signer is the operator of ${o.signer.from} (${want.fingerprint})`);
  } else checked.push('not checked: which operator that is (give --signer FILE, the operator\'s public key)');
  if (o.operator !== undefined) {
    if (o.operator.fingerprint !== key.fingerprint) checked.push(`not checked: the entries' MACs (signed by ${key.fingerprint}, not by this machine's operator ${o.operator.fingerprint})`);
    else {
      const mk = o.operator.macKey(macLabel(ev.requestId));
      const bad = ev.entries.filter((e) => isObj(e) && (typeof e.mac !== 'string' || e.mac !== entryMac(mk, ev.requestId, e.seq, e.hash)));
      for (const e of bad) problems.push(`entry ${e.seq} has no valid MAC under this machine's operator key: it was not written by Platform Explorer with that key`);
      if (bad.length === 0) checked.push(`each entry's MAC with this machine's operator key (${o.operator.fingerprint})`);
    }
  }
}

function valueProblems(ev: Evidence, o: CheckOptions, problems: string[], checked: string[]): void {
  const values = personalValues(ev.entries);
  if (values.length === 0) {
    checked.push('no personal value is in the pack (retention dropped them; their hashes are chained)');
    return;
  }
  if (valuesDigest(ev.entries) !== ev.values) problems.push('the personal values differ from those the pack was signed with (changed)');
  else checked.push('the personal values against the signed digest');
  if (o.requestKey !== undefined) {
    const bad = values.filter(([h, v]) => piiHash(o.requestKey!, v) !== h).length;
    if (bad > 0) problems.push(`${bad} personal identifier(s) do not match their hash under the request's key (changed)`);
    else checked.push('each personal value against its hash, with the request\'s key');
  }
}

/** Checks evidence.json's text (and evidence.md's, the anchors, the signer, when given). */
export function checkEvidence(jsonText: string, o: CheckOptions = {}): EvidenceCheck {
  const problems: string[] = [];
  const checked: string[] = [];
  let ev: Evidence;
  try {
    ev = JSON.parse(jsonText) as Evidence;
  } catch (e) {
    return { ok: false, entries: 0, problems: [`evidence.json is not JSON (${(e as Error).message}): a line was removed, cut or edited`], checked };
  }
  if (!isObj(ev) || ev.format !== EVIDENCE_FORMAT || ev.version !== EVIDENCE_VERSION || !Array.isArray(ev.entries) || typeof ev.requestId !== 'string') {
    return { ok: false, entries: 0, problems: [`evidence.json is not an evidence pack of version ${EVIDENCE_VERSION} (signed)`], checked };
  }
  if (o.requestId !== undefined && ev.requestId !== o.requestId) problems.push(`evidence.json is the evidence of request ${ev.requestId}, not ${o.requestId}`);
  const last = chainProblems(ev, problems);
  if (ev.head !== last) problems.push('the chain head does not match the last entry: entries were added or cut off at the end');
  if (problems.length === 0) checked.push(`the chain of ${ev.entries.length} entries (each one's SHA-256 over the one before)`);
  signatureProblems(ev, o, problems, checked);
  valueProblems(ev, o, problems, checked);
  if (o.anchor !== undefined) {
    if (o.anchor !== ev.head) problems.push('the chain head differs from the one the request\'s state file recorded on closing: the evidence was replaced, cut or extended');
    else checked.push('the head against the one the state file recorded');
  }
  if (o.outside !== undefined) {
    if (o.outside.head === undefined) checked.push(`not checked: the head's anchor (none in ${o.outside.where}: the request was closed on another machine or with another state folder)`);
    else if (o.outside.head !== ev.head) problems.push(`the chain head differs from the one anchored in ${o.outside.where} on closing: the evidence was replaced`);
    else checked.push(`the head against its anchor in ${o.outside.where}`);
  }
  if (o.markdown !== undefined && problems.length === 0) {
    if (o.markdown !== evidenceMarkdown(ev)) problems.push('evidence.md does not match evidence.json: the readable document was edited');
    else checked.push('evidence.md against the entries');
  }
  const signer = isRef(ev.signer) ? { name: ev.signer.name, fingerprint: ev.signer.fingerprint } : undefined;
  return { ok: problems.length === 0, entries: ev.entries.length, head: ev.head, ...(signer ? { signer } : {}), problems, checked };
}

/** The evidence with every personal value dropped (its hash kept): the chain and the signature still hold. */
export function dropPersonalValues(ev: Evidence): Evidence {
  return { ...ev, entries: ev.entries.map((e) => withoutValues(e) as EvidenceEntry) };
}
