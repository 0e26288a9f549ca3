// A request through the core on the emulator (real HTTP on 127.0.0.1): resolution across the demo
// titles, de-duplication, the state machine through to closing, and retention.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  closeRequest, createRequest, dryRun, hashIdentifiers, recordExportLink, RequestStore, requestState, runActions, verifyEvidence, verifyRequest,
  type Identifier,
} from '../../../src/core/requests';
import { useCountingEmulator } from '../deletion/support';
import { AUTH, KEYS, players, servedPer, servicesOn } from './support';

const TITLES = ['F71AC', 'A248'];

describe('requests: the workflow on the emulator', function () {
  this.timeout(60_000);
  const f = useCountingEmulator('pe-req-');
  beforeEach(async () => { await f.emu.control('requests/clear', {}); });

  async function start(identifiers: Identifier[], asks: ('access' | 'erasure' | 'events')[] = ['access', 'erasure'], keys = KEYS) {
    const store = await RequestStore.open(join(f.dir, 'store'), { auth: AUTH });
    const r = await createRequest(store, { reference: 'TICKET-9', asks, identifiers, titles: TITLES, endpoint: f.counter.endpoint });
    return { store, id: r.id, services: servicesOn(f.emu, keys) };
  }

  it('resolves every identifier in every title, one account per PlatformId with one GetPlayedTitleList each, and says what found nothing', async () => {
    const all = await players(f.emu);
    const ana = all.find((p) => p.email !== null && p.storefrontNames.length > 0 && p.titlesPlayed.length === 2)!;
    const other = all.find((p) => p !== ana && p.username !== null && p.titlesPlayed.includes('F71AC'))!;
    const { store, id, services } = await start([
      { kind: 'email', value: ana.email!.toUpperCase() }, { kind: 'storefront', value: ana.storefrontNames[0] },
      { kind: 'username', value: other.username! }, { kind: 'displayname', value: 'Nobody at all' }, { kind: 'platformid', value: other.PlatformId },
    ]);
    try {
      const d = await dryRun(store, id, services);
      assert.deepEqual(d.accounts.map((a) => a.platformId).sort(), [ana.PlatformId, other.PlatformId].sort());
      const a = d.accounts.find((x) => x.platformId === ana.PlatformId)!;
      assert.deepEqual(a.identifiers.map((x) => x.kind), ['email', 'storefront'], 'both identifiers found the one account');
      assert.deepEqual(a.foundIn, TITLES, 'found through both titles of its publisher');
      assert.deepEqual([...a.titleIds].sort(), [...ana.titlesPlayed].sort(), 'GetPlayedTitleList shows the titles it touches');
      assert.deepEqual(a.actions.map((x) => `${x.operation}:${x.status}`), ['ExportMasterPlayerData:planned', 'DeleteMasterPlayerAccount:waiting']);
      assert.deepEqual(d.notFound, [{ kind: 'displayname', value: 'Nobody at all' }]);
      assert.match(d.confirm, /^2:[0-9a-f]{12}$/, 'two accounts, and a digest of them');
      assert.equal(d.state, 'resolved');
      const served = await servedPer(f.emu);
      assert.equal(served.get('GetPlayedTitleList'), 2, 'one GetPlayedTitleList per distinct account');
      assert.equal(served.get('GetUserAccountInfo'), 4 * TITLES.length, 'each e-mail/username/display name/PlatformId asked once per title');
      assert.equal(served.get('GetPlatformIDsFromStorefrontNames'), TITLES.length);
      assert.equal(served.get('ExportMasterPlayerData') ?? 0, 0, 'the dry run sends no action');
      // A second dry run answers from the state file: nothing is asked again.
      await dryRun(store, id, services);
      assert.equal((await servedPer(f.emu)).get('GetPlayedTitleList'), 2);
    } finally {
      await services.close();
    }
  });

  it('across publishers: one person\'s e-mail and Storefront name find an account in each publisher; each gets its own export and erasure, sent with a title of its publisher', async () => {
    const all = await players(f.emu);
    const other = all.find((p) => p.publisherId !== all[0].publisherId && p.email !== null && all.some((q) => q !== p && q.email === p.email))!;
    assert.ok(other !== undefined, 'the demo seed has a person with an account in a second publisher');
    const same = all.filter((p) => p.email === other.email || p.storefrontNames.some((n) => other.storefrontNames.includes(n)));
    const titles = [...TITLES, ...other.titlesPlayed];
    const store = await RequestStore.open(join(f.dir, 'store'), { auth: AUTH });
    const r = await createRequest(store, {
      reference: 'TICKET-ANA', asks: ['access', 'erasure'], titles, endpoint: f.counter.endpoint,
      identifiers: [{ kind: 'email', value: other.email! }, { kind: 'storefront', value: other.storefrontNames[0] }],
    });
    const services = servicesOn(f.emu);
    try {
      const d = await dryRun(store, r.id, services);
      assert.deepEqual(d.accounts.map((a) => a.platformId).sort(), same.map((p) => p.PlatformId).sort(), 'one account per publisher namespace');
      for (const a of d.accounts) {
        const p = same.find((x) => x.PlatformId === a.platformId)!;
        assert.ok(a.foundIn.every((t) => titles.includes(t)), 'found only through configured titles');
        assert.deepEqual([...a.titleIds].sort(), [...p.titlesPlayed].sort(), `${a.platformId}: GetPlayedTitleList shows its own publisher's titles`);
        assert.ok(p.titlesPlayed.includes(a.senderTitleId) || a.foundIn.includes(a.senderTitleId));
        assert.deepEqual(a.actions.map((x) => x.operation), ['ExportMasterPlayerData', 'DeleteMasterPlayerAccount']);
      }
      const served = await servedPer(f.emu);
      for (const p of same) assert.equal(served.get(`GetPlayedTitleList ${p.PlatformId}`), 1, 'one GetPlayedTitleList per account');
      const run = await runActions(store, r.id, services, { confirm: d.confirm });
      assert.ok(run.request.actions.filter((a) => a.kind === 'export').every((a) => a.status === 'queued'), JSON.stringify(run.request.actions));
      const accepted = await servedPer(f.emu, { accepted: true });
      for (const p of same) assert.equal(accepted.get(`ExportMasterPlayerData ${p.PlatformId}`), 1, `one export taken for ${p.PlatformId}`);
    } finally {
      await services.close();
    }
  });

  it('an export refused by a title without a notification address (1006) goes with the account\'s next title, taken once', async () => {
    const ana = (await players(f.emu)).find((p) => p.email !== null && p.titlesPlayed.includes('A248') && p.titlesPlayed.includes('F71AC'))!;
    const store = await RequestStore.open(join(f.dir, 'store'), { auth: AUTH });
    // A248 first: it finds the account first, so it sends; it has no notification address.
    const r = await createRequest(store, { reference: 'T-1006', asks: ['access'], identifiers: [{ kind: 'email', value: ana.email! }], titles: ['A248', 'F71AC'], endpoint: f.counter.endpoint });
    const services = servicesOn(f.emu);
    try {
      const d = await dryRun(store, r.id, services);
      assert.equal(d.accounts[0].senderTitleId, 'A248');
      const run = await runActions(store, r.id, services, { confirm: d.confirm });
      const exp = run.request.actions[0];
      assert.deepEqual([exp.status, exp.titleId], ['queued', 'F71AC']);
      const { entries } = await f.emu.control('requests?limit=1000') as { entries: { operation: string; titleId: string; errorCode: number | null }[] };
      assert.deepEqual(entries.filter((e) => e.operation === 'Admin/ExportMasterPlayerData').map((e) => [e.titleId, e.errorCode]), [['A248', 1006], ['F71AC', null]]);
    } finally {
      await services.close();
    }
  });

  it('a title without a key is not asked and is named; a wrong confirmation sends nothing', async () => {
    const ana = (await players(f.emu)).find((p) => p.email !== null)!;
    const { store, id, services } = await start([{ kind: 'email', value: ana.email! }], ['erasure'], { F71AC: KEYS.F71AC });
    try {
      const d = await dryRun(store, id, services);
      assert.deepEqual(d.titlesSkipped, [{ titleId: 'A248', reason: 'no secret key for this title' }]);
      await assert.rejects(runActions(store, id, services, { confirm: `2:${d.confirm.slice(2)}` }), /^Error: The confirmation does not match what request dr-\S+ acts on now .*Nothing was sent\. Run the dry run again/);
      assert.equal((await servedPer(f.emu)).get('DeleteMasterPlayerAccount') ?? 0, 0);
    } finally {
      await services.close();
    }
  });

  it('received -> resolved -> actions queued (receipts; erasure waits for the export) -> completed -> closed, evidence verified, then retention', async () => {
    const all = await players(f.emu);
    const ana = all.find((p) => p.email !== null && p.titlesPlayed.length === 2)!;
    const { store, id, services } = await start([{ kind: 'email', value: ana.email! }]);
    try {
      assert.equal(requestState(await store.load(id)), 'received');
      const d = await dryRun(store, id, services);
      assert.equal(requestState(await store.load(id)), 'resolved');
      const run1 = await runActions(store, id, services, { confirm: d.confirm });
      assert.equal(requestState(run1.request), 'actions-queued');
      const exp = run1.request.actions.find((a) => a.kind === 'export')!;
      assert.equal(exp.status, 'queued');
      assert.match(exp.jobReceiptId ?? '', /^[0-9A-Za-z-]{8,}$/, 'the export\'s JobReceiptId is recorded');
      assert.equal(run1.request.actions.find((a) => a.kind === 'erasure')!.status, 'waiting', 'no erasure before the export completed');
      assert.equal((await servedPer(f.emu)).get('DeleteMasterPlayerAccount') ?? 0, 0);
      await assert.rejects(closeRequest(store, id, services), /Not closed: .*not completed/);

      await recordExportLink(store, id, exp.jobReceiptId!, 'https://downloads.example/export/1?sig=secret-ish');
      // The same value sends the erasures once the export completed: statuses are not in it.
      const run2 = await runActions(store, id, services, { confirm: d.confirm });
      const erasure = run2.request.actions.find((a) => a.kind === 'erasure')!;
      assert.equal(erasure.status, 'queued');
      await f.emu.control('clock/advance', { ms: 700_000 });
      const v = await verifyRequest(store, id, services);
      assert.deepEqual(v.erased, [ana.PlatformId]);
      assert.equal(requestState(v.request), 'completed');
      const closed = await closeRequest(store, id, services);
      assert.equal(requestState(closed.request), 'closed');
      assert.deepEqual((await verifyEvidence(store, id, services)).problems, []);
      const served = await servedPer(f.emu);
      assert.equal(served.get(`ExportMasterPlayerData ${ana.PlatformId}`), 1);
      assert.equal(served.get(`DeleteMasterPlayerAccount ${ana.PlatformId}`), 1);
      const md = readFileSync(store.evidencePath(id, 'md'), 'utf8');
      assert.match(md, new RegExp(`DeleteMasterPlayerAccount for \`${ana.PlatformId}\`: queued, JobReceiptId ${erasure.jobReceiptId}`));
      assert.match(md, /verified with GetPlayedTitleList .*AccountNotFound/);

      await hashIdentifiers(store, id, services);
      const folder = store.folder(id);
      const files = readdirSync(folder);
      assert.deepEqual(files.filter((n) => n.endsWith('.jsonl')), [], 'the journals go with retention');
      for (const n of files) {
        const text = readFileSync(join(folder, n), 'utf8');
        assert.ok(!text.includes(ana.email!) && !text.includes(ana.PlatformId) && !text.includes('sig=secret-ish'), `${n} keeps no personal identifier or link`);
        for (const key of Object.values(KEYS)) assert.ok(!text.includes(key), `${n} holds no key`);
      }
      assert.deepEqual((await verifyEvidence(store, id, services)).problems, [], 'the chain still holds after retention');
    } finally {
      await services.close();
    }
  });

  it('an events-only erasure is recorded "accepted (no completion signal)", never "completed": the erasure after it is sent and the request closes, and the evidence says accepted', async () => {
    const all = await players(f.emu);
    const ana = all.find((p) => p.email !== null && p.titlesPlayed.length === 2)!;
    const { store, id, services } = await start([{ kind: 'email', value: ana.email! }], ['events', 'erasure']);
    try {
      const d = await dryRun(store, id, services);
      const run1 = await runActions(store, id, services, { confirm: d.confirm });
      const events = run1.request.actions.find((a) => a.kind === 'events')!;
      assert.equal(events.status, 'accepted');
      assert.equal(events.completedBy, 'no completion signal');
      assert.equal(events.completedAt, undefined, 'no completion time: the service gives none');
      assert.equal(run1.counts.completed, 0);
      assert.equal(run1.request.actions.find((a) => a.kind === 'erasure')!.status, 'queued', 'accepted settles the events: the erasure went in the same run');
      assert.equal(run1.sent.events, 1);
      await f.emu.control('clock/advance', { ms: 700_000 });
      const v = await verifyRequest(store, id, services);
      assert.equal(requestState(v.request), 'completed', 'nothing more to wait for');
      assert.equal(v.request.actions.find((a) => a.kind === 'events')!.status, 'accepted', 'verify does not turn it into completed');
      await closeRequest(store, id, services);
      const md = readFileSync(store.evidencePath(id, 'md'), 'utf8');
      assert.match(md, /events of \S+ accepted \(no completion signal\)/);
      assert.doesNotMatch(md, /events of \S+ completed/);
      assert.deepEqual((await verifyEvidence(store, id, services)).problems, []);
    } finally {
      await services.close();
    }
  });
});
