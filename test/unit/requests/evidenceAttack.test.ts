// Tests of record for issue 29 (in-process): a closed pack forged and re-hashed is refused (its
// signature, its MACs, its anchor); a pack signed with another operator's key is refused with
// --signer; after close + shred no identifier is recovered from a dictionary of 100,000
// candidates, and none (gone accounts and the reference's e-mail included) is left in clear.
import * as assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FolderAnchorStore } from '../../../src/core/deletion';
import { FolderKeyStore } from '../../../src/core/operator';
import { closeRequest, newRequest, RequestStore, shredRequest, verifyEvidence, verifyEvidenceFile, type DataRequest, type RequestServices } from '../../../src/core/requests';
import { entryHash, EVIDENCE_FORMAT, evidenceJson, type Evidence } from '../../../src/core/requests/evidence';
import { evidenceMarkdown } from '../../../src/core/requests/evidenceMarkdown';
import { signedEvidence } from '../../../src/core/requests/evidencePack';
import { newOperator, OPERATOR } from './operatorSupport';
import { authWith, KEYS } from './support';

const GONE = '2222A5ADDAE3012D';
const FOUND = '9437A5ADDAE3012D';
const IDS = {
  email: 'ana.k@example.com', platformid: '5555A5ADDAE3012D', username: 'ana_k_user', displayname: 'Ana Racer', storefront: 'ana_store', consolelive: '2533274999999999',
};
const OTHER_EMAIL = 'ana.private@example.org';

/** A completed request naming one identifier of each kind, an account found and acted on, one found already gone, and e-mails typed in the reference. */
function completed(): DataRequest {
  const r = newRequest({
    reference: `TICKET-29 from ${IDS.email} (also ${OTHER_EMAIL})`, asks: ['access', 'erasure'], titles: ['F71AC'], endpoint: 'http://127.0.0.1:1/{titleId}', received: '2026-01-05',
    identifiers: Object.entries(IDS).map(([kind, value]) => ({ kind: kind as never, value, ...(kind === 'consolelive' ? { sandbox: 'RETAIL' } : {}) })),
  });
  r.resolution = {
    at: '2026-01-05T10:00:00.000Z', titlesAsked: ['F71AC'], titlesSkipped: [],
    findings: [{ identifier: 0, titleId: 'F71AC', platformId: FOUND }, { identifier: 1, titleId: 'F71AC', platformId: GONE }, { identifier: 2, titleId: 'F71AC', platformId: null }],
    accounts: [{ platformId: FOUND, titleIds: ['F71AC'], foundIn: ['F71AC'], identifiers: [0], senderTitleId: 'F71AC' }],
    gone: [GONE],
    calls: [{ at: '2026-01-05T10:00:00.000Z', titleId: 'F71AC', operation: 'GetPlayedTitleList', platformId: GONE, outcome: 'AccountNotFound' }],
  };
  r.actions = [
    { kind: 'export', platformId: FOUND, titleId: 'F71AC', status: 'completed', jobReceiptId: 'R1', completedBy: 'recorded', completedAt: '2026-01-06T00:00:00.000Z', downloadUrl: 'https://dl.example/x?sig=abc' },
    { kind: 'erasure', platformId: FOUND, titleId: 'F71AC', status: 'completed', jobReceiptId: 'R2', completedBy: 'AccountNotFound', completedAt: '2026-01-07T00:00:00.000Z' },
  ];
  return r;
}

describe('requests: evidence an auditor can check (issue 29)', () => {
  let dir: string;
  let store: RequestStore;
  let services: RequestServices & { keys: FolderKeyStore; anchors: FolderAnchorStore };
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pe-evattack-'));
    services = {
      client: () => undefined, key: () => Promise.resolve(undefined), operator: OPERATOR,
      keys: new FolderKeyStore(join(dir, 'config', 'platform-explorer')), anchors: new FolderAnchorStore(join(dir, 'state', 'anchors')),
    };
    // The state file sealed with the title's key and anchored with the evidence (A2's rules).
    store = await RequestStore.open(join(dir, 'store'), { auth: authWith(KEYS, { anchors: services.anchors }) });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function closed(): Promise<{ id: string; json: string; path: string }> {
    const r = completed();
    await store.create(r);
    await closeRequest(store, r.id, services);
    const path = store.evidencePath(r.id, 'json');
    return { id: r.id, json: readFileSync(path, 'utf8'), path };
  }

  /** What the forger of issue 29 did: export-link entries removed, the erasure's date moved, the chain re-hashed, the head rewritten, evidence.md re-rendered. */
  function forge(json: string): Evidence {
    const ev = JSON.parse(json) as Evidence;
    const entries = ev.entries.filter((e) => e.type !== 'export-link').map((e) => (e.type === 'closed' ? { ...e, at: '2026-01-03T00:00:00.000Z' } : e));
    let prev = entries[0].prev;
    ev.entries = entries.map((e, i) => {
      const body = { ...e, seq: i + 1, prev };
      const hash = entryHash(prev, body);
      prev = hash;
      return { ...body, hash };
    });
    ev.head = prev;
    return ev;
  }

  it('a closed pack forged and re-hashed is refused: its signature, and re-signed by the forger, the signer, the MACs and the anchor', async () => {
    const { id, json, path } = await closed();
    assert.deepEqual((await verifyEvidence(store, id, { ...services, signer: { pem: OPERATOR.publicKeyPem, from: 'op.pem' } })).problems, []);
    const forged = forge(json);
    const write = (ev: Evidence): void => {
      writeFileSync(path, evidenceJson(ev));
      writeFileSync(store.evidencePath(id, 'md'), evidenceMarkdown(ev));
    };
    write(forged);
    const kept = await verifyEvidenceFile(path, { pem: OPERATOR.publicKeyPem, from: 'op.pem' });
    assert.equal(kept.ok, false);
    assert.ok(kept.problems.some((p) => /^the signature over the chain head does not verify/.test(p)), kept.problems.join('; '));
    assert.ok(kept.checked.some((c) => /^the chain of \d+ entries/.test(c)), 'the message says what was checked (the chain held)');

    // The forger signs with a key of their own: the pack is self-consistent, and refused by every check that knows the operator.
    const forger = newOperator(OPERATOR.name);
    const resigned = signedEvidence(id, forged.entries.map(({ seq: _s, prev: _p, hash: _h, mac: _m, ...b }) => b), forger);
    write(resigned);
    const audit = await verifyEvidenceFile(path, { pem: OPERATOR.publicKeyPem, from: 'op.pem' });
    assert.equal(audit.ok, false);
    assert.ok(audit.problems.some((p) => p.includes(`not by the operator of op.pem (${OPERATOR.fingerprint})`)), audit.problems.join('; '));
    const local = await verifyEvidence(store, id, services);
    assert.equal(local.ok, false);
    assert.ok(local.problems.some((p) => /differs from the one anchored in .*anchors on closing/.test(p)), local.problems.join('; '));
    assert.ok(local.problems.some((p) => /state file recorded on closing/.test(p)), local.problems.join('; '));
    assert.ok(local.problems.some((p) => p.includes(`the request's state file names ${OPERATOR.fingerprint} as the operator who closed it, but ${forger.fingerprint} signed`)), local.problems.join('; '));
  });

  it('an entry whose MAC was replaced is refused by the operator who wrote it, though its hash and the signature hold', async () => {
    const { id, json, path } = await closed();
    const ev = JSON.parse(json) as Evidence;
    ev.entries[2].mac = createHmac('sha256', 'guess').update('x').digest('hex');
    writeFileSync(path, evidenceJson(ev));
    const c = await verifyEvidence(store, id, services);
    assert.deepEqual(c.problems, ['entry 3 has no valid MAC under this machine\'s operator key: it was not written by Platform Explorer with that key']);
    // An auditor without the key checks the signature (which holds: the MAC is the writer's own check) and is told the MACs were not checked.
    const other = await verifyEvidence(store, id, { ...services, operator: newOperator('Auditor') });
    assert.ok(other.checked.some((x) => /^not checked: the entries' MACs/.test(x)), other.checked.join('; '));
  });

  it('a pack signed with another operator\'s key is refused with --signer, naming both fingerprints', async () => {
    const other = newOperator('Someone Else');
    const { id, path } = await (async () => {
      services.operator = other;
      return closed();
    })();
    const ok = await verifyEvidenceFile(path, { pem: other.publicKeyPem, from: 'other.pem' });
    assert.deepEqual(ok.problems, []);
    const bad = await verifyEvidenceFile(path, { pem: OPERATOR.publicKeyPem, from: 'expected.pem' });
    assert.equal(bad.ok, false);
    assert.deepEqual(bad.problems, [`the pack was signed by ${other.fingerprint} (Someone Else), not by the operator of expected.pem (${OPERATOR.fingerprint})`]);
    const notKey = await verifyEvidenceFile(path, { pem: 'not a key', from: 'junk.pem' });
    assert.ok(notKey.problems.some((p) => p.startsWith('junk.pem holds no Ed25519 public key')), notKey.problems.join('; '));
    // Every entry names the operator who caused it.
    const ev = JSON.parse(readFileSync(path, 'utf8')) as Evidence;
    assert.ok(ev.entries.every((e) => e.operator.fingerprint === other.fingerprint && e.operator.name === 'Someone Else'));
    assert.equal(id.length > 0, true);
  });

  it('after close and shred, no identifier is recovered from a dictionary of 100,000 candidates, none is left in clear, and the evidence still verifies', async () => {
    const { id } = await closed();
    const r = await shredRequest(store, id, services);
    assert.ok(r.shreddedAt !== undefined && r.identifiersHashedAt !== undefined);
    const verified = await verifyEvidence(store, id, { ...services, signer: { pem: OPERATOR.publicKeyPem, from: 'op.pem' } });
    assert.deepEqual(verified.problems, [], 'the chain and the signature still hold');
    assert.ok(verified.checked.some((c) => /no personal value is in the pack/.test(c)));

    // Everything an attacker could read: the request's folder, the key folder, the anchors.
    const files: string[] = [];
    const walk = (d: string): void => {
      for (const n of readdirSync(d)) {
        const p = join(d, n);
        if (statSync(p).isDirectory()) walk(p);
        else files.push(p);
      }
    };
    walk(dir);
    const texts = files.map((p) => readFileSync(p, 'utf8'));
    const all = texts.join('\n').toLowerCase();
    for (const v of [...Object.values(IDS), OTHER_EMAIL, GONE, FOUND]) assert.ok(!all.includes(v.toLowerCase()), `${v} is not in clear anywhere`);
    assert.ok(!all.includes('sig=abc'));

    const hashes = new Set(texts.flatMap((t) => [...t.matchAll(/(?:"pii":"|hmac:|sha256:)([0-9a-f]{64})/g)].map((m) => m[1])));
    assert.ok(hashes.size >= 8, `the evidence and state keep hashes (${hashes.size})`);
    const candidates = [...Object.values(IDS), OTHER_EMAIL, GONE, FOUND];
    for (let i = 0; candidates.length < 100_000; i++) candidates.push(`user${i}@example.com`);
    // The attacker's keys: the request ID (the old salt), and every file left in the key folder.
    const keyFolder = services.keys.where;
    const leftKeys = readdirSync(keyFolder).map((n) => readFileSync(join(keyFolder, n)));
    let recovered = 0;
    for (const v of candidates) {
      const tries = [
        createHash('sha256').update(`${EVIDENCE_FORMAT} ${id}\n${v}`).digest('hex'),
        createHmac('sha256', id).update(`${EVIDENCE_FORMAT} identifier\n${v}`).digest('hex'),
        ...leftKeys.map((k) => createHmac('sha256', k).update(`${EVIDENCE_FORMAT} identifier\n${v}`).digest('hex')),
      ];
      if (tries.some((h) => hashes.has(h))) recovered++;
    }
    assert.equal(recovered, 0);
    assert.deepEqual(readdirSync(keyFolder).filter((n) => n.startsWith('request-')), [], 'the request\'s key is gone');
  });
});
