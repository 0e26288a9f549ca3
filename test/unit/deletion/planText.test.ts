// The dry run in this process, against a client that answers as the service can: what each
// lookup is asked, how its answers are normalised (a PlatformId in any case is one player), and
// the document and JSON a user reads, word for word.
import * as assert from 'node:assert/strict';
import { PlatformError } from '../../../src/core/api/errors';
import { buildPlan, planJson, readIdentifiers, renderPlanText, type DeletionClient, type LedgerEntry, type Plan } from '../../../src/core/deletion';
import { readableLocal } from '../../../src/core/time';

const A = 'AAAAAAAAAAAAAAA1';
const B = 'BBBBBBBBBBBBBBB2';
const C = 'CCCCCCCCCCCCCCC3';
const D = 'DDDDDDDDDDDDDDD4';
const NOW = (): Date => new Date('2026-11-02T10:15:00.000Z');

interface Asked { op: string; args: unknown[] }

/** Answers the lookups from `links` (identifier → PlatformId as the service spells it, or null) and the played titles from `titles`. */
function client(links: Record<string, string | null>, titles: Record<string, string[] | 'not-found' | 'fails'> = {}): DeletionClient & { asked: Asked[] } {
  const asked: Asked[] = [];
  const played = async (pid: string): Promise<{ TitleIds: string[] }> => {
    asked.push({ op: 'GetPlayedTitleList', args: [pid] });
    const t = titles[pid] ?? ['F71AC'];
    if (t === 'not-found') throw new PlatformError({ kind: 'service', message: 'no such player', hint: '', errorCode: 1001, httpStatus: 400 });
    if (t === 'fails') throw new PlatformError({ kind: 'service', message: 'GetPlayedTitleList failed (500)', hint: '', httpStatus: 500 });
    return { TitleIds: t };
  };
  return {
    asked,
    getPlayedTitleList: played,
    getPlatformIdsFromConsoleLiveIds: async (ids, sandbox, o) => {
      asked.push({ op: 'ConsoleLive', args: [[...ids], sandbox, o?.signal !== undefined] });
      return ids.filter((id) => id in links).map((id) => ({ ConsoleLiveAccountId: id, PlatformId: links[id] }));
    },
    getPlatformIdsFromStorefrontNames: async (names, o) => {
      asked.push({ op: 'Storefront', args: [[...names], o?.signal !== undefined] });
      return names.filter((n) => n in links).map((n) => ({ StorefrontName: n, PlatformId: links[n] }));
    },
    deleteMasterPlayerAccount: () => { throw new Error('a plan sends no deletion'); },
  };
}

describe('deletion/plan in this process: lookups, normalisation and the document', () => {
  it('Storefront names: each distinct name looked up once, with the run\'s signal; a PlatformId in lower case is one player; same player under two names is a duplicate', async () => {
    const c = client({ ana: A.toLowerCase(), 'ana-alt': A, bo: B, nobody: null }, { [B]: 'not-found' });
    const ac = new AbortController();
    const plan = await buildPlan(c, { titleId: 'F71AC', kind: 'storefront', lines: readIdentifiers('ana\nana-alt\nbo\nnobody\nana\nmissing', 'storefront'), signal: ac.signal, now: NOW });
    assert.deepEqual(c.asked[0], { op: 'Storefront', args: [['ana', 'ana-alt', 'bo', 'nobody', 'missing'], true] });
    assert.deepEqual(c.asked.slice(1), [{ op: 'GetPlayedTitleList', args: [A] }, { op: 'GetPlayedTitleList', args: [B] }], 'each player checked once');
    assert.deepEqual(plan.entries.map((e) => [e.line, e.status, e.platformId ?? null, e.reason ?? null]), [
      [1, 'delete', A, null],
      [2, 'duplicate', A, 'the same player as line 1'],
      [3, 'already-deleted', B, 'the service reports no such player (AccountNotFound)'],
      [4, 'unlinked', null, 'not linked to a player of this title'],
      [5, 'duplicate', null, 'the same identifier as line 1'],
      [6, 'unlinked', null, 'not linked to a player of this title'],
    ]);
    assert.equal(plan.createdAt, '2026-11-02T10:15:00.000Z');
    assert.deepEqual(plan.entries[0], { line: 1, input: 'ana', status: 'delete', platformId: A, titleIds: ['F71AC'] }, 'no field but those that say something');
  });

  it('a cancel while the players are checked says nothing was deleted and what to do', async () => {
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(buildPlan(client({}), { titleId: 'F71AC', kind: 'platform-id', lines: readIdentifiers(A, 'platform-id'), signal: ac.signal }), {
      kind: 'cancelled', message: 'Cancelled while checking the players; nothing was deleted.', hint: 'Run it again when ready.',
    });
  });

  it('ConsoleLive IDs are looked up in the plan\'s sandbox; nothing is looked up for a list with nothing valid', async () => {
    const c = client({ 1234: C.toLowerCase() });
    const plan = await buildPlan(c, { titleId: 'F71AC', kind: 'consolelive', sandbox: 'RETAIL', lines: readIdentifiers('1234\n99', 'consolelive'), signal: new AbortController().signal, now: NOW });
    assert.deepEqual(c.asked, [{ op: 'ConsoleLive', args: [['1234', '99'], 'RETAIL', true] }, { op: 'GetPlayedTitleList', args: [C] }]);
    assert.deepEqual(plan.entries.map((e) => [e.status, e.platformId ?? null]), [['delete', C], ['unlinked', null]]);
    for (const kind of ['consolelive', 'storefront'] as const) {
      const none = client({});
      const empty = await buildPlan(none, { titleId: 'F71AC', kind, lines: readIdentifiers('#comment', kind) });
      assert.deepEqual([none.asked, empty.entries.map((e) => e.status)], [[], ['invalid']], kind);
    }
  });

  it('the ledger: a deletion verified for another title does not count; a queued one names its receipt or that none was returned', async () => {
    const entry = (platformId: string, o: Partial<LedgerEntry>): LedgerEntry => ({
      input: platformId, platformId, titleId: 'F71AC', titleIds: [], requestedAt: '2026-11-01T09:00:00.000Z', state: 'queued', ...o,
    });
    const ledger = [
      entry(A, { state: 'verified-deleted', titleId: 'A248', verifiedAt: '2026-11-01T09:30:00.000Z' }),
      entry(B, {}),
      entry(C, { state: 'failed' }),
      entry(D, { state: 'verified-deleted' }),
    ];
    const c = client({});
    const plan = await buildPlan(c, { titleId: 'f71ac', kind: 'platform-id', ledger, lines: readIdentifiers([A, B, C, D].join('\n'), 'platform-id') });
    assert.deepEqual(plan.entries.map((e) => [e.status, e.reason ?? null]), [
      ['delete', null],
      ['already-queued', 'queued 2026-11-01T09:00:00.000Z, JobReceiptId none returned'],
      ['delete', null],
      ['already-deleted', 'already deleted (ledger, verified 2026-11-01 09:00 UTC)'],
    ]);
    assert.deepEqual(c.asked.map((a) => a.args[0]), [A, C], 'only the players to delete are checked');
  });

  it('the document says every count, each section in order with its entries, titles by name, and where a ticket line was read', () => {
    const plan: Plan = {
      titleId: 'F71AC', kind: 'storefront', sandbox: 'RETAIL', createdAt: '2026-11-02T10:15:00.000Z',
      entries: [
        { line: 1, input: 'ana', status: 'delete', platformId: A, titleIds: ['F71AC', 'A248'] },
        { line: 2, input: 'bo', status: 'delete', platformId: B, titleIds: [] },
        { line: 3, input: B, status: 'delete', platformId: B, from: `ticket ${'x'.repeat(90)}` },
        { line: 4, input: 'cy', status: 'already-queued', platformId: C, titleIds: ['F71AC'], reason: 'queued t, JobReceiptId R1' },
        { line: 5, input: 'dee', status: 'already-deleted', platformId: D, reason: 'the service reports no such player (AccountNotFound)' },
        { line: 6, input: 'nobody', status: 'unlinked', reason: 'not linked to a player of this title' },
        { line: 7, input: 'ana', status: 'duplicate', reason: 'the same identifier as line 1' },
        { line: 8, input: 'bad\u0007', status: 'invalid' },
        { line: 9, input: 'eve', status: 'failed', platformId: A, reason: 'could not check the played titles: boom' },
      ],
    };
    assert.equal(renderPlanText(plan, { F71AC: 'Demo Racer' }), [
      'Deletion plan (dry run) for title F71AC (Demo Racer): 9 Storefront names in sandbox RETAIL',
      `Made ${readableLocal('2026-11-02T10:15:00.000Z')}. Nothing has been deleted.`,
      '',
      'To delete: 3 · Already queued: 1 · Already deleted: 1 · Unlinked: 1 · Duplicate: 1 · Invalid format: 1 · Could not check: 1',
      '',
      '## To delete: 3',
      `line 1: ana -> ${A}  wipes F71AC (Demo Racer), A248`,
      `line 2: bo -> ${B}  wipes (no played titles reported)`,
      `line 3: ${B} (in "ticket ${'x'.repeat(73)}…")  wipes (no played titles reported)`,
      '',
      '## Already queued (per the ledger; not sent again): 1',
      `line 4: cy -> ${C}  wipes F71AC (Demo Racer) (queued t, JobReceiptId R1)`,
      '',
      '## Already deleted (AccountNotFound, or per the ledger): 1',
      `line 5: dee -> ${D}  the service reports no such player (AccountNotFound)`,
      '',
      '## Unlinked (no player): 1',
      'line 6: nobody  not linked to a player of this title',
      '',
      '## Duplicate: 1',
      'line 7: ana  the same identifier as line 1',
      '',
      '## Invalid format: 1',
      'line 8: bad\\u0007',
      '',
      '## Could not check (not sent): 1',
      `line 9: eve -> ${A}  could not check the played titles: boom`,
      '',
    ].join('\n'));
    const platformIds: Plan = { titleId: 'A248', kind: 'platform-id', createdAt: 't', entries: [] };
    assert.equal(renderPlanText(platformIds), [
      'Deletion plan (dry run) for title A248: 0 PlatformIds',
      'Made an unknown time. Nothing has been deleted.',
      '',
      'To delete: 0 · Already queued: 0 · Already deleted: 0 · Unlinked: 0 · Duplicate: 0 · Invalid format: 0 · Could not check: 0',
      '',
    ].join('\n'));
    assert.match(renderPlanText({ ...platformIds, kind: 'consolelive' }), /: 0 ConsoleLive IDs\n/);
    assert.equal(planJson(platformIds), `${JSON.stringify({ ...platformIds, counts: { delete: 0, 'already-queued': 0, 'already-deleted': 0, unlinked: 0, duplicate: 0, invalid: 0, failed: 0 } }, null, 2)}\n`);
  });
});
