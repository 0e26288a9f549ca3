// The journal's records without a file: each field of a batch, an entry and a step checked (what
// the journal refuses before anything is sent), the MAC over each line, and the replay that says
// who may be sent (a queued or deleted player is never sent again).
import * as assert from 'node:assert/strict';
import {
  batchOperation, batchProblem, FIRST_PREV_MAC, JOURNAL_VERSION, macKey, macMatches, recordProblem, replay, sealLine, splitLine, stateAfter,
  type BatchRecord, type JournalRecord,
} from '../../../src/core/deletion';

const A = 'AAAAAAAAAAAAAAA1';
const B = 'BBBBBBBBBBBBBBB2';
const C = 'CCCCCCCCCCCCCC';
const batch = (o: Partial<BatchRecord> = {}): BatchRecord => ({
  type: 'batch', version: JOURNAL_VERSION, batchId: 'b-1', titleId: 'F71AC', kind: 'platform-id', createdAt: '2026-01-01T00:00:00.000Z',
  entries: [
    { line: 1, input: A, status: 'delete', platformId: A, titleIds: ['F71AC'] },
    { line: 2, input: B, status: 'delete', platformId: B },
    { line: 3, input: 'x', status: 'invalid', reason: 'not one' },
    { line: 4, input: C, status: 'duplicate', platformId: C },
  ],
  ...o,
});
const problem = (o: Record<string, unknown>): string | undefined => batchProblem({ ...batch(), ...o } as unknown as Record<string, unknown>);
const entry = (o: Record<string, unknown>): string | undefined => problem({ entries: [{ line: 1, input: A, status: 'delete', platformId: A, ...o }] });

describe('deletion/records', () => {
  it('a valid batch passes; each field that is not as written is named', () => {
    assert.equal(problem({}), undefined);
    assert.equal(problem({ sandbox: 'S'.repeat(64), metaData: 'm'.repeat(2000), operation: 'ExportMasterPlayerData', createdAt: 'x'.repeat(40) }), undefined, 'every bound reached, not passed');
    const cases: [Record<string, unknown>, string][] = [
      [{ batchId: 7 }, 'its batch ID is not one this tool writes'],
      [{ batchId: 'b/../x' }, 'its batch ID is not one this tool writes'],
      [{ batchId: 'b'.repeat(65) }, 'its batch ID is not one this tool writes'],
      [{ titleId: 5 }, 'its title ID is not a title ID'],
      [{ titleId: 'XYZ!' }, 'its title ID is not a title ID'],
      [{ kind: 'email' }, 'its kind is not one of platform-id, consolelive, storefront'],
      [{ sandbox: 'S'.repeat(65) }, 'its sandbox, ticket or date is not text of a valid length'],
      [{ metaData: 'm'.repeat(2001) }, 'its sandbox, ticket or date is not text of a valid length'],
      [{ metaData: 'line\nbreak' }, 'its sandbox, ticket or date is not text of a valid length'],
      [{ createdAt: 'x'.repeat(41) }, 'its sandbox, ticket or date is not text of a valid length'],
      [{ createdAt: undefined }, 'its sandbox, ticket or date is not text of a valid length'],
      [{ operation: 'DeleteMasterPlayerAccount' }, 'its operation is not one of ExportMasterPlayerData, DeleteMasterPlayerEventData'],
      [{ entries: 'all' }, 'it holds no list of players'],
    ];
    for (const [o, why] of cases) assert.equal(problem(o), why, JSON.stringify(o).slice(0, 80));
  });

  it('each entry of the plan is checked, and the first bad one named by its place', () => {
    assert.equal(entry({ titleIds: ['x'.repeat(200)], reason: 'r'.repeat(2000) }), undefined);
    assert.equal(entry({ titleIds: Array<string>(10_000).fill('T') }), undefined, '10,000 titles');
    assert.equal(entry({ titleIds: Array<string>(10_001).fill('T') }), 'entry 1 of its plan has title IDs or a reason that are not text of a valid length');
    assert.equal(problem({ entries: Array<null>(1_000_001).fill(null) }), 'it holds no list of players', 'more than a million entries');
    const cases: [Record<string, unknown>, string][] = [
      [{ line: 0 }, 'has no line number'],
      [{ line: 1.5 }, 'has no line number'],
      [{ line: '1' }, 'has no line number'],
      [{ input: 'i'.repeat(1025), status: 'invalid', platformId: undefined }, 'has no input or an unknown status'],
      [{ status: 'sent' }, 'has no input or an unknown status'],
      [{ platformId: 'ZZ' }, 'has a PlatformId that is not 14-16 hex characters ("ZZ")'],
      [{ titleIds: 'F71AC' }, 'has title IDs or a reason that are not text of a valid length'],
      [{ titleIds: ['x'.repeat(201)] }, 'has title IDs or a reason that are not text of a valid length'],
      [{ reason: 'r'.repeat(2001) }, 'has title IDs or a reason that are not text of a valid length'],
      [{ platformId: undefined }, 'is to be deleted but names no PlatformId'],
      [{ input: 'not-hex' }, 'is to be deleted but its input is not a valid platform-id: "not-hex" is not a PlatformId: use 14 to 16 hex characters (0-9, A-F).'],
    ];
    for (const [o, why] of cases) assert.equal(entry(o), `entry 1 of its plan ${why}`, JSON.stringify(o).slice(0, 80));
    assert.equal(problem({ entries: [...batch().entries, null] }), 'entry 5 of its plan has no line number');
    // An entry not to be deleted may hold any text input (it is made safe when written).
    assert.equal(entry({ input: 'not-hex', status: 'invalid', platformId: undefined }), undefined);
    assert.equal(entry({ status: 'unlinked', platformId: undefined }), undefined);
  });

  it('a step names a player of the batch, a date and, for an outcome, a known state and text of a valid length', () => {
    const players = new Set([A, B]);
    const ok: Record<string, unknown>[] = [
      { type: 'intent', platformId: A, at: 't' },
      { type: 'verified', platformId: B, at: 'x'.repeat(40) },
      { type: 'outcome', platformId: A, state: 'already-deleted', at: 't', jobReceiptId: 'r'.repeat(400), titleIds: [], error: 'e'.repeat(2000) },
    ];
    for (const r of ok) assert.equal(recordProblem(r, players), undefined, JSON.stringify(r).slice(0, 80));
    const bad: [Record<string, unknown>, string][] = [
      [{ type: 'batch', platformId: A, at: 't' }, 'its type "batch" is not intent, outcome or verified'],
      [{ type: 'intent', platformId: 'aaaa', at: 't' }, 'its PlatformId is not 14-16 hex characters'],
      [{ type: 'intent', platformId: C, at: 't' }, `it names ${C}, not a player of this batch`],
      [{ type: 'intent', platformId: A }, 'its date is missing'],
      [{ type: 'verified', platformId: A, at: 'x'.repeat(41) }, 'its date is missing'],
      [{ type: 'outcome', platformId: A, at: 't', state: 'gone' }, 'its state "gone" is not a known state (queued, throttled, not-sent, failed, unknown, already-deleted)'],
      [{ type: 'outcome', platformId: A, at: 't', state: 'queued', jobReceiptId: 'r'.repeat(401) }, 'its receipt, titles or error are not text of a valid length'],
      [{ type: 'outcome', platformId: A, at: 't', state: 'queued', titleIds: [1] }, 'its receipt, titles or error are not text of a valid length'],
      [{ type: 'outcome', platformId: A, at: 't', state: 'queued', error: 'bell\u0007' }, 'its receipt, titles or error are not text of a valid length'],
    ];
    for (const [r, why] of bad) assert.equal(recordProblem(r, players), why, JSON.stringify(r).slice(0, 80));
  });

  it('each line\'s MAC covers the batch, its place, the line before and its bytes', () => {
    const key = macKey('SECRET');
    const r: JournalRecord = { type: 'intent', platformId: A, at: 't1' };
    const { line, mac } = sealLine(key, 'b-1', 1, 'prev', r);
    assert.equal(line, `${JSON.stringify(r).slice(0, -1)},"mac":"${mac}"}`);
    const parts = splitLine(line)!;
    assert.deepEqual(parts, { body: JSON.stringify(r), mac });
    assert.equal(macMatches(key, 'b-1', 1, 'prev', parts.body, mac), true);
    assert.equal(macMatches(key, 'b-2', 1, 'prev', parts.body, mac), false, 'another batch');
    assert.equal(macMatches(key, 'b-1', 2, 'prev', parts.body, mac), false, 'another place');
    assert.equal(macMatches(key, 'b-1', 1, FIRST_PREV_MAC, parts.body, mac), false, 'another line before');
    assert.equal(macMatches(macKey('OTHER'), 'b-1', 1, 'prev', parts.body, mac), false, 'another key');
    assert.equal(macMatches(key, 'b-1', 1, 'prev', parts.body.replace('t1', 't2'), mac), false, 'changed bytes');
    assert.notEqual(macKey('SECRET').toString('hex'), macKey('SECRET2').toString('hex'));
    // The key's derivation is fixed: journals written by earlier runs must still authenticate.
    assert.equal(macKey('SECRET').toString('hex'), 'e0440264ad5b00f7a31ba05f008ac903b96397171c45cf1730db075d55248f6c');
    assert.equal(splitLine(JSON.stringify(r)), undefined, 'a line without a MAC');
    assert.equal(splitLine(`${line} `), undefined, 'the MAC must end the line');
    assert.equal(splitLine(line.replace(/"mac":"[0-9a-f]{2}/, '"mac":"G0')), undefined, 'the MAC is 64 hex digits');
    assert.equal(batchOperation({}), 'DeleteMasterPlayerAccount');
    assert.equal(batchOperation({ operation: 'ExportMasterPlayerData' }), 'ExportMasterPlayerData');
  });

  it('replay: an intent without an outcome is unknown, and what is queued or deleted stays so whatever a later re-send answered', () => {
    const steps = (...r: JournalRecord[]): JournalRecord[] => [batch(), ...r];
    const one = (records: JournalRecord[], pid = A) => replay(batch(), records).get(pid)!;
    assert.deepEqual([...replay(batch(), steps()).keys()], [A, B], 'only the players to delete');
    assert.deepEqual(one(steps()), { state: 'pending', intents: 0, titleIds: ['F71AC'] });
    assert.deepEqual(one(steps({ type: 'intent', platformId: A, at: 't1' }, { type: 'intent', platformId: A, at: 't2' })), {
      state: 'unknown', intents: 2, requestedAt: 't1', titleIds: ['F71AC'],
    });
    const queued = one(steps(
      { type: 'intent', platformId: A, at: 't1' }, { type: 'outcome', platformId: A, state: 'queued', at: 't2', jobReceiptId: 'R1', titleIds: ['F71AC', 'A248'] },
      { type: 'intent', platformId: A, at: 't3' }, { type: 'outcome', platformId: A, state: 'failed', at: 't4', error: 'refused' },
    ));
    assert.deepEqual(queued, { state: 'queued', intents: 2, requestedAt: 't1', jobReceiptId: 'R1', titleIds: ['F71AC', 'A248'], error: 'refused' });
    // A throttled answer leaves the player to send; its time is not a request's.
    const throttled = one(steps({ type: 'intent', platformId: A, at: 't1' }, { type: 'outcome', platformId: A, state: 'throttled', at: 't2' }));
    assert.equal(throttled.state, 'pending');
    assert.equal(throttled.requestedAt, 't1');
    assert.equal(one(steps({ type: 'outcome', platformId: A, state: 'not-sent', at: 't2' })).requestedAt, undefined);
    assert.equal(one(steps({ type: 'outcome', platformId: A, state: 'queued', at: 't2' })).requestedAt, 't2', 'queued with no intent (the ledger said so)');
    const gone = one(steps({ type: 'outcome', platformId: A, state: 'already-deleted', at: 't5' }));
    assert.deepEqual([gone.state, gone.requestedAt, gone.verifiedAt], ['verified-deleted', 't5', 't5']);
    const queuedThenGone = one(steps({ type: 'outcome', platformId: A, state: 'queued', at: 't1' }, { type: 'outcome', platformId: A, state: 'already-deleted', at: 't2' }));
    assert.deepEqual([queuedThenGone.state, queuedThenGone.requestedAt, queuedThenGone.verifiedAt], ['verified-deleted', 't1', 't2']);
    const verified = one(steps(
      { type: 'outcome', platformId: A, state: 'queued', at: 't1' }, { type: 'verified', platformId: A, at: 't2' },
      { type: 'intent', platformId: A, at: 't3' }, { type: 'outcome', platformId: A, state: 'failed', at: 't4', error: 'x', jobReceiptId: 'late' },
    ));
    assert.deepEqual([verified.state, verified.intents, verified.requestedAt, verified.verifiedAt, verified.jobReceiptId, verified.error], ['verified-deleted', 1, 't1', 't2', undefined, undefined]);
    // A player not of the batch (never in a checked journal) is passed over.
    assert.equal(replay(batch(), steps({ type: 'intent', platformId: C, at: 't' })).get(C), undefined);
  });

  it('each outcome leaves the player in one state', () => {
    assert.deepEqual(['queued', 'throttled', 'not-sent', 'failed', 'unknown', 'already-deleted'].map((s) => stateAfter(s as never)), [
      'queued', 'pending', 'pending', 'failed', 'unknown', 'verified-deleted',
    ]);
  });
});
