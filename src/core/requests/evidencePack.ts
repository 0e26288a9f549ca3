// The evidence pack's signature: the operator's Ed25519 signature over RFC 8785 canonical JSON of
// the pack's head (which stands for every entry), its size, its signer and the digest of the
// personal values it was written with. An auditor checks it with the pack and the operator's
// public key alone (`verify-evidence --evidence FILE --signer FILE`).
import { createHash } from 'node:crypto';
import type { Operator } from '../operator';
import { canonical, chainEntries, EVIDENCE_FORMAT, EVIDENCE_VERSION, macLabel, personalValues, type Body, type Evidence, type EvidenceEntry, type Signer } from './evidence';

/** The digest of the personal values entries hold (retention drops them; the signature keeps this). */
export function valuesDigest(entries: readonly EvidenceEntry[]): string {
  return createHash('sha256').update(canonical(personalValues(entries))).digest('hex');
}

/** The bytes the operator signs. */
export function signedPayload(p: { requestId: string; head: string; entries: number; signer: Signer; values: string }): Buffer {
  return Buffer.from(canonical({
    format: EVIDENCE_FORMAT, version: EVIDENCE_VERSION, requestId: p.requestId, head: p.head, entries: p.entries,
    signer: { name: p.signer.name, fingerprint: p.signer.fingerprint, publicKey: p.signer.publicKey }, values: p.values,
  }), 'utf8');
}

/** The signed pack of `bodies`: entries chained and MACed under the operator's key, the head signed. */
export function signedEvidence(requestId: string, bodies: readonly Body[], operator: Operator): Evidence {
  const { entries, head } = chainEntries(requestId, bodies, operator.macKey(macLabel(requestId)));
  const signer: Signer = { name: operator.name, fingerprint: operator.fingerprint, publicKey: operator.publicKeyPem };
  const values = valuesDigest(entries);
  const signature = operator.sign(signedPayload({ requestId, head, entries: entries.length, signer, values }));
  return { format: EVIDENCE_FORMAT, version: EVIDENCE_VERSION, requestId, entries, head, signer, values, signature };
}
