// The ledger without the service: what a journal's players become as entries (only players a
// request was sent for), verification against a client that answers as the service does
// (AccountNotFound once a deletion completed), and the exports' exact columns.
import * as assert from 'node:assert/strict';
import { PlatformError } from '../../../src/core/api/errors';
import {
  awaitsVerification, JOURNAL_VERSION, ledgerCsv, ledgerFromJournal, ledgerJson, nextVerifyDelay, verifyQueued,
  type BatchRecord, type DeletionClient, type LedgerEntry, type PlayerRecord,
} from '../../../src/core/deletion';

const A = 'AAAAAAAAAAAAAAA1';
const B = 'BBBBBBBBBBBBBBB2';
const C = 'CCCCCCCCCCCCCCC3';
const D = 'DDDDDDDDDDDDDDD4';
const E = 'EEEEEEEEEEEEEEE5';
const batch: BatchRecord = {
  type: 'batch', version: JOURNAL_VERSION, batchId: 'b-led', titleId: 'F71AC', kind: 'storefront', createdAt: '2026-01-01T00:00:00.000Z',
  entries: [
    { line: 1, input: 'ana', status: 'delete', platformId: A, titleIds: ['F71AC'] },
    { line: 2, input: 'bob', status: 'delete', platformId: B },
    { line: 3, input: 'cy', status: 'delete', platformId: C },
    { line: 4, input: 'dee', status: 'delete', platformId: D },
    { line: 5, input: 'gone', status: 'unlinked' },
  ],
};

const notFound = (): PlatformError => new PlatformError({ kind: 'service', message: 'AccountNotFound', hint: '', httpStatus: 400, errorCode: 1001 });

/** A client whose GetPlayedTitleList answers per PlatformId, counting the calls. */
function client(answers: Record<string, () => unknown>): DeletionClient & { calls: string[]; signals: (AbortSignal | undefined)[] } {
  const calls: string[] = [];
  const signals: (AbortSignal | undefined)[] = [];
  const no = (): never => { throw new Error('not called by verification'); };
  return {
    calls, signals,
    getPlayedTitleList: async (pid: string, o?: { signal?: AbortSignal }) => {
      calls.push(pid);
      signals.push(o?.signal);
      return answers[pid]() as never;
    },
    deleteMasterPlayerAccount: no, getPlatformIdsFromConsoleLiveIds: no, getPlatformIdsFromStorefrontNames: no,
  };
}

describe('deletion/ledger', () => {
  it('a journal\'s entries: every player a request was sent for, with its input, titles, dates, receipt and the error only where it matters', () => {
    const players = new Map<string, PlayerRecord>([
      [A, { state: 'queued', intents: 1, requestedAt: 't1', jobReceiptId: 'R1', titleIds: ['F71AC', 'A248'], error: 'an earlier refusal' }],
      [B, { state: 'pending', intents: 0 }],
      [C, { state: 'pending', intents: 1, requestedAt: 't3', error: 'throttled' }],
      [D, { state: 'verified-deleted', intents: 0, verifiedAt: 't4', error: 'old' }],
      [E, { state: 'failed', intents: 1, error: 'refused' }],
    ]);
    const entries = ledgerFromJournal({ ...batch, metaData: 'TICKET-1' }, players);
    assert.deepEqual(entries, [
      { input: 'ana', platformId: A, titleId: 'F71AC', titleIds: ['F71AC', 'A248'], requestedAt: 't1', state: 'queued', batchId: 'b-led', jobReceiptId: 'R1', metaData: 'TICKET-1' },
      { input: 'cy', platformId: C, titleId: 'F71AC', titleIds: [], requestedAt: 't3', state: 'pending', batchId: 'b-led', metaData: 'TICKET-1', error: 'throttled' },
      { input: 'dee', platformId: D, titleId: 'F71AC', titleIds: [], requestedAt: '2026-01-01T00:00:00.000Z', state: 'verified-deleted', batchId: 'b-led', metaData: 'TICKET-1', verifiedAt: 't4' },
      { input: E, platformId: E, titleId: 'F71AC', titleIds: [], requestedAt: '2026-01-01T00:00:00.000Z', state: 'failed', batchId: 'b-led', metaData: 'TICKET-1', error: 'refused' },
    ]);
    // The plan's titles stand in where the journal recorded none; no ticket, no MetaData.
    const [a] = ledgerFromJournal(batch, new Map([[A, { state: 'unknown', intents: 1, error: 'no answer' }]]));
    assert.deepEqual(a, { input: 'ana', platformId: A, titleId: 'F71AC', titleIds: ['F71AC'], requestedAt: '2026-01-01T00:00:00.000Z', state: 'unknown', batchId: 'b-led', error: 'no answer' });
    assert.deepEqual(['queued', 'unknown', 'pending', 'failed', 'verified-deleted'].map((state) => awaitsVerification({ state } as LedgerEntry)), [true, true, false, false, false]);
  });

  it('verification asks once per queued or unknown player: AccountNotFound is deleted (recorded), an answer is still queued, anything else an error', async () => {
    const c = client({
      [A]: () => ({ TitleIds: ['F71AC'] }),
      [B]: () => { throw notFound(); },
      [C]: () => { throw new PlatformError({ kind: 'service', message: 'The title is not allowed', hint: '', errorCode: 1000 }); },
      [D]: () => { throw 'a string'; },
    });
    const entry = (platformId: string, state: LedgerEntry['state']): LedgerEntry => ({ input: platformId, platformId, titleId: 'F71AC', titleIds: [], requestedAt: 't', state });
    const recorded: [string, string][] = [];
    const before = Date.now();
    const r = await verifyQueued(c, [entry(A, 'queued'), entry(B, 'unknown'), entry(A, 'queued'), entry(C, 'queued'), entry(D, 'queued'), entry(E, 'failed'), entry(E, 'verified-deleted')], (pid, at) => { recorded.push([pid, at]); });
    assert.deepEqual(c.calls, [A, B, C, D], 'each player once; failed and deleted ones are not asked');
    assert.deepEqual(r, { verified: [B], stillQueued: [A], errors: [{ platformId: C, error: 'The title is not allowed' }, { platformId: D, error: 'a string' }] });
    assert.equal(recorded.length, 1);
    assert.equal(recorded[0][0], B);
    const at = Date.parse(recorded[0][1]);
    assert.ok(at >= before && at <= Date.now() && new Date(at).toISOString() === recorded[0][1], recorded[0][1]);
  });

  it('verification stops at an aborted signal, before the next player', async () => {
    const ac = new AbortController();
    const c = client({ [A]: () => { ac.abort(); return {}; }, [B]: () => ({}) });
    const entries = [A, B].map((platformId): LedgerEntry => ({ input: platformId, platformId, titleId: 'F71AC', titleIds: [], requestedAt: 't', state: 'queued' }));
    const r = await verifyQueued(c, entries, () => undefined, { signal: ac.signal });
    assert.deepEqual(c.calls, [A]);
    assert.deepEqual(r, { verified: [], stillQueued: [A], errors: [] });
    assert.equal(c.signals[0], ac.signal, 'the signal reaches the request, so a cancel stops it');
  });

  it('background verification doubles its wait from the first to the cap, and starts over on progress', () => {
    assert.equal(nextVerifyDelay(undefined, false, 100, 1000), 100);
    assert.equal(nextVerifyDelay(100, false, 100, 1000), 200);
    assert.equal(nextVerifyDelay(600, false, 100, 1000), 1000);
    assert.equal(nextVerifyDelay(1000, false, 100, 1000), 1000);
    assert.equal(nextVerifyDelay(800, true, 100, 1000), 100);
  });

  it('the CSV has its columns in order, RFC 4180 quoting (only fields with a comma, quote or line break), CRLF line ends; the JSON says when it was exported', () => {
    const entries: LedgerEntry[] = [
      { input: 'ana', platformId: A, titleId: 'F71AC', titleIds: ['F71AC', 'A248'], jobReceiptId: 'R1', metaData: 'T-1', requestedAt: 't1', state: 'verified-deleted', verifiedAt: 't2', batchId: 'b', error: 'e' },
      { input: B, platformId: B, titleId: 'F71AC', titleIds: [], requestedAt: 't3', state: 'queued' },
      { input: 'ana, "k"', platformId: A, titleId: 'F71AC', titleIds: [], requestedAt: 't4', state: 'failed', error: 'line one\r\nline two' },
    ];
    assert.equal(ledgerCsv(entries), [
      'Input,PlatformId,TitleId,TitleIds,JobReceiptId,MetaData,RequestedAt,State,VerifiedAt,BatchId,Error',
      `ana,${A},F71AC,F71AC A248,R1,T-1,t1,verified-deleted,t2,b,e`,
      `${B},${B},F71AC,,,,t3,queued,,,`,
      `"ana, ""k""",${A},F71AC,,,,t4,failed,,,"line one\r\nline two"`,
      '',
    ].join('\r\n'));
    assert.equal(ledgerCsv([]), 'Input,PlatformId,TitleId,TitleIds,JobReceiptId,MetaData,RequestedAt,State,VerifiedAt,BatchId,Error\r\n');
    const json = ledgerJson(entries, '2026-02-02T00:00:00.000Z');
    assert.ok(json.endsWith('}\n') && json.includes('\n  "exportedAt"'), 'indented, one newline at the end');
    assert.deepEqual(JSON.parse(json), { exportedAt: '2026-02-02T00:00:00.000Z', deletions: [entries[0], { ...entries[1], jobReceiptId: null }, { ...entries[2], jobReceiptId: null }] });
    assert.match(JSON.parse(ledgerJson([])).exportedAt, /^\d{4}-\d\d-\d\dT/);
  });
});
