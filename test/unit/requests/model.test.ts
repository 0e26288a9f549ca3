// The request model without the service: the identifiers file, identifiers in ticket text, due
// dates, the derived state machine and overdue.
import * as assert from 'node:assert/strict';
import {
  closeProblem, dueDate, extractIdentifiers, isDueThisWeek, isOverdue, newRequest, parseAsks, parseIdentifiers, requestState, RequestError,
  type Action, type DataRequest,
} from '../../../src/core/requests';

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
});
