// The runner's reading of each answer, against a client that answers as the service can (in this
// process, no network): what is journaled for each refusal, which players are sent again and which
// never, the pacer told of each throttle, the operation and MetaData sent, and exact counts.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformError, type PlatformErrorInit } from '../../../src/core/api/errors';
import {
  FolderAnchorStore, isAlreadyQueued, Journal, JOURNAL_VERSION, runBatch, type BatchRecord, type DeletionClient, type JournalRecord, type LedgerEntry, type RunProgress,
} from '../../../src/core/deletion';
import { Pacer } from '../../../src/core/pacing/pacer';

const KEY = 'OUTCOMESTESTKEY0123456789ABCDEFGH';
const pid = (i: number): string => `${'ABCDEF'[i % 6]}${String(i).padStart(15, '0')}`;
const refusal = (o: Partial<PlatformErrorInit>): PlatformError => new PlatformError({ kind: 'service', message: `refused ${o.errorCode ?? o.httpStatus ?? ''}`, hint: '', ...o });

type Answer = () => unknown;

/** A client that answers each player's sends in turn (the last answer repeats), counting them. */
function client(answers: Record<string, Answer[]>, o: { mutate?: boolean } = {}): DeletionClient & { sent: { op: string; request: unknown }[] } {
  const sent: { op: string; request: unknown }[] = [];
  const answer = (op: string, request: { PlatformId: string }): unknown => {
    const n = sent.filter((s) => (s.request as { PlatformId: string }).PlatformId === request.PlatformId).length;
    sent.push({ op, request });
    const list = answers[request.PlatformId] ?? [() => ({ JobReceiptId: `R-${request.PlatformId}` })];
    return list[Math.min(n, list.length - 1)]();
  };
  const no = (): never => { throw new Error('not called by a run'); };
  return {
    sent,
    deleteMasterPlayerAccount: async (r) => answer('DeleteMasterPlayerAccount', r) as never,
    ...(o.mutate === true ? { mutate: async (name: string, r: { PlatformId: string }) => answer(name, r) } : {}),
    getPlayedTitleList: no, getPlatformIdsFromConsoleLiveIds: no, getPlatformIdsFromStorefrontNames: no,
  };
}

describe('deletion/run: each answer, in this process', () => {
  let dir: string;
  let anchors: FolderAnchorStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pe-outcomes-'));
    anchors = new FolderAnchorStore(join(dir, 'anchors'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function journal(n: number, o: Partial<BatchRecord> = {}, name = 'j'): Promise<Journal> {
    const entries = Array.from({ length: n }, (_, i) => ({ line: i + 1, input: pid(i), status: 'delete' as const, platformId: pid(i) }));
    const batch: BatchRecord = { type: 'batch', version: JOURNAL_VERSION, batchId: `b-${name}`, titleId: 'F71AC', kind: 'platform-id', createdAt: 't0', entries, ...o };
    return Journal.open(join(dir, `${name}.jsonl`), { key: KEY, anchors, create: batch });
  }
  const outcomes = (name = 'j'): Extract<JournalRecord, { type: 'outcome' }>[] => readFileSync(join(dir, `${name}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as JournalRecord)
    .filter((r): r is Extract<JournalRecord, { type: 'outcome' }> => r.type === 'outcome');
  /** A pacer that never waits on the clock (rate far above what the test sends). */
  const fast = (maxInFlight = 1): Pacer => new Pacer({ initialRate: 1e6, maxRate: 1e6, minRate: 1e5, maxInFlight });

  it('each refusal is journaled as what it means for the player: queued, deleted, failed, unknown or not sent', async () => {
    const answers: Record<string, Answer[]> = {
      [pid(0)]: [() => ({ JobReceiptId: 'R0', TitleIds: ['F71AC', 'A248'] })],
      [pid(1)]: [() => { throw refusal({ errorCode: 1322 }); }],
      [pid(2)]: [() => { throw refusal({ errorCode: 1000, errorDetails: { PlatformId: ['A deletion has already been queued, JobReceiptId: 0123ABCD-99'] } }); }],
      [pid(3)]: [() => { throw refusal({ errorCode: 1000, errorMessage: 'Player is PENDING DELETION' }); }],
      [pid(4)]: [() => { throw refusal({ errorCode: 1000, errorMessage: 'Invalid input parameters' }); }],
      [pid(5)]: [() => { throw refusal({ errorCode: 1001 }); }],
      [pid(6)]: [() => { throw refusal({ kind: 'network', outcomeUnknown: true, message: 'socket hang up' }); }],
      [pid(7)]: [() => { throw refusal({ kind: 'cancelled', message: 'cancelled before it was sent' }); }],
      [pid(8)]: [() => { throw new Error('a bug'); }],
      [pid(9)]: [() => { throw refusal({ errorCode: 1322, errorMessage: 'JobReceiptId: 0123ABC' }); }],
    };
    const j = await journal(10);
    const seen: [string, string][] = [];
    const r = await runBatch(client(answers), j, { resendUnknown: false, pacer: fast(), onOutcome: (p, s) => seen.push([p, s]) });
    const players = j.players();
    await j.close();
    const got = outcomes().map((o) => [o.platformId, o.state, o.jobReceiptId ?? null, o.error ?? null]);
    assert.deepEqual(got, [
      [pid(0), 'queued', 'R0', null],
      [pid(1), 'queued', null, 'the service reports a deletion already queued'],
      [pid(2), 'queued', '0123ABCD-99', 'the service reports a deletion already queued'],
      [pid(3), 'queued', null, 'the service reports a deletion already queued'],
      [pid(4), 'failed', null, 'refused 1000'],
      [pid(5), 'already-deleted', null, 'the service reports no such player (AccountNotFound)'],
      [pid(6), 'unknown', null, 'socket hang up'],
      [pid(7), 'not-sent', null, 'cancelled before it was sent'],
      [pid(8), 'unknown', null, 'a bug'],
      // Fewer than 8 characters quoted are not a receipt.
      [pid(9), 'queued', null, 'the service reports a deletion already queued'],
    ]);
    assert.deepEqual(outcomes()[0].titleIds, ['F71AC', 'A248']);
    assert.deepEqual(seen.map(([, s]) => s), ['queued', 'queued', 'queued', 'queued', 'failed', 'verified-deleted', 'unknown', 'pending', 'unknown', 'queued']);
    assert.deepEqual({ ...r }, { total: 10, sent: 10, toSend: 10, playersSent: 10, queued: 6, failed: 1, unknown: 2, awaiting: 0, pending: 1, waiting: false, throttled: 0, cancelled: false, lost: [] });
    assert.equal(players.get(pid(5))!.state, 'verified-deleted');
  });

  it('odd answers: a thrown non-Error is an unknown outcome named by its text, titles that are not a list are not recorded, a quoted receipt is 8 to 64 characters', async () => {
    const long = 'R'.repeat(65);
    const answers: Record<string, Answer[]> = {
      [pid(0)]: [() => { throw 'socket closed'; }],
      [pid(1)]: [() => ({ JobReceiptId: 'R1', TitleIds: 'F71AC' })],
      [pid(2)]: [() => { throw refusal({ errorCode: 1000, errorMessage: 'already queued, JobReceiptId:  01234567' }); }],
      [pid(3)]: [() => { throw refusal({ errorCode: 1000, errorMessage: `already queued, JobReceiptId ${long}` }); }],
    };
    const j = await journal(4);
    await runBatch(client(answers), j, { resendUnknown: false, pacer: fast() });
    await j.close();
    assert.deepEqual(outcomes().map((o) => [o.state, o.jobReceiptId ?? null, o.titleIds ?? null, o.error ?? null]), [
      ['unknown', null, null, 'socket closed'],
      ['queued', 'R1', null, null],
      ['queued', '01234567', null, 'the service reports a deletion already queued'],
      ['queued', 'R'.repeat(64), null, 'the service reports a deletion already queued'],
    ]);
  });

  it('the ledger\'s queued or deleted players are not sent and the journal says why, exactly; its failed or unknown ones are sent', async () => {
    const entry = (i: number, o: Partial<LedgerEntry>): LedgerEntry => ({ input: pid(i), platformId: pid(i).toLowerCase(), titleId: 'F71AC', titleIds: [], requestedAt: 't0', state: 'queued', ...o });
    const ledger = [entry(0, { jobReceiptId: 'R-OLD', batchId: 'b-old' }), entry(1, { state: 'verified-deleted' }), entry(2, { state: 'failed' }), entry(3, { state: 'unknown' })];
    const j = await journal(4);
    const c = client({});
    const r = await runBatch(c, j, { resendUnknown: false, pacer: fast(), ledger });
    await j.close();
    assert.deepEqual(c.sent.map((x) => (x.request as { PlatformId: string }).PlatformId), [pid(2), pid(3)]);
    assert.deepEqual(outcomes().slice(0, 2).map((o) => [o.platformId, o.state, o.jobReceiptId ?? null, o.error]), [
      [pid(0), 'queued', 'R-OLD', 'not sent: the ledger records its deletion (title F71AC, requested t0, batch b-old)'],
      [pid(1), 'already-deleted', null, 'not sent: the ledger records its deletion (title F71AC, requested t0)'],
    ]);
    assert.deepEqual([r.sent, r.queued, r.pending], [2, 4, 0]);
  });

  it('a refusal is "already queued" only for 1322, or 1000 saying so', () => {
    const yes = [
      refusal({ errorCode: 1322 }), refusal({ errorCode: 1000, errorMessage: 'already queued' }), refusal({ errorCode: 1000, errorMessage: 'has already  been queued' }),
      refusal({ errorCode: 1000, errorDetails: { x: ['a', 'pending deletion'] } }),
    ];
    const no = [refusal({ errorCode: 1000 }), refusal({ errorCode: 1000, errorMessage: 'queued' }), refusal({ errorCode: 1001, errorMessage: 'already queued' }), refusal({ errorCode: 1000, errorMessage: 'alreadyqueued' })];
    assert.deepEqual(yes.map(isAlreadyQueued), [true, true, true, true]);
    assert.deepEqual(no.map(isAlreadyQueued), [false, false, false, false]);
  });

  it('a throttled answer (429, 1199 or 1342) is sent again after the pause, up to the player\'s limit; a 1342 halves the requests in flight', async () => {
    const throttled = [
      refusal({ httpStatus: 429, retryAfterSeconds: 0 }), refusal({ code: 429, retryAfterSeconds: 0 }), refusal({ errorCode: 1199, retryAfterSeconds: 0 }),
    ];
    const answers: Record<string, Answer[]> = {
      [pid(0)]: [...throttled.map((e) => () => { throw e; }), () => ({ JobReceiptId: 'R0' })],
      [pid(1)]: [() => { throw refusal({ errorCode: 1342, retryAfterSeconds: 0 }); }],
    };
    const pacer = fast(4);
    const throttles: [number | undefined, boolean | undefined][] = [];
    const onThrottle = pacer.onThrottle.bind(pacer);
    pacer.onThrottle = (s, c) => { throttles.push([s, c]); onThrottle(s, c); };
    const j = await journal(2);
    const c = client(answers);
    const r = await runBatch(c, j, { resendUnknown: false, pacer, maxThrottlesPerPlayer: 4 });
    await j.close();
    const sends = (p: string): number => c.sent.filter((s) => (s.request as { PlatformId: string }).PlatformId === p).length;
    assert.equal(sends(pid(0)), 4, 'three throttled, then taken');
    assert.equal(sends(pid(1)), 4, 'throttled four times: left pending');
    assert.deepEqual(outcomes().map((o) => o.state).sort(), ['queued', ...Array<string>(7).fill('throttled')]);
    assert.deepEqual({ ...r }, { total: 2, sent: 8, toSend: 2, playersSent: 2, queued: 1, failed: 0, unknown: 0, awaiting: 0, pending: 1, waiting: false, throttled: 7, cancelled: false, lost: [] });
    assert.equal(throttles.length, 7);
    assert.ok(throttles.every(([s]) => s === 0));
    assert.equal(throttles.filter(([, conc]) => conc === true).length, 4, 'only the 1342s are concurrency refusals');
    assert.ok(pacer.inFlightCap < 4, `a 1342 lowered the cap (${pacer.inFlightCap})`);
  });

  it('by default a player is throttled 50 times before it is left pending', async () => {
    const j = await journal(1);
    const c = client({ [pid(0)]: [() => { throw refusal({ httpStatus: 429, retryAfterSeconds: 0 }); }] });
    const r = await runBatch(c, j, { resendUnknown: false, pacer: fast() });
    await j.close();
    assert.equal(c.sent.length, 50);
    assert.deepEqual([r.throttled, r.pending, r.sent], [50, 1, 50]);
  });

  it('sends the batch\'s operation (MetaData only with DeleteMasterPlayerAccount, and only when the batch has one); a client without it sends nothing', async () => {
    let j = await journal(1, { metaData: 'T-9' }, 'ticket');
    let c = client({});
    await runBatch(c, j, { resendUnknown: false, pacer: fast() });
    await j.close();
    assert.deepEqual(c.sent, [{ op: 'DeleteMasterPlayerAccount', request: { PlatformId: pid(0), MetaData: 'T-9' } }]);
    j = await journal(1, {}, 'none');
    c = client({});
    await runBatch(c, j, { resendUnknown: false, pacer: fast() });
    await j.close();
    assert.deepEqual(c.sent, [{ op: 'DeleteMasterPlayerAccount', request: { PlatformId: pid(0) } }]);
    for (const operation of ['ExportMasterPlayerData', 'DeleteMasterPlayerEventData'] as const) {
      j = await journal(1, { operation, metaData: 'T-9' }, operation);
      c = client({ [pid(0)]: [() => undefined] }, { mutate: true });
      const r = await runBatch(c, j, { resendUnknown: false, pacer: fast() });
      assert.deepEqual(c.sent, [{ op: operation, request: { PlatformId: pid(0) } }]);
      assert.equal(r.queued, 1, 'an answer without a body is taken');
      await assert.rejects(runBatch(client({}), j, { resendUnknown: false }), new RegExp(`This client cannot send ${operation}, which the journal's batch sends\\.`));
      await j.close();
    }
  });

  it('progress: awaiting while a request is in flight, then counted by its answer; an unknown is sent again only when the resume says so', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => { release = r; });
    const answers: Record<string, Answer[]> = {
      [pid(0)]: [async () => { await held; return { JobReceiptId: 'R0' }; }],
      [pid(1)]: [() => { throw refusal({ kind: 'network', outcomeUnknown: true }); }, () => ({ JobReceiptId: 'R1' })],
    };
    const j = await journal(2);
    const c = client(answers);
    const seen: RunProgress[] = [];
    const running = runBatch(c, j, { resendUnknown: false, pacer: fast(2), onProgress: (p) => {
      seen.push(p);
      if (p.awaiting === 1 && p.unknown === 1) release();
    } });
    const r = await running;
    assert.deepEqual(seen[0], { total: 2, sent: 0, toSend: 2, playersSent: 0, queued: 0, failed: 0, unknown: 0, awaiting: 0, pending: 2, waiting: false, throttled: 0 });
    assert.ok(seen.some((p) => p.awaiting === 2 && p.unknown === 0 && p.pending === 0), 'both in flight: awaiting, not unknown');
    assert.deepEqual([r.queued, r.unknown, r.awaiting, r.sent], [1, 1, 0, 2]);
    const again = await runBatch(c, j, { resendUnknown: false, pacer: fast() });
    assert.equal(again.sent, 0, 'an unknown is not sent again unasked');
    const resumed = await runBatch(c, j, { resendUnknown: true, pacer: fast() });
    await j.close();
    assert.deepEqual([resumed.sent, resumed.queued, resumed.unknown], [1, 2, 0]);
    // The resume counts what it sends against what it has to send (1 of 1), not the batch's 2.
    assert.deepEqual([resumed.playersSent, resumed.toSend, resumed.total], [1, 1, 2]);
    assert.equal(c.sent.length, 3);
  });

  it('a failed player is sent again by the next run; a queued one never', async () => {
    const j = await journal(2);
    const c = client({ [pid(0)]: [() => { throw refusal({ errorCode: 1000 }); }, () => ({ JobReceiptId: 'R0' })] });
    const first = await runBatch(c, j, { resendUnknown: false, pacer: fast() });
    const second = await runBatch(c, j, { resendUnknown: true, pacer: fast() });
    await j.close();
    assert.deepEqual([first.failed, first.queued, second.sent, second.queued, second.failed], [1, 1, 1, 2, 0]);
    assert.deepEqual(c.sent.map((s) => (s.request as { PlatformId: string }).PlatformId), [pid(0), pid(1), pid(0)]);
  });

  it('a journal line that cannot be written stops every sender: only requests already past their intent go out, and the player stays unknown', async () => {
    for (const failing of ['intent', 'outcome'] as const) {
      const j = await journal(4, {}, failing);
      const append = j.append.bind(j);
      let failed = false;
      j.append = async (r) => {
        if (r.type === failing && !failed) {
          failed = true;
          throw new Error('ENOSPC: no space left on device');
        }
        return append(r);
      };
      const c = client({});
      await assert.rejects(runBatch(c, j, { resendUnknown: false, pacer: fast(2) }), { message: 'ENOSPC: no space left on device' }, failing);
      const players = j.players();
      await j.close();
      // The other sender had taken its player before the failure: it finishes that one, and no more.
      assert.equal(c.sent.length, failing === 'intent' ? 1 : 2, `${failing}: ${c.sent.length} sent`);
      assert.deepEqual([...players.values()].map((p) => p.state), failing === 'intent' ? ['pending', 'queued', 'pending', 'pending'] : ['unknown', 'queued', 'pending', 'pending'], failing);
    }
  });

  it('a cancel while the last request is in flight ends the run as cancelled; the progress says while it waits out a throttle', async () => {
    const ac = new AbortController();
    const j = await journal(1, {}, 'last');
    const r = await runBatch(client({}), j, { resendUnknown: false, pacer: fast(), signal: ac.signal, onOutcome: () => ac.abort() });
    assert.deepEqual([r.cancelled, r.sent, r.queued], [true, 1, 1]);
    await j.close();
    const t = await journal(1, {}, 'wait');
    const seen: boolean[] = [];
    const c = client({ [pid(0)]: [() => { throw refusal({ httpStatus: 429, retryAfterSeconds: 0.5 }); }, () => ({ JobReceiptId: 'R0' })] });
    const done = await runBatch(c, t, { resendUnknown: false, pacer: fast(), onProgress: (p) => seen.push(p.waiting) });
    await t.close();
    assert.deepEqual([done.queued, done.throttled, done.waiting], [1, 1, false]);
    assert.deepEqual([seen[0], seen.includes(true), seen.at(-1)], [false, true, false], JSON.stringify(seen));
  });

  it('a cancel before the first send sends nothing and says so; an empty batch runs one sender and ends', async () => {
    const j = await journal(3);
    const ac = new AbortController();
    ac.abort();
    const c = client({});
    const r = await runBatch(c, j, { resendUnknown: false, pacer: fast(), signal: ac.signal });
    assert.deepEqual([r.cancelled, r.sent, r.pending], [true, 0, 3]);
    assert.equal(c.sent.length, 0);
    const done = await runBatch(c, j, { resendUnknown: false, pacer: fast() });
    const idle = await runBatch(c, j, { resendUnknown: false, pacer: fast() });
    await j.close();
    assert.deepEqual([done.sent, done.queued, done.cancelled, idle.sent, idle.cancelled], [3, 3, false, 0, false]);
  });
});
