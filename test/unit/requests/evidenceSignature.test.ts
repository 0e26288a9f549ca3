// verify-evidence's signature, signer, MAC, personal-value and anchor checks, each with what it
// says: the signature covers each field of the envelope it names (the head, the number of entries,
// the signer, the personal values' digest); a fingerprint that is not the key's, a pack with no
// key, a close named to another operator, a --signer file with no key, the MACs checked only by
// the operator who wrote them, and what was left unchecked said as such.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { checkEvidence } from '../../../src/core/requests';
import { evidenceJson, pii, type Evidence } from '../../../src/core/requests/evidence';
import { chain, newOperator, OPERATOR, REQUEST_KEY } from './operatorSupport';

const RID = 'dr-20260105-5161ed';
const AT = '2026-01-05T10:00:00.000Z';
const FP = OPERATOR.fingerprint;

function pack(): Evidence {
  return chain(RID, [
    { type: 'request', at: AT, requestId: RID, reference: 'T', asks: ['erasure'], titles: ['F71AC'], identifiers: [{ kind: 'email', id: pii(REQUEST_KEY, 'ana@example.com') }] },
    { type: 'closed', at: AT, actions: [] },
  ]);
}
const text = (ev: Evidence): string => evidenceJson(ev);
const SIG = `the signature over the chain head does not verify with the public key the pack carries (${FP}): the entries, the head or the signer were changed, or the pack was re-hashed by someone without the operator's key`;

describe('requests: verify-evidence, the signature and what it covers', () => {
  it('the signature covers the signer\'s name, fingerprint and key, the head, the number of entries and the values\' digest', () => {
    const ev = pack();
    assert.deepEqual(checkEvidence(text(ev)).problems, []);
    const renamed = checkEvidence(text({ ...ev, signer: { ...ev.signer, name: 'Mallory' } }));
    assert.deepEqual(renamed.problems, [SIG]);
    assert.deepEqual(renamed.signer, { name: 'Mallory', fingerprint: FP }, 'the signer as the pack says');
    const digest = createHash('sha256').update('other').digest('hex');
    assert.deepEqual(checkEvidence(text({ ...ev, values: digest })).problems, [SIG, 'the personal values differ from those the pack was signed with (changed)']);
    // The request ID is signed too: the same entries presented as another request's.
    assert.ok(checkEvidence(text({ ...ev, requestId: 'dr-20260105-000000' })).problems.includes(SIG));
    // One entry fewer, its chain whole (a shorter pack of the same head is not what was signed).
    const one = chain(RID, [{ type: 'request', at: AT, requestId: RID, reference: 'T', asks: ['erasure'], titles: ['F71AC'], identifiers: [] }]);
    const spliced = { ...one, signature: ev.signature, head: one.head, signer: ev.signer, values: one.values };
    assert.deepEqual(checkEvidence(text(spliced)).problems, [SIG]);
    assert.deepEqual(checkEvidence(text({ ...ev, signature: 7 as unknown as string })).problems, [SIG]);
  });

  it('a pack with no signer key, a fingerprint that is not the key\'s, a close named to another operator', () => {
    const ev = pack();
    const none = 'the pack carries no Ed25519 public key of its signer: it was not signed by Platform Explorer';
    for (const signer of [null, { ...ev.signer, publicKey: 'not a key' }, { ...ev.signer, publicKey: 7 }, { publicKey: ev.signer.publicKey, name: 'x' }]) {
      const c = checkEvidence(text({ ...ev, signer: signer as never }));
      assert.ok(c.problems.includes(none), JSON.stringify(signer));
      assert.equal(c.ok, false);
    }
    assert.equal(checkEvidence(text({ ...ev, signer: null as never })).signer, undefined);
    const other = newOperator('Other');
    const wrongFp = checkEvidence(text({ ...ev, signer: { ...ev.signer, fingerprint: other.fingerprint } }));
    assert.equal(wrongFp.problems[0], `the signer's fingerprint ${other.fingerprint} is not the fingerprint of the public key the pack carries (${FP})`);
    // Entries named to one operator, signed by another: the close must be the signer's.
    const byOther = chain(RID, [{ type: 'closed', at: AT, actions: [], operator: { fingerprint: other.fingerprint, name: 'Other' } }]);
    assert.deepEqual(checkEvidence(text(byOther)).problems, [`the close is named to operator ${other.fingerprint}, but ${FP} signed the pack`]);
    const nameless = chain(RID, [{ type: 'closed', at: AT, actions: [], operator: 'nobody' }]);
    assert.deepEqual(checkEvidence(text(nameless)).problems, ['entry 1 names no operator']);
  });

  it('--signer: the expected operator\'s key, a file with no key, another operator; unchecked said so', () => {
    const ev = pack();
    const other = newOperator('Other');
    const ok = checkEvidence(text(ev), { signer: { pem: OPERATOR.publicKeyPem, from: 'ana.pem' } });
    assert.ok(ok.checked.includes(`that the signer is the operator of ana.pem (${FP})`), ok.checked.join('; '));
    assert.deepEqual(checkEvidence(text(ev), { signer: { pem: 'hello', from: 'notes.txt' } }).problems,
      ['notes.txt holds no Ed25519 public key (give the PEM that platform-explorer operator show --public-key prints)']);
    assert.deepEqual(checkEvidence(text(ev), { signer: { pem: other.publicKeyPem, from: 'ben.pem' } }).problems,
      [`the pack was signed by ${FP} (${OPERATOR.name}), not by the operator of ben.pem (${other.fingerprint})`]);
    assert.ok(checkEvidence(text(ev)).checked.includes('not checked: which operator that is (give --signer FILE, the operator\'s public key)'));
  });

  it('the MACs: checked by the operator who wrote them, a replaced or missing one refused; another operator is told they were not checked', () => {
    const ev = pack();
    const mine = checkEvidence(text(ev), { operator: OPERATOR });
    assert.ok(mine.checked.includes(`each entry's MAC with this machine's operator key (${FP})`));
    const other = newOperator('Other');
    const theirs = checkEvidence(text(ev), { operator: other });
    assert.deepEqual(theirs.problems, []);
    assert.ok(theirs.checked.includes(`not checked: the entries' MACs (signed by ${FP}, not by this machine's operator ${other.fingerprint})`));
    const bad = { ...ev, entries: [{ ...ev.entries[0], mac: 'f'.repeat(64) }, { ...ev.entries[1], mac: undefined as unknown as string }] };
    const c = checkEvidence(text(bad), { operator: OPERATOR });
    assert.deepEqual(c.problems, [1, 2].map((n) => `entry ${n} has no valid MAC under this machine's operator key: it was not written by Platform Explorer with that key`));
    assert.ok(!c.checked.some((x) => x.startsWith('each entry\'s MAC')));
  });

  it('personal values: none left (retention), one changed under the request\'s key; the anchors outside the store', () => {
    const ev = pack();
    const dropped = { ...ev, entries: ev.entries.map((e) => JSON.parse(JSON.stringify(e).replace(/,"value":"ana@example\.com"/, '')) as typeof e) };
    const c = checkEvidence(text(dropped), { requestKey: REQUEST_KEY });
    assert.deepEqual(c.problems, []);
    assert.ok(c.checked.includes('no personal value is in the pack (retention dropped them; their hashes are chained)'));
    assert.ok(!c.checked.includes('the personal values against the signed digest'));
    const changed = checkEvidence(text(ev).replace('ana@example.com', 'bob@example.com'), { requestKey: REQUEST_KEY });
    assert.ok(changed.problems.includes('1 personal identifier(s) do not match their hash under the request\'s key (changed)'), changed.problems.join('; '));
    const where = '/home/ana/.local/state/platform-explorer/anchors';
    assert.ok(checkEvidence(text(ev), { outside: { head: undefined, where } }).checked.includes(`not checked: the head's anchor (none in ${where}: the request was closed on another machine or with another state folder)`));
    assert.deepEqual(checkEvidence(text(ev), { outside: { head: 'f'.repeat(64), where } }).problems, [`the chain head differs from the one anchored in ${where} on closing: the evidence was replaced`]);
    assert.ok(checkEvidence(text(ev), { outside: { head: ev.head, where } }).checked.includes(`the head against its anchor in ${where}`));
    assert.deepEqual(checkEvidence(text(ev), { anchor: 'f'.repeat(64) }).problems, ['the chain head differs from the one the request\'s state file recorded on closing: the evidence was replaced, cut or extended']);
  });
});
