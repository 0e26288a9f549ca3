// The request model without the service: the identifiers file, identifiers in ticket text, due
// dates, the derived state machine and overdue.
import * as assert from 'node:assert/strict';
import {
  closeProblem, daysLeft, dueDate, extractIdentifiers, isDueThisWeek, isOverdue, newRequest, parseAsks, parseIdentifiers, requestState, RequestError,
  type Action, type DataRequest,
} from '../../../src/core/requests';
import { dateProblem, REQUEST_ID_RE } from '../../../src/core/requests/model';

const base = (): DataRequest => newRequest({
  reference: 'T-1', asks: ['access', 'erasure'], identifiers: [{ kind: 'email', value: 'ana@example.com' }], titles: ['f71ac', 'A248'],
  endpoint: 'http://127.0.0.1:1/{titleId}', received: '2026-01-31', now: new Date('2026-02-01T10:00:00Z'),
});

const action = (status: Action['status'], kind: Action['kind'] = 'export'): Action => ({ kind, platformId: '9437A5ADDAE3012D', titleId: 'F71AC', status });

describe('requests: the model', () => {
  it('reads an identifiers file of every kind; a ConsoleLive ID takes the sandbox; PlatformIds are upper-cased', () => {
    const ids = parseIdentifiers('# ticket 42\nplatformid:9437a5addae3012d\n\nemail: ana@example.com\nusername:ana_k\ndisplayname:Ana the Racer\nstorefront:ana_k\nconsolelive:2533274800000000\n', { sandbox: 'XDKS.1' });
    assert.deepEqual(ids, [
      { kind: 'platformid', value: '9437A5ADDAE3012D' }, { kind: 'email', value: 'ana@example.com' }, { kind: 'username', value: 'ana_k' },
      { kind: 'displayname', value: 'Ana the Racer' }, { kind: 'storefront', value: 'ana_k' }, { kind: 'consolelive', value: '2533274800000000', sandbox: 'XDKS.1' },
    ]);
  });

  it('names every bad line of the identifiers file by its number, with the fix, and returns nothing', () => {
    const text = 'email:ana@example.com\nana@example.com\nphone:123\nplatformid:XYZ\nemail:ANA@example.com\nemail:\nconsolelive:12ab\n';
    assert.throws(() => parseIdentifiers(text), (e: Error) => {
      assert.ok(e instanceof RequestError);
      assert.match(e.message, /6 bad line/);
      assert.match(e.message, /line 2: "ana@example\.com" does not start with a kind; write kind:value/);
      assert.match(e.message, /line 3: "phone:123" does not start with a kind/);
      assert.match(e.message, /line 4: "XYZ" is not a PlatformId: use 14 to 16 hex characters/);
      assert.match(e.message, /line 5: the same identifier as line 1; remove one of them/);
      assert.match(e.message, /line 6: email: has no value; write email:VALUE or remove the line/);
      assert.match(e.message, /line 7: "12ab" is not a ConsoleLive ID/);
      return true;
    });
    assert.throws(() => parseIdentifiers('# nothing\n\n'), /holds no identifier/);
  });

  it('finds e-mails and PlatformIds in a ticket\'s text, once each, in order', () => {
    const found = extractIdentifiers('Hi, I am Ana (ana.k+games@example.co.uk), player 9437A5ADDAE3012D. Please delete me. Again: ANA.K+games@example.co.uk; not an id: #9437A5ADDAE3012E, trace 9437a5addae3012f');
    assert.deepEqual(found.map((x) => `${x.kind}:${x.value}`), ['email:ana.k+games@example.co.uk', 'platformid:9437A5ADDAE3012D']);
  });

  it('due = received + days (default 30), across month and year ends; bad dates and days are refused with the format', () => {
    assert.equal(base().due, '2026-03-02');
    assert.equal(dueDate('2026-12-15', 45), '2027-01-29');
    assert.throws(() => newRequest({ ...base(), received: '2026-02-30' }), /"2026-02-30" is not a date: write it as YYYY-MM-DD/);
    assert.throws(() => newRequest({ ...base(), dueDays: 0 }), /whole number from 1 to 366/);
    assert.deepEqual(parseAsks('erasure, access,events'), ['access', 'erasure', 'events']);
    assert.throws(() => parseAsks('access,delete'), /"delete" is not an ask: use access, erasure, events/);
  });

  it('state: received -> resolved -> actions-queued -> completed -> closed, derived from what the request records', () => {
    const r = base();
    assert.equal(requestState(r), 'received');
    assert.match(closeProblem(r)!, /not resolved yet/);
    r.resolution = { at: '', titlesAsked: ['F71AC'], titlesSkipped: [], findings: [], accounts: [], gone: [], calls: [] };
    r.actions = [action('planned'), action('waiting', 'erasure')];
    assert.equal(requestState(r), 'resolved');
    r.actions[0].status = 'queued';
    assert.equal(requestState(r), 'actions-queued');
    assert.match(closeProblem(r)!, /2 action\(s\) not completed \(export of 9437A5ADDAE3012D: queued; erasure of 9437A5ADDAE3012D: waiting\)/);
    r.actions = [action('completed'), action('completed', 'erasure')];
    assert.equal(requestState(r), 'completed');
    assert.equal(closeProblem(r), undefined);
    r.closedAt = '2026-02-03T00:00:00Z';
    assert.equal(requestState(r), 'closed');
    // Resolved with no account found: nothing to act on, so complete.
    const none = { ...base(), resolution: r.resolution, actions: [] };
    assert.equal(requestState(none), 'completed');
  });

  it('overdue past the due day, until closed; due this week within 7 days', () => {
    const r = base();
    assert.equal(isOverdue(r, new Date('2026-03-02T23:59:59Z')), false, 'the whole due day counts');
    assert.equal(isOverdue(r, new Date('2026-03-03T00:00:00Z')), true);
    assert.equal(isDueThisWeek(r, new Date('2026-02-22T12:00:00Z')), false);
    assert.equal(isDueThisWeek(r, new Date('2026-02-23T12:00:00Z')), true);
    r.closedAt = '2026-03-04T00:00:00Z';
    assert.equal(isOverdue(r, new Date('2026-03-05T00:00:00Z')), false, 'a closed request is never overdue');
  });

  it('a date is exactly YYYY-MM-DD and a real day', () => {
    for (const ok of ['2026-01-31', '2024-02-29', '2000-12-01']) assert.equal(dateProblem(ok), undefined, ok);
    for (const bad of ['2026-1-31', '2026-01-31T00:00:00Z', ' 2026-01-31', '2026-01-31 ', 'x2026-01-31', '2026-01-3', '2025-02-29', '2026-13-01', '2026-00-10', '20260131', '']) {
      assert.equal(dateProblem(bad), `"${bad}" is not a date: write it as YYYY-MM-DD, e.g. 2026-11-02.`, bad);
    }
  });

  it('a new request: reference trimmed and checked, received defaults to today, days 1 to 366, something to search and ask', () => {
    const now = new Date('2026-05-06T23:30:00Z');
    const r = newRequest({ ...base(), reference: '  T-9  ', received: undefined, dueDays: undefined, titles: ['f71ac', 'F71AC', 'a248'], now });
    assert.equal(r.reference, 'T-9');
    assert.equal(r.received, '2026-05-06');
    assert.equal(r.dueDays, 30);
    assert.equal(r.due, '2026-06-05');
    assert.equal(r.createdAt, '2026-05-06T23:30:00.000Z');
    assert.deepEqual(r.titles, ['F71AC', 'A248'], 'title IDs upper-cased, each once');
    assert.match(r.id, /^dr-20260506-[0-9a-f]{6}$/);
    assert.match(r.id, REQUEST_ID_RE);
    assert.equal(r.version, 1);
    assert.deepEqual(r.actions, []);
    assert.equal(requestState(r), 'received');
    assert.notEqual(newRequest({ ...base(), now }).id, newRequest({ ...base(), now }).id, 'ids are random');
    // The request holds its own copies: changing what was passed changes nothing.
    const asks: ('access' | 'erasure')[] = ['access'];
    const identifiers = [{ kind: 'email' as const, value: 'a@example.com' }];
    const copy = newRequest({ ...base(), asks, identifiers });
    asks.push('erasure');
    identifiers[0].value = 'changed@example.com';
    assert.deepEqual(copy.asks, ['access']);
    assert.equal(copy.identifiers[0].value, 'a@example.com');

    assert.equal(newRequest({ ...base(), reference: 'x'.repeat(200) }).reference.length, 200);
    for (const reference of ['', '   ', 'x'.repeat(201), 'T\n1', 'T\u00851', 'T\u007f1', 'T\u00001']) {
      assert.throws(() => newRequest({ ...base(), reference }), { message: 'The reference (the ticket) must be 1 to 200 characters without control characters.' }, JSON.stringify(reference));
    }
    assert.equal(newRequest({ ...base(), dueDays: 1 }).due, '2026-02-01');
    assert.equal(newRequest({ ...base(), dueDays: 366 }).due, '2027-02-01');
    for (const dueDays of [0, 367, 1.5, -3, Number.NaN]) {
      assert.throws(() => newRequest({ ...base(), dueDays }), { message: 'The number of days to the due date must be a whole number from 1 to 366 (default 30).' }, String(dueDays));
    }
    assert.throws(() => newRequest({ ...base(), received: '2026-1-1' }), { message: 'The received date "2026-1-1" is not a date: write it as YYYY-MM-DD, e.g. 2026-11-02.' });
    assert.throws(() => newRequest({ ...base(), identifiers: [] }), { message: 'The request names no identifier: give at least one (kind:value).' });
    assert.throws(() => newRequest({ ...base(), titles: [] }), { message: 'The request names no title: give the titles to search.' });
    assert.throws(() => newRequest({ ...base(), asks: [] }), { message: 'Name what was asked: access, erasure, events.' });
  });

  it('asks: any order, spaces and empty parts ignored, each once, in the order access, erasure, events', () => {
    assert.deepEqual(parseAsks(' events ,, access ,events'), ['access', 'events']);
    for (const empty of ['', ' , ,']) {
      assert.throws(() => parseAsks(empty), { message: 'Name what was asked: one or more of access, erasure, events, separated by commas.' });
    }
    assert.throws(() => parseAsks('Access'), { message: '"Access" is not an ask: use access, erasure, events (any mix, separated by commas).' });
  });

  it('days left count whole days from today (UTC) to the due day, negative once overdue', () => {
    const r = base();
    assert.equal(daysLeft(r, new Date('2026-03-02T23:59:00Z')), 0);
    assert.equal(daysLeft(r, new Date('2026-02-23T00:00:00Z')), 7);
    assert.equal(daysLeft(r, new Date('2026-03-05T01:00:00Z')), -3);
    assert.equal(isDueThisWeek(r, new Date('2026-03-09T00:00:00Z')), true, 'overdue counts as due this week');
    r.closedAt = '2026-03-01T00:00:00Z';
    assert.equal(isDueThisWeek(r, new Date('2026-03-01T00:00:00Z')), false, 'a closed request is due no more');
  });

  it('cannot be closed twice; lists at most five open actions', () => {
    const r = base();
    r.resolution = { at: '', titlesAsked: ['F71AC'], titlesSkipped: [], findings: [], accounts: [], gone: [], calls: [] };
    r.actions = ['planned', 'waiting', 'queued', 'unknown', 'failed'].map((s) => action(s as Action['status']));
    assert.doesNotMatch(closeProblem(r)!, /\.\.\./);
    assert.match(closeProblem(r)!, /has 5 action\(s\) not completed \(export of 9437A5ADDAE3012D: planned; .*: waiting; .*: queued; .*: unknown; .*: failed\): verify them first; an export completes when its download link is recorded\.$/);
    r.actions.push(action('queued'), action('completed'));
    assert.match(closeProblem(r)!, /has 6 action\(s\) not completed \(.*: failed; \.\.\.\): verify/);
    r.actions = [action('completed')];
    r.closedAt = '2026-02-03T00:00:00Z';
    assert.equal(closeProblem(r), `request ${r.id} is already closed (2026-02-03T00:00:00Z).`);
    assert.equal(isOverdue(r, new Date('2027-01-01T00:00:00Z')), false);
  });
});
