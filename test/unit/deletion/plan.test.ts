// The planner against the real emulator: every classification, for each kind of identifier.
import * as assert from 'node:assert/strict';
import { allLinesHoldPlatformIds, buildPlan, confirmValue, countByStatus, planJson, readIdentifiers, renderPlanText, toDelete, type LedgerEntry, type PlanEntry } from '../../../src/core/deletion';
import { PLAYERS, TestEmulator, TITLE } from './support';

describe('deletion/plan: classification of a list', () => {
  let emu: TestEmulator;
  before(async () => { emu = await TestEmulator.start(); });
  after(async () => { await emu.close(); });
  beforeEach(async () => { await emu.control('reset', {}); });

  it('reads one identifier per line, a .csv by its first column, and names the format rule broken', () => {
    const lines = readIdentifiers('9437a5addae3012d\r\n\n  NOT-HEX  \n"9437A5ADDAE3012E",ticket 7\n', 'platform-id', { csv: true });
    assert.deepEqual(lines.map((l) => [l.line, l.input, l.value ?? null]), [[1, '9437a5addae3012d', '9437A5ADDAE3012D'], [3, 'NOT-HEX', null], [4, '9437A5ADDAE3012E', '9437A5ADDAE3012E']]);
    assert.match(lines[1].invalid!, /not a PlatformId: use 14 to 16 hex/);
    assert.match(readIdentifiers('12ab', 'consolelive')[0].invalid!, /decimal digits/);
    assert.match(readIdentifiers('x'.repeat(65), 'storefront')[0].invalid!, /longer than 64/);
    assert.equal(readIdentifiers('x'.repeat(64), 'storefront')[0].invalid, undefined, '64 characters are allowed');
    // A .csv's first column: quoted (a comma inside kept), unterminated, plain, empty; rows indented.
    const csv = ['  "racer, ana",ticket 1', '"unterminated,x', 'plain,second', 'single', '"",x', ',x', '\t"tab_led"'].join('\r\n');
    assert.deepEqual(readIdentifiers(csv, 'storefront', { csv: true }).map((l) => [l.line, l.input]), [
      [1, 'racer, ana'], [2, 'unterminated,x'], [3, 'plain'], [4, 'single'], [7, 'tab_led'],
    ]);
    // A line starting with # is a comment for every kind (a # later in a name is not).
    for (const kind of ['storefront', 'consolelive', 'platform-id'] as const) {
      assert.match(readIdentifiers('#racer_ana', kind)[0].invalid ?? '', /"#racer_ana" is a comment line, not an identifier/, kind);
    }
    assert.equal(readIdentifiers('racer#ana', 'storefront')[0].invalid, undefined);
    assert.match(readIdentifiers('racer\u200bana', 'storefront')[0].invalid ?? '', /holds control or invisible characters; remove them/);
  });

  it('ticket lines: each PlatformId in a line is read as Show Played Titles reads it, with the file\'s line and the line it came from', async () => {
    const [a, b, c] = PLAYERS;
    const text = [
      `SUPPORT-101 (2026-11-02): please delete ${a.platformId}, thanks`,
      'SUPPORT-102: no ID here',
      `SUPPORT-103: players ${b.platformId} and ${c.platformId}`,
      `# ${a.platformId} in a comment`,
    ].join('\n');
    // The selection started at the file's line 7.
    const lines = readIdentifiers(text, 'platform-id', { lineNumbers: [7, 8, 9, 10] });
    assert.deepEqual(lines.map((l) => [l.line, l.input, l.value ?? null]), [
      [7, a.platformId, a.platformId], [8, 'SUPPORT-102: no ID here', null], [9, b.platformId, b.platformId], [9, c.platformId, c.platformId], [10, `# ${a.platformId} in a comment`, null],
    ]);
    assert.equal(lines[0].from, `SUPPORT-101 (2026-11-02): please delete ${a.platformId}, thanks`);
    const client = emu.client();
    const plan = await buildPlan(client, { titleId: TITLE.titleId, kind: 'platform-id', lines });
    await client.close();
    assert.deepEqual(plan.entries.map((x) => x.status), ['delete', 'invalid', 'delete', 'delete', 'invalid']);
    const doc = renderPlanText(plan);
    assert.ok(doc.includes(`line 7: ${a.platformId} (in "SUPPORT-101 (2026-11-02): please delete ${a.platformId}, thanks")`), doc);
    assert.ok(doc.includes(`line 9: ${c.platformId} (in "SUPPORT-103: players`), doc);
    assert.equal(allLinesHoldPlatformIds(`${a.platformId}\nticket ${b.platformId}`), true);
    assert.equal(allLinesHoldPlatformIds(`${a.platformId}\nSUPPORT-102: no ID here`), false);
  });

  it('players the ledger shows as deleted: "already deleted (ledger, verified <date>)", never "unlinked", by name or by PlatformId', async () => {
    const [a, b] = PLAYERS.filter((p) => p.storefrontNames.length > 0);
    const verified = (input: string, platformId: string): LedgerEntry => ({
      input, platformId, titleId: TITLE.titleId, titleIds: [TITLE.titleId], requestedAt: '2026-11-01T09:00:00.000Z', state: 'verified-deleted', verifiedAt: '2026-11-02T10:15:00.000Z',
    });
    // A deleted player's name resolves to nothing; another's still resolves (the service has not caught up).
    const ledger = [verified('gone_player', 'ABCDEF0123456789'), verified(b.storefrontNames[0], b.platformId)];
    const client = emu.client();
    const sf = await buildPlan(client, {
      titleId: TITLE.titleId, kind: 'storefront', ledger, lines: readIdentifiers(['gone_player', a.storefrontNames[0], b.storefrontNames[0]].join('\n'), 'storefront'),
    });
    const pid = await buildPlan(client, { titleId: TITLE.titleId, kind: 'platform-id', ledger, lines: readIdentifiers(b.platformId, 'platform-id') });
    await client.close();
    assert.deepEqual(sf.entries.map((x) => [x.status, x.reason ?? null]), [
      ['already-deleted', 'already deleted (ledger, verified 2026-11-02 10:15 UTC)'], ['delete', null], ['already-deleted', 'already deleted (ledger, verified 2026-11-02 10:15 UTC)'],
    ]);
    assert.deepEqual(pid.entries.map((x) => x.status), ['already-deleted']);
    assert.match(renderPlanText(sf), /line 1: gone_player -> ABCDEF0123456789 {2}already deleted \(ledger, verified 2026-11-02 10:15 UTC\)/);
  });

  it('PlatformIds: to delete with titles, invalid, duplicate, already queued per the ledger, already deleted', async () => {
    const [a, b, c, d, e] = PLAYERS;
    const client = emu.client();
    // d is deleted and its job completed; c has a queued job in the ledger.
    await client.deleteMasterPlayerAccount({ PlatformId: d.platformId });
    await emu.control('clock/advance', { ms: 600_000 });
    const ledger: LedgerEntry[] = [{ input: c.platformId, platformId: c.platformId, titleId: TITLE.titleId, titleIds: ['F71AC'], requestedAt: '2026-01-01T00:00:00.000Z', state: 'queued', jobReceiptId: 'R1' }];
    const text = [a.platformId, b.platformId.toLowerCase(), 'zz', a.platformId, c.platformId, d.platformId, e.platformId].join('\n');
    const plan = await buildPlan(client, { titleId: TITLE.titleId, kind: 'platform-id', lines: readIdentifiers(text, 'platform-id'), ledger });
    await client.close();
    assert.deepEqual(plan.entries.map((x) => x.status), ['delete', 'delete', 'invalid', 'duplicate', 'already-queued', 'already-deleted', 'delete']);
    assert.deepEqual(plan.entries[0].titleIds!.sort(), [...a.playedTitles].sort());
    assert.equal(plan.entries[1].platformId, b.platformId);
    assert.match(plan.entries[3].reason!, /line 1/);
    assert.match(plan.entries[4].reason!, /R1/);
    assert.deepEqual(toDelete(plan).map((x) => x.platformId), [a.platformId, b.platformId, e.platformId]);
    assert.deepEqual(countByStatus(plan), { delete: 3, 'already-queued': 1, 'already-deleted': 1, unlinked: 0, duplicate: 1, invalid: 1, failed: 0 });
    const doc = renderPlanText(plan, { F71AC: 'Demo Racer' });
    assert.match(doc, /To delete: 3/);
    assert.match(doc, /wipes F71AC \(Demo Racer\)/);
    assert.match(doc, /Nothing has been deleted/);
    assert.equal(JSON.parse(planJson(plan)).counts.delete, 3);
    assert.equal((await emu.jobs()).length, 1, 'a plan sends no deletion');
  });

  it('a ledger whose PlatformIds and title ID are in lower case still matches: a queued player is not sent again, a deleted one is reported deleted', async () => {
    const [a, b, c] = PLAYERS;
    const entry = (platformId: string, state: LedgerEntry['state'], titleId = TITLE.titleId): LedgerEntry => ({
      input: platformId, platformId, titleId, titleIds: [TITLE.titleId], requestedAt: '2026-11-01T09:00:00.000Z', state, jobReceiptId: 'R7', verifiedAt: '2026-11-02T10:15:00.000Z',
    });
    const ledger = [entry(a.platformId.toLowerCase(), 'queued'), entry(b.platformId.toLowerCase(), 'verified-deleted', TITLE.titleId.toLowerCase())];
    const client = emu.client();
    const plan = await buildPlan(client, { titleId: TITLE.titleId, kind: 'platform-id', lines: readIdentifiers([a.platformId, b.platformId, c.platformId].join('\n'), 'platform-id'), ledger });
    await client.close();
    assert.deepEqual(plan.entries.map((x) => [x.platformId, x.status]), [[a.platformId, 'already-queued'], [b.platformId, 'already-deleted'], [c.platformId, 'delete']]);
    assert.match(plan.entries[0].reason!, /JobReceiptId R7/);
    // The plan shows the PlatformId as read, not the ledger's spelling of it ("X -> x").
    assert.ok(!renderPlanText(plan).includes(b.platformId.toLowerCase()), renderPlanText(plan));
    assert.deepEqual(toDelete(plan).map((x) => x.platformId), [c.platformId]);
  });

  it('a player whose played titles could not be checked is "failed", not sent; cancelling while checking says nothing was deleted', async () => {
    const [a, b] = PLAYERS;
    await emu.control('faults', { rules: [{ operation: 'Admin/GetPlayedTitleList', times: 1, kind: '500' }] });
    const client = emu.client({ maxRetries: 0 });
    const plan = await buildPlan(client, { titleId: TITLE.titleId, kind: 'platform-id', concurrency: 1, lines: readIdentifiers(`${a.platformId}\n${b.platformId}`, 'platform-id') });
    assert.deepEqual(plan.entries.map((x) => x.status), ['failed', 'delete']);
    assert.match(plan.entries[0].reason!, /^could not check the played titles: GetPlayedTitleList failed/);
    assert.deepEqual(toDelete(plan).map((x) => x.platformId), [b.platformId]);
    const ac = new AbortController();
    ac.abort();
    const e = await buildPlan(client, { titleId: TITLE.titleId, kind: 'platform-id', signal: ac.signal, lines: readIdentifiers(a.platformId, 'platform-id') }).then(() => undefined, (x: unknown) => x as Error);
    await client.close();
    assert.equal(e?.message, 'Cancelled while checking the players; nothing was deleted.');
    assert.equal((await emu.jobs()).length, 0);
  });

  it('Storefront names and ConsoleLive IDs resolve with the bulk lookups; unlinked and same-player duplicates', async () => {
    const withName = PLAYERS.filter((p) => p.storefrontNames.length > 0);
    const client = emu.client();
    const sf = await buildPlan(client, {
      titleId: TITLE.titleId, kind: 'storefront', lines: readIdentifiers([withName[0].storefrontNames[0], 'nobody_here', withName[1].storefrontNames[0]].join('\n'), 'storefront'),
    });
    assert.deepEqual(sf.entries.map((x) => [x.status, x.platformId ?? null]), [['delete', withName[0].platformId], ['unlinked', null], ['delete', withName[1].platformId]]);
    // A player with both a RETAIL and an XDKS.1 link: only RETAIL resolves in sandbox RETAIL.
    const two = PLAYERS.find((p) => p.consoleLive.length === 2)!;
    const retail = two.consoleLive.find((l) => l.sandbox === 'RETAIL')!.id;
    const xdks = two.consoleLive.find((l) => l.sandbox !== 'RETAIL')!.id;
    const cl = await buildPlan(client, { titleId: TITLE.titleId, kind: 'consolelive', sandbox: 'RETAIL', lines: readIdentifiers(`${retail}\n${xdks}\nabc`, 'consolelive') });
    assert.deepEqual(cl.entries.map((x) => x.status), ['delete', 'unlinked', 'invalid']);
    const both = await buildPlan(client, { titleId: TITLE.titleId, kind: 'platform-id', lines: readIdentifiers(`${two.platformId}\n${two.platformId.toLowerCase()}`, 'platform-id') });
    assert.deepEqual(both.entries.map((x) => x.status), ['delete', 'duplicate']);
    await client.close();
  });
});

describe('deletion/plan: the --confirm value', () => {
  const plan = (titleId: string, kind: 'platform-id' | 'storefront', ids: string[], extra: PlanEntry[] = []): { titleId: string; kind: 'platform-id' | 'storefront'; entries: PlanEntry[] } => ({
    titleId, kind, entries: [...ids.map((platformId, i): PlanEntry => ({ line: i + 1, input: platformId, platformId, status: 'delete' })), ...extra],
  });
  const A = '9437A5ADDAE3012D';
  const B = '1111222233334444';

  it('names how many players it deletes and a digest of them, the title and the kind; the same plan gives the same value', () => {
    const v = confirmValue(plan('F71AC', 'platform-id', [A, B]));
    assert.match(v, /^2:[0-9a-f]{12}$/);
    assert.equal(confirmValue(plan('f71ac', 'platform-id', [B, A])), v, 'title case and order do not matter');
    // Fixed across versions: a value a dry run printed is still the same plan's after an update.
    assert.equal(v, '2:d28f0005ff30');
    // Entries not sent do not count.
    assert.equal(confirmValue(plan('F71AC', 'platform-id', [A, B], [{ line: 9, input: 'x', status: 'invalid', reason: 'r' }, { line: 10, input: B, platformId: B, status: 'duplicate' }])), v);
  });

  it('differs for another title, another kind, or other players', () => {
    const v = confirmValue(plan('F71AC', 'platform-id', [A, B]));
    const others = [
      confirmValue(plan('A248', 'platform-id', [A, B])),
      confirmValue(plan('F71AC', 'storefront', [A, B])),
      confirmValue(plan('F71AC', 'platform-id', [A])),
      confirmValue(plan('F71AC', 'platform-id', [A, '1111222233334445'])),
    ];
    assert.equal(new Set([v, ...others]).size, 5, others.join(' '));
    assert.match(others[2], /^1:/);
    assert.equal(confirmValue(plan('F71AC', 'platform-id', [])), confirmValue(plan('F71AC', 'platform-id', [])));
    assert.match(confirmValue(plan('F71AC', 'platform-id', [])), /^0:/);
  });
});
