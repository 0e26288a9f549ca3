// The state file's seal, check by check, in process (seal.ts): each refusal names the file and what
// is wrong (a seal of another title, a key not set here, a copy other than the one anchored, a copy
// that went on past its anchor, why the anchor is missing); a save killed between the file and the
// anchor is accepted; the seal stays with the title that wrote it while its key is set.
import * as assert from 'node:assert/strict';
import type { Anchor, AnchorStore } from '../../../src/core/deletion/anchor';
import { newRequest, type DataRequest } from '../../../src/core/requests';
import { anchorSeal, checkSeal, sealState, type RequestAuth } from '../../../src/core/requests/seal';
import { macKey, sealLine, type JournalRecord } from '../../../src/core/deletion/records';

const PATH = '/home/ana/requests/dr-1/request.json';

/** Anchors in memory, kept under `where`. */
function anchors(where = '/state/anchors'): AnchorStore & { map: Map<string, Anchor> } {
  const map = new Map<string, Anchor>();
  return {
    where, map,
    get: (id) => Promise.resolve(map.get(id)),
    set: (a) => { map.set(a.batchId, a); return Promise.resolve(); },
    list: () => Promise.resolve([...map.values()]),
    hold: () => Promise.resolve(() => Promise.resolve()),
  };
}

const auth = (keys: Record<string, string>, a: AnchorStore, o: Partial<RequestAuth> = {}): RequestAuth => ({ key: (t) => Promise.resolve(keys[t]), anchors: a, ...o });

function request(): DataRequest {
  return newRequest({ reference: 'T-1', asks: ['erasure'], identifiers: [{ kind: 'email', value: 'ana@example.com' }], titles: ['F71AC', 'A248'], endpoint: 'http://127.0.0.1:1/{titleId}', received: '2026-01-05' });
}

/** Saves `r` as the store does: sealed, then anchored; returns what was written. */
async function save(r: DataRequest, a: RequestAuth): Promise<DataRequest> {
  const text = await sealState(r, a, PATH);
  await anchorSeal(r, a, PATH);
  return JSON.parse(text) as DataRequest;
}

const refused = async (p: Promise<unknown>, re: RegExp): Promise<void> => {
  await assert.rejects(p, (e: Error) => {
    assert.match(e.message, re);
    assert.ok(e.message.includes(PATH), `names the file: ${e.message}`);
    return true;
  });
};

describe('requests: the state file\'s seal, check by check', () => {
  it('seals with the first title that has a key, and keeps that title while its key is set; no key at all writes nothing', async () => {
    const a = anchors();
    const r = request();
    const first = await save(r, auth({ A248: 'key-a', F71AC: ' ' }, a));
    assert.equal(first.seal?.titleId, 'A248', 'a key of spaces is no key');
    assert.equal(first.seal?.generation, 1);
    assert.equal(first.seal?.prev, '');
    assert.equal(first.seal?.anchors, '/state/anchors');
    const firstMac = first.seal?.mac;
    const second = await save(first, auth({ A248: 'key-a', F71AC: 'key-f' }, a));
    assert.equal(second.seal?.titleId, 'A248', 'the title that sealed it before');
    assert.equal(second.seal?.generation, 2);
    assert.equal(second.seal?.prev, firstMac);
    assert.deepEqual({ ...a.map.get(r.id), at: undefined }, { batchId: r.id, titleId: 'A248', lines: 2, mac: second.seal?.mac, path: PATH, at: undefined });
    await checkSeal(second, auth({ A248: 'key-a' }, a), PATH);
    await assert.rejects(sealState(request(), auth({}, a), PATH), /no secret key of its titles \(F71AC, A248\) is set here, and its state file .*request\.json is authenticated with one; nothing was written/);
  });

  it('refuses a seal of a title that is not the request\'s, a key not set here, and a copy other than the one anchored', async () => {
    const a = anchors();
    const keys = { F71AC: 'key-f', A248: 'key-a' };
    const saved = await save(request(), auth(keys, a));
    await refused(checkSeal({ ...saved, seal: { ...saved.seal!, titleId: 'C3A5E' } }, auth(keys, a), PATH), /is sealed with title C3A5E, which is not one of its titles: it was changed/);
    await refused(checkSeal(saved, auth({ A248: 'key-a' }, a), PATH), /authenticated with the secret key of title F71AC, which is not set here; nothing was sent\. Set that title's key \(PLATFORM_SECRET_KEY_F71AC/);
    // Another copy of the same save (sealed with the key, but not the one anchored here).
    const copy = await save({ ...saved, seal: undefined, reference: 'T-2' }, auth(keys, anchors()));
    await refused(checkSeal(copy, auth(keys, a), PATH), /is not the copy this machine last wrote \(save 1 differs from the anchored one\)/);
  });

  it('a save killed before its anchor is accepted; one that went on past its anchor, or has none, is refused saying why, unless accepted', async () => {
    const a = anchors();
    const keys = { F71AC: 'key-f' };
    const one = await save(request(), auth(keys, a));
    // The next save written, the process killed before the anchor: one ahead, linked to the anchored save.
    const two = JSON.parse(await sealState(structuredClone(one), auth(keys, a), PATH)) as DataRequest;
    await checkSeal(two, auth(keys, a), PATH);
    // Two saves ahead of the anchor: it went on elsewhere.
    const three = JSON.parse(await sealState(structuredClone(two), auth(keys, a), PATH)) as DataRequest;
    await refused(checkSeal(three, auth(keys, a), PATH), /went on past its anchor here \(save 1\) without it \(the anchors folder \/state\/anchors holds none for it/);
    // No anchor, the same folder: removed or restored; another folder: named both.
    const elsewhere = anchors('/other/anchors');
    await refused(checkSeal(one, auth(keys, anchors()), PATH), /has no anchor here \(the anchors folder \/state\/anchors holds none for it: it was removed, or this is a restored copy/);
    await refused(checkSeal(one, auth(keys, elsewhere), PATH), /last written with its anchors in \/state\/anchors, and this run keeps them in \/other\/anchors: another state folder/);
    const notices: string[] = [];
    await checkSeal(one, auth(keys, elsewhere, { noAnchor: true, onNotice: (m) => notices.push(m) }), PATH);
    assert.equal(notices.length, 1);
    assert.match(notices[0], /has no anchor here .*; used as it is \(--no-anchor\) and anchored here from now on\.$/);
  });

  it('the seal is the journal\'s line MAC under the domain "request-state ID"; a seal without a string title or a save number from 1 is no seal', async () => {
    const a = anchors();
    const keys = { F71AC: 'key-f' };
    const saved = await save(request(), auth(keys, a));
    const { seal: _s, ...content } = saved;
    // A journal's batch IDs have no space: a journal line's MAC never passes as a state file's seal.
    assert.equal(saved.seal?.mac, sealLine(macKey('key-f'), `request-state ${saved.id}`, 1, '', JSON.parse(JSON.stringify(content)) as JournalRecord).mac);
    const noSeal = /carries no seal: it was not written by this version of Platform Explorer, or it was replaced\. Nothing was sent\./;
    await refused(checkSeal({ ...saved, seal: { ...saved.seal!, titleId: 7 as unknown as string } }, auth(keys, a), PATH), noSeal);
    await refused(checkSeal({ ...saved, seal: { ...saved.seal!, generation: 0 } }, auth(keys, a), PATH), noSeal);
    await refused(checkSeal({ ...saved, seal: { ...saved.seal!, mac: 'A'.repeat(64) } }, auth(keys, a), PATH), noSeal);
  });

  it('one save ahead of its anchor but not linked to the anchored save (another copy went on) is refused, saying the risk', async () => {
    const a = anchors();
    const keys = { F71AC: 'key-f' };
    await save(request(), auth(keys, a));
    const r = request();
    // Another save 1 of the same request (written elsewhere), then its save 2: one ahead, linked to the other save 1.
    const other = anchors();
    const one = await save({ ...r, id: [...a.map.keys()][0], reference: 'T-2' }, auth(keys, other));
    const two = JSON.parse(await sealState(structuredClone(one), auth(keys, other), PATH)) as DataRequest;
    await refused(checkSeal(two, auth(keys, a), PATH), /went on past its anchor here \(save 1\) without it .*so it cannot be checked for being an older copy, and an older copy would send again what was sent since\. Nothing was sent\./);
  });
});
