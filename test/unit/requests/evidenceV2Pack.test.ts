// A pack written by format version 2 keeps verifying: test/unit/requests/fixtures/evidence-v2.json
// and .md were written once by Platform Explorer with a fixed operator key and request key (both
// derived here from fixed seeds; no private key is stored). An auditor checks packs closed months
// ago with the code of today, so every byte that is hashed, MACed or signed (the chain's start, each
// entry's hash and MAC, the personal values' HMAC and digest, the signed payload, the document) must
// stay what version 2 wrote. Regenerate only with a new format version:
// PE_WRITE_EVIDENCE_FIXTURE=1 npm run test:one -- test/unit/requests/evidenceV2Pack.test.ts
import * as assert from 'node:assert/strict';
import { createHash, createPrivateKey } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { operatorFromKey } from '../../../src/core/operator';
import { checkEvidence, type DataRequest } from '../../../src/core/requests';
import { evidenceBodies, evidenceJson } from '../../../src/core/requests/evidence';
import { evidenceMarkdown } from '../../../src/core/requests/evidenceMarkdown';
import { signedEvidence } from '../../../src/core/requests/evidencePack';

const seed = (label: string): Buffer => createHash('sha256').update(`platform-explorer test fixture ${label}`).digest();
// PKCS#8 DER of an Ed25519 key: this fixed prefix, then the 32-byte seed.
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');
const pem = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed('operator')]), format: 'der', type: 'pkcs8' }).export({ type: 'pkcs8', format: 'pem' }).toString();
const OPERATOR = operatorFromKey(pem, 'Fixture Operator');
const REQUEST_KEY = seed('request key');
const DIR = join(process.cwd(), 'test', 'unit', 'requests', 'fixtures');
const ID = 'dr-20260105-f1x7ed';

function request(): DataRequest {
  return {
    version: 1, id: ID, reference: 'TICKET-7 from ana@example.com', received: '2026-01-05', dueDays: 30, due: '2026-02-04', asks: ['access', 'erasure'],
    identifiers: [{ kind: 'email', value: 'ana@example.com' }, { kind: 'storefront', value: 'ana_k' }], titles: ['F71AC'], endpoint: 'http://127.0.0.1:1/{titleId}',
    createdAt: '2026-01-05T09:00:00.000Z',
    resolution: {
      at: '2026-01-05T10:00:00.000Z', titlesAsked: ['F71AC'], titlesSkipped: [],
      findings: [{ identifier: 0, titleId: 'F71AC', platformId: '9437A5ADDAE3012D' }, { identifier: 1, titleId: 'F71AC', platformId: null }],
      accounts: [{ platformId: '9437A5ADDAE3012D', titleIds: ['F71AC'], foundIn: ['F71AC'], identifiers: [0], senderTitleId: 'F71AC' }],
      gone: [], calls: [{ at: '2026-01-05T10:00:00.000Z', titleId: 'F71AC', operation: 'GetUserAccountInfo', identifiers: [0], outcome: 'found' }],
    },
    actions: [
      { kind: 'export', platformId: '9437A5ADDAE3012D', titleId: 'F71AC', status: 'completed', jobReceiptId: 'R1', completedBy: 'recorded', completedAt: '2026-01-06T00:00:00.000Z', downloadUrl: 'https://dl.example/x?sig=abc' },
      { kind: 'erasure', platformId: '9437A5ADDAE3012D', titleId: 'F71AC', status: 'completed', jobReceiptId: 'R2', completedBy: 'AccountNotFound' },
    ],
  };
}

describe('requests: a version 2 evidence pack written before keeps verifying', () => {
  const written = (): { json: string; md: string } => {
    const ev = signedEvidence(ID, evidenceBodies(request(), [], '2026-01-08T00:00:00.000Z', { key: REQUEST_KEY, closer: { fingerprint: OPERATOR.fingerprint, name: OPERATOR.name } }), OPERATOR);
    return { json: evidenceJson(ev), md: evidenceMarkdown(ev) };
  };
  if (process.env.PE_WRITE_EVIDENCE_FIXTURE === '1') {
    const w = written();
    writeFileSync(join(DIR, 'evidence-v2.json'), w.json);
    writeFileSync(join(DIR, 'evidence-v2.md'), w.md);
  }
  const json = readFileSync(join(DIR, 'evidence-v2.json'), 'utf8');
  const md = readFileSync(join(DIR, 'evidence-v2.md'), 'utf8');

  it('today\'s code writes the same pack, byte for byte, from the same request and keys', () => {
    const w = written();
    assert.equal(w.json, json);
    assert.equal(w.md, md);
  });

  it('verify-evidence passes every check on it: chain, signature, signer, MACs, personal values and their hashes, document', () => {
    const head = (JSON.parse(json) as { head: string }).head;
    const c = checkEvidence(json, {
      markdown: md, anchor: head, requestId: ID, operator: OPERATOR, requestKey: REQUEST_KEY, signer: { pem: OPERATOR.publicKeyPem, from: 'operator.pem' },
      outside: { head, where: 'the anchors folder' },
    });
    assert.deepEqual(c.problems, []);
    assert.equal(c.ok, true);
    assert.deepEqual(c.checked, [
      `the chain of ${c.entries} entries (each one's SHA-256 over the one before)`,
      `the Ed25519 signature over the chain head, by Fixture Operator (${OPERATOR.fingerprint}), with the public key the pack carries`,
      `that the signer is the operator of operator.pem (${OPERATOR.fingerprint})`,
      `each entry's MAC with this machine's operator key (${OPERATOR.fingerprint})`,
      'the personal values against the signed digest',
      'each personal value against its hash, with the request\'s key',
      'the head against the one the state file recorded',
      'the head against its anchor in the anchors folder',
      'evidence.md against the entries',
    ]);
    assert.deepEqual(c.signer, { name: 'Fixture Operator', fingerprint: OPERATOR.fingerprint });
  });
});
