// What the dry run shows, from the state file alone (workflow.ts's describe, in process): the accounts
// acted on (an account with no action is not one), their identifiers and actions, what was asked and
// found nowhere (not what failed, nor what was never asked), why a miss of that kind says little,
// failed lookups, skipped titles and lookups, gone accounts, and the hold while it lasts.
import * as assert from 'node:assert/strict';
import { newRequest, type DataRequest } from '../../../src/core/requests';
import { describe as describeRequest } from '../../../src/core/requests/workflow';
import { NOT_FOUND_WHY } from '../../../src/core/requests/words';

const AT = new Date('2026-01-06T12:00:00.000Z');

function resolved(o: { holdDays?: number } = {}): DataRequest {
  const r = newRequest({
    reference: 'DESC-1', asks: ['access', 'erasure'], titles: ['F71AC', 'A248'], endpoint: 'http://127.0.0.1:1/{titleId}', received: '2026-01-05',
    now: new Date('2026-01-05T10:00:00.000Z'), holdDays: o.holdDays,
    identifiers: [
      { kind: 'email', value: 'ana@example.com' }, { kind: 'displayname', value: 'Nobody' }, { kind: 'email', value: 'bo@example.com' },
      { kind: 'username', value: 'failing' }, { kind: 'platformid', value: 'CCCC' }, { kind: 'storefront', value: 'never-asked' },
    ],
  });
  r.resolution = {
    at: '2026-01-05T11:00:00.000Z', titlesAsked: ['F71AC'], titlesSkipped: [{ titleId: 'A248', reason: 'no secret key' }],
    findings: [
      { identifier: 0, titleId: 'F71AC', platformId: 'AAAA' },
      { identifier: 1, titleId: 'F71AC', platformId: null },
      { identifier: 2, titleId: 'F71AC', platformId: null },
      { identifier: 3, titleId: 'F71AC', platformId: null, error: 'HTTP 500' },
      { identifier: 4, titleId: 'F71AC', platformId: 'CCCC' },
    ],
    accounts: [
      { platformId: 'AAAA', titleIds: ['F71AC'], foundIn: ['F71AC'], senderTitleId: 'F71AC', identifiers: [0] },
      { platformId: 'BBBB', titleIds: ['F71AC'], foundIn: ['F71AC'], senderTitleId: 'F71AC', identifiers: [0], error: 'GetPlayedTitleList failed' },
    ],
    gone: ['CCCC'], calls: [],
    lookupsSkipped: [{ identifier: 1, titleId: 'A248', reason: 'not looked up: non-unique display names' }],
  };
  r.actions = [
    { kind: 'export', platformId: 'AAAA', titleId: 'F71AC', status: 'planned' },
    { kind: 'erasure', platformId: 'AAAA', titleId: 'F71AC', status: 'waiting' },
  ];
  return r;
}

describe('requests: the dry run from the state file (describe)', () => {
  it('lists the accounts acted on with their identifiers and actions, what was found nowhere and why, failures, skips and gone accounts', () => {
    const r = resolved();
    const d = describeRequest(r, AT);
    assert.equal(d.id, r.id);
    assert.equal(d.reference, 'DESC-1');
    assert.equal(d.state, 'resolved');
    assert.equal(d.due, r.due);
    assert.equal(d.overdue, false);
    assert.deepEqual(d.accounts, [{
      platformId: 'AAAA', titleIds: ['F71AC'], foundIn: ['F71AC'], senderTitleId: 'F71AC', identifiers: [{ kind: 'email', value: 'ana@example.com' }],
      actions: [
        { kind: 'export', operation: 'ExportMasterPlayerData', titleId: 'F71AC', status: 'planned' },
        { kind: 'erasure', operation: 'DeleteMasterPlayerAccount', titleId: 'F71AC', status: 'waiting' },
      ],
    }], 'BBBB has no action: not an account acted on; AAAA has no error member');
    // Asked and found nowhere: the display name and bo; not the failed username, not the found PlatformId, not the storefront name never asked.
    assert.deepEqual(d.notFound, [{ kind: 'displayname', value: 'Nobody' }, { kind: 'email', value: 'bo@example.com' }]);
    assert.deepEqual(d.notFoundWhy, [{ kind: 'displayname', why: NOT_FOUND_WHY.displayname }, { kind: 'email', why: NOT_FOUND_WHY.email }]);
    assert.deepEqual(d.unresolved, [{ identifier: { kind: 'username', value: 'failing' }, titleId: 'F71AC', error: 'HTTP 500' }]);
    assert.deepEqual(d.titlesSkipped, [{ titleId: 'A248', reason: 'no secret key' }]);
    assert.deepEqual(d.lookupsSkipped, [{ identifier: { kind: 'displayname', value: 'Nobody' }, titleId: 'A248', reason: 'not looked up: non-unique display names' }]);
    assert.deepEqual(d.gone, ['CCCC']);
    assert.match(d.confirm, /^1:[0-9a-f]{12}$/);
    assert.equal('heldUntil' in d, false);
    assert.equal('holdDays' in d, false);
  });

  it('an account acted on keeps its lookup error; a kind with no reason gives none, and each kind is explained once', () => {
    const r = resolved();
    r.actions.push({ kind: 'export', platformId: 'BBBB', titleId: 'F71AC', status: 'planned' });
    r.resolution!.findings.push({ identifier: 5, titleId: 'F71AC', platformId: null }, { identifier: 2, titleId: 'A248', platformId: null });
    const d = describeRequest(r, AT);
    assert.deepEqual(d.accounts.map((a) => [a.platformId, a.error]), [['AAAA', undefined], ['BBBB', 'GetPlayedTitleList failed']]);
    assert.deepEqual(d.notFound.map((x) => x.kind), ['displayname', 'email', 'storefront']);
    assert.deepEqual(d.notFoundWhy.map((x) => x.kind), ['displayname', 'email'], 'storefront has no reason; email once');
    assert.match(d.confirm, /^2:/);
  });

  it('before any resolution: nothing acted on, nothing "not found", no lists', () => {
    const r = resolved();
    r.resolution = undefined;
    r.actions = [];
    const d = describeRequest(r, AT);
    assert.equal(d.state, 'received');
    assert.deepEqual([d.accounts, d.notFound, d.notFoundWhy, d.unresolved, d.titlesSkipped, d.lookupsSkipped, d.gone], [[], [], [], [], [], [], []]);
    assert.match(d.confirm, /^0:/);
  });

  it('says until when an erasure is held, while the hold lasts, and nothing once it has ended; overdue after the due date', () => {
    const r = resolved({ holdDays: 7 });
    const during = describeRequest(r, AT);
    assert.deepEqual([during.heldUntil, during.holdDays], ['2026-01-12T10:00:00.000Z', 7]);
    const after = describeRequest(r, new Date('2026-01-12T10:00:00.000Z'));
    assert.equal('heldUntil' in after, false);
    assert.equal('holdDays' in after, false);
    assert.equal(describeRequest(r, new Date('2027-01-01T00:00:00.000Z')).overdue, true);
  });
});
