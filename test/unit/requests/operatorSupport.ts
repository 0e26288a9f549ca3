// An operator for the in-process evidence tests (a fresh Ed25519 key each run), a request key,
// and `chain`: bodies signed as a closed request's evidence is.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { operatorFromKey, type Operator } from '../../../src/core/operator';
import type { Body, Evidence } from '../../../src/core/requests/evidence';
import { signedEvidence } from '../../../src/core/requests/evidencePack';

export const newOperator = (name: string): Operator => operatorFromKey(generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), name);

export const OPERATOR = newOperator('Test Operator');
export const OP_REF = { fingerprint: OPERATOR.fingerprint, name: OPERATOR.name };
export const REQUEST_KEY = randomBytes(32);

/** `bodies` (each named to OPERATOR unless it names its own) chained, MACed and signed by `by`. */
export function chain(requestId: string, bodies: readonly Body[], by: Operator = OPERATOR): Evidence {
  return signedEvidence(requestId, bodies.map((b) => ({ operator: { fingerprint: by.fingerprint, name: by.name }, ...b })), by);
}
