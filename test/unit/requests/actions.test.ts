// A request's actions without the service: planned per account and kind in order, each mirrored
// from its journal's record of the player, held until the account's export completed, the next
// step said in a line, and an export's link recorded (or refused, saying why and what to do).
import * as assert from 'node:assert/strict';
import { nextStep, newRequest, RequestError, type Action, type DataRequest, type Resolution } from '../../../src/core/requests';
import { accountsActedOn, planActions, releaseWaiting, syncAction, syncActions } from '../../../src/core/requests/actions';
import { linkProblem, recordLink } from '../../../src/core/requests/verify';
import type { PlayerRecord } from '../../../src/core/deletion';

const P1 = '9437A5ADDAE3012D';
const P2 = '9437A5ADDAE3012E';
const request = (asks: DataRequest['asks'] = ['access', 'erasure']): DataRequest => newRequest({
  reference: 'T-1', asks, identifiers: [{ kind: 'email', value: 'ana@example.com' }], titles: ['F71AC', 'A248'], endpoint: 'http://127.0.0.1:1/{titleId}', received: '2026-01-05',
});
const resolution = (): Resolution => ({
  at: 't', titlesAsked: ['F71AC', 'A248'], titlesSkipped: [], findings: [], gone: [], calls: [],
  accounts: [
    { platformId: P1, titleIds: ['F71AC'], foundIn: ['F71AC', 'A248'], identifiers: [0], senderTitleId: 'F71AC' },
    { platformId: P2, titleIds: [], foundIn: ['A248'], identifiers: [0], senderTitleId: 'A248' },
  ],
});
const act = (kind: Action['kind'], status: Action['status'], o: Partial<Action> = {}): Action => ({ kind, platformId: P1, titleId: 'F71AC', status, ...o });

describe('requests: actions', () => {
  it('plans each asked kind for each account, export then events then erasure, all but the first waiting; --confirm counts accounts', () => {
    const r = request(['erasure', 'events', 'access']);
    r.actions = planActions(r, resolution());
    assert.deepEqual(r.actions.map((a) => `${a.platformId.slice(-1)} ${a.kind} ${a.titleId} ${a.status}`), [
      'D export F71AC planned', 'D events F71AC waiting', 'D erasure F71AC waiting', 'E export A248 planned', 'E events A248 waiting', 'E erasure A248 waiting',
    ]);
    assert.deepEqual(accountsActedOn(r), [P1, P2]);
    assert.deepEqual(planActions(request(['erasure']), resolution()).map((a) => a.status), ['planned', 'planned']);
  });

  it('a waiting action is released only once every earlier action of its account completed', () => {
    const r = request();
    r.actions = [act('export', 'queued'), act('events', 'waiting'), act('erasure', 'waiting'), act('export', 'completed', { platformId: P2 }), act('erasure', 'waiting', { platformId: P2 })];
    releaseWaiting(r);
    assert.deepEqual(r.actions.map((a) => a.status), ['queued', 'waiting', 'waiting', 'completed', 'planned']);
    r.actions[0].status = 'completed';
    releaseWaiting(r);
    assert.deepEqual(r.actions.map((a) => a.status), ['completed', 'planned', 'waiting', 'completed', 'planned'], 'the erasure still waits for the events');
    r.actions[1].status = 'accepted';
    releaseWaiting(r);
    assert.equal(r.actions[2].status, 'planned');
  });

  it('mirrors each journal state into the action: planned, unknown (with why), failed, queued; events-only taken is accepted (no completion signal), never completed; a gone account completes an erasure and fails anything else', () => {
    const p = (state: PlayerRecord['state'], o: Partial<PlayerRecord> = {}): PlayerRecord => ({ state, intents: 1, ...o });
    const cases: [Action, PlayerRecord, Partial<Action>][] = [
      [act('export', 'unknown', { error: 'old' }), p('pending'), { status: 'planned', error: undefined }],
      [act('export', 'planned'), p('unknown'), { status: 'unknown', error: 'sent; no answer was recorded (it may or may not have been taken)' }],
      [act('export', 'planned'), p('unknown', { error: 'socket hang up' }), { status: 'unknown', error: 'socket hang up' }],
      [act('erasure', 'planned'), p('failed', { error: 'refused' }), { status: 'failed', error: 'refused' }],
      [act('export', 'planned'), p('queued', { requestedAt: 't1', jobReceiptId: 'R1' }), { status: 'queued', requestedAt: 't1', jobReceiptId: 'R1' }],
      [act('events', 'planned'), p('queued', { requestedAt: 't1' }), { status: 'accepted', requestedAt: 't1', completedAt: undefined, completedBy: 'no completion signal' }],
      [act('erasure', 'queued'), p('verified-deleted', { requestedAt: 't1', verifiedAt: 't2' }), { status: 'completed', completedAt: 't2', completedBy: 'AccountNotFound' }],
      [act('erasure', 'queued'), p('verified-deleted', { requestedAt: 't1' }), { status: 'completed', completedAt: 't1', completedBy: 'AccountNotFound' }],
      [act('export', 'planned'), p('verified-deleted'), { status: 'failed', error: 'the service reports no such account (AccountNotFound): it was erased before this could run' }],
    ];
    for (const [a, rec, want] of cases) {
      const before = { ...a };
      syncAction(a, rec);
      for (const [k, v] of Object.entries(want)) assert.deepEqual(a[k as keyof Action], v, `${before.kind} ${before.status} + ${rec.state}: ${k}`);
    }
    // A completed export (its link recorded) stays completed; an events-only erasure an older version recorded "completed" is mirrored again, as accepted.
    const done = act('export', 'completed', { requestedAt: 't0', completedBy: 'recorded' });
    syncAction(done, p('queued', { requestedAt: 't9', jobReceiptId: 'R9' }));
    assert.deepEqual(done, act('export', 'completed', { requestedAt: 't0', completedBy: 'recorded' }));
    const events = act('events', 'completed', { completedAt: 't0', completedBy: 'accepted' });
    syncAction(events, p('queued', { requestedAt: 't5' }));
    assert.deepEqual([events.status, events.requestedAt, events.completedAt, events.completedBy], ['accepted', 't5', undefined, 'no completion signal']);
    // A receipt already known is kept when the journal has none; the request time too.
    const kept = act('export', 'planned', { jobReceiptId: 'R0', requestedAt: 't0' });
    syncAction(kept, p('queued'));
    assert.deepEqual([kept.jobReceiptId, kept.requestedAt, kept.status], ['R0', 't0', 'queued']);
  });

  it('a journal of a title the action moved away from speaks for it only if something was taken or may have been there', () => {
    const r = request();
    r.actions = [act('export', 'planned', { titleId: 'F71AC' }), act('export', 'planned', { platformId: P2, titleId: 'F71AC' }), act('erasure', 'waiting')];
    const players = new Map<string, PlayerRecord>([
      [P1, { state: 'queued', intents: 1, jobReceiptId: 'R1' }],
      [P2, { state: 'failed', intents: 1, error: '1006' }],
    ]);
    syncActions(r, [{ kind: 'export', batch: { titleId: 'A248' }, players }]);
    assert.deepEqual(r.actions.map((a) => [a.titleId, a.status]), [['A248', 'queued'], ['F71AC', 'planned'], ['F71AC', 'waiting']]);
    // The title given overrides the batch's; a player with no intent there is passed over; other kinds untouched.
    syncActions(r, [{ kind: 'export', players: new Map([[P2, { state: 'pending', intents: 0 }]]) }], 'A248');
    assert.deepEqual(r.actions.map((a) => [a.titleId, a.status]), [['A248', 'queued'], ['F71AC', 'planned'], ['F71AC', 'waiting']]);
    syncActions(r, [{ kind: 'export', players: new Map([[P2, { state: 'unknown', intents: 1 }]]) }], 'A248');
    assert.deepEqual(r.actions[1].titleId, 'A248');
    assert.equal(r.actions[1].status, 'unknown');
    syncActions(r, [{ kind: 'export', players: new Map([['FFFFFFFFFFFFFFFF', { state: 'queued', intents: 1 }]]) }], 'F71AC');
    assert.equal(r.actions.length, 3, 'a player without an action is passed over');
  });

  it('says the next step in a line for each state', () => {
    const r = request();
    assert.equal(nextStep(r), 'resolve the identifiers: run a dry run');
    r.resolution = resolution();
    assert.equal(nextStep(r), 'close it to write the evidence', 'resolved, no account found: nothing to act on, so completed');
    r.actions = [act('export', 'planned'), act('erasure', 'waiting'), act('export', 'planned', { platformId: P2 })];
    assert.equal(nextStep(r), 'send the actions: run with the --confirm value its dry run shows');
    r.actions = [act('export', 'failed'), act('erasure', 'waiting')];
    assert.equal(nextStep(r), 'some actions are not sent: run again');
    r.actions = [act('export', 'completed'), act('erasure', 'waiting'), act('erasure', 'unknown', { platformId: P2 })];
    assert.equal(nextStep(r), 'exports completed: run again to send the erasures');
    r.actions = [act('export', 'queued'), act('erasure', 'waiting'), act('erasure', 'unknown', { platformId: P2 })];
    assert.equal(nextStep(r), 'some actions were sent without a recorded answer: verify (erasures), or run again choosing to resend them');
    r.actions = [act('export', 'queued'), act('erasure', 'waiting')];
    assert.equal(nextStep(r), 'wait for the service, then verify (an export needs its download link)');
    r.actions = [act('export', 'completed')];
    assert.equal(nextStep(r), 'close it to write the evidence');
    r.closedAt = 't';
    assert.equal(nextStep(r), 'closed');
  });

  it('a download link is an http(s) link without spaces, of at most 4000 characters; recorded, it completes the export with that receipt', () => {
    assert.equal(linkProblem('https://dl.example/x?sig=1'), undefined);
    assert.equal(linkProblem(`http://dl.example/${'a'.repeat(3982)}`), undefined, '4000 characters');
    // What was pasted is never quoted: it may be the bearer link itself, slightly off.
    assert.equal(linkProblem('not a link sig=SECRETPART'), 'What was given is not a link: paste the whole download link from the e-mail (https://...).');
    assert.equal(linkProblem('ftp://dl.example/x?sig=SECRETPART'), 'What was given is not an http(s) link: paste the download link from the e-mail.');
    const long = 'The link is longer than 4000 characters or holds spaces or control characters: paste it exactly as the e-mail gives it.';
    assert.equal(linkProblem(`http://dl.example/${'a'.repeat(3983)}`), long);
    assert.equal(linkProblem('https://dl.example/a\u0007b'), long);
    const r = request();
    r.actions = [act('export', 'queued', { jobReceiptId: 'AB12', error: 'x' }), act('erasure', 'waiting'), act('export', 'planned', { platformId: P2 })];
    assert.throws(() => recordLink(r, 'AB12', 'nope'), (e: unknown) => e instanceof RequestError && /is not a link/.test(e.message));
    assert.throws(() => recordLink(r, 'ZZ99', 'https://dl.example/x'), { message: `No export of request ${r.id} has the JobReceiptId "ZZ99"; exports awaiting a link: AB12.` });
    recordLink(r, ' ab12 ', 'https://dl.example/x', new Date('2026-01-06T00:00:00Z'));
    assert.deepEqual(r.actions[0], act('export', 'completed', { jobReceiptId: 'AB12', downloadUrl: 'https://dl.example/x', completedAt: '2026-01-06T00:00:00.000Z', completedBy: 'recorded' }));
    assert.equal(r.actions[1].status, 'planned', 'the erasure is released');
    assert.throws(() => recordLink(r, 'AB12', 'https://dl.example/y'), { message: 'The export with JobReceiptId AB12 is already completed (its link recorded 2026-01-06T00:00:00.000Z); nothing was changed.' });
    assert.throws(() => recordLink(r, 'CD34', 'https://dl.example/y'), { message: `No export of request ${r.id} has the JobReceiptId "CD34"; no export is awaiting a link.` });
  });
});
