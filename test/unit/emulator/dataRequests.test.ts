// ExportMasterPlayerData and DeleteMasterPlayerEventData over real HTTP: the export job and its
// download link, the emitted events, the notification address, events-only erasure, the second
// account in another publisher's title, and the new state through snapshots and --data.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseState } from '../../../src/emulator/persistence';
import { DEMO_PLAYERS, DEMO_SECOND_ACCOUNT, DEMO_TITLES, DEMO_UNLINKED } from '../../../src/emulator/seed';
import { ARENA, Emu, MAIN } from './harness';

const ana = DEMO_PLAYERS[0];
const KART = DEMO_TITLES[2];
const DAY_MS = 24 * 60 * 60 * 1000;

// Tests read fields freely from parsed bodies.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

async function get(url: string): Promise<{ status: number; json: Any; text: string }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) };
}

describe('emulator: data-subject operations', () => {
  let emu: Emu;
  before(async () => { emu = await Emu.start({ deletionDelayMs: 60_000 }); });
  after(async () => { await emu.close(); });
  beforeEach(async () => { await emu.control('reset', {}); });

  const events = async (type?: string): Promise<Any[]> => (await emu.control(type ? `events?type=${type}` : 'events')).json.events;
  const listed = async (platformId: string): Promise<Any> => (await emu.control('players')).json.players.find((p: Any) => p.PlatformId === platformId);
  const exportOf = async (platformId: string, titleId = MAIN.titleId): Promise<{ receipt: string; url: string }> => {
    const r = await emu.call('Admin/ExportMasterPlayerData', { PlatformId: platformId }, { titleId });
    assert.equal(r.status, 200, r.text);
    const adv = await emu.control('clock/advance', { ms: 60_000 });
    assert.deepEqual(adv.json.completedExports, [r.json.data.JobReceiptId]);
    const e = (await events('player_data_exported')).find((x) => x.JobReceiptId === r.json.data.JobReceiptId);
    return { receipt: r.json.data.JobReceiptId, url: e.ExportDownloadUrl };
  };

  it('an export completes after the deletion delay: the event with the documented members, the e-mail, and a link that serves until it expires', async () => {
    const r = await emu.call('Admin/ExportMasterPlayerData', { PlatformId: ana.platformId });
    assert.equal(r.status, 200, r.text);
    const receipt = r.json.data.JobReceiptId;
    assert.match(receipt, /^[0-9A-F]{32}$/);
    assert.deepEqual(await events(), [], 'nothing before the delay');
    assert.equal((await emu.control('exports')).json.exports[0].status, 'queued');
    await emu.control('clock/advance', { ms: 59_000 });
    assert.deepEqual(await events(), [], 'still queued 1 s before');
    assert.deepEqual((await emu.control('clock/advance', { ms: 1000 })).json.completedExports, [receipt]);

    const [event] = await events('player_data_exported');
    assert.equal(event.type, 'player_data_exported');
    assert.equal(event.JobReceiptId, receipt);
    assert.equal(event.PlayerId, ana.platformId);
    // The common members of the service's event stream (api-facts), and the event's own.
    assert.equal(event.EventName, 'player_data_exported');
    assert.equal(event.TitleId, MAIN.titleId);
    assert.equal(event.EntityId, ana.platformId);
    assert.equal(event.EntityType, 'master_player_account');
    assert.match(event.EventId, /^[0-9a-f]{32}$/);
    assert.ok(!Number.isNaN(Date.parse(event.Timestamp)), event.Timestamp);
    assert.ok(!Number.isNaN(Date.parse(event.RequestTime)), event.RequestTime);
    assert.ok(event.ExportDownloadUrl.startsWith(`${emu.origin}/_emulator/exports/`), event.ExportDownloadUrl);
    const [mail] = (await emu.control('outbox')).json.messages;
    assert.equal(mail.to, 'privacy@demo-racer.example');
    assert.equal(mail.type, 'player_data_exported');
    assert.equal(mail.ExportDownloadUrl, event.ExportDownloadUrl);
    assert.ok(mail.body.includes(event.ExportDownloadUrl));

    const doc = await get(event.ExportDownloadUrl);
    assert.equal(doc.status, 200, doc.text);
    assert.equal(doc.json.PlatformId, ana.platformId);
    assert.equal(doc.json.account.email, ana.email);
    assert.deepEqual(Object.keys(doc.json.titles).sort(), [...ana.playedTitles].sort(), 'every title of the publisher the player played');
    assert.ok(Object.keys(doc.json.titles.F71AC.userData).length > 0);
    assert.equal(doc.json.events.length, (await listed(ana.platformId)).eventCount);
    assert.ok(doc.json.events.length > 0, 'the seed gives Ana events');
    for (const t of DEMO_TITLES) assert.ok(!doc.text.includes(t.secretKey), `no secret key of ${t.titleId}`);
    assert.doesNotMatch(doc.text, /ClientSecret|privateJwk|secretKey|SessionTicket|EntityToken/);
    assert.ok(!doc.text.includes(DEMO_SECOND_ACCOUNT.platformId), 'not the other publisher\'s account');

    // Nothing published says a link serves once: it serves again until it expires.
    const again = await get(event.ExportDownloadUrl);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.json.PlatformId, ana.platformId);
  });

  it('a link not used in time expires; an unknown link is 404', async () => {
    const { url } = await exportOf(ana.platformId);
    await emu.control('clock/advance', { ms: DAY_MS + 1 });
    const late = await get(url);
    assert.equal(late.status, 410);
    assert.match(late.json.errorMessage, /expired/);
    const unknown = await get(`${emu.origin}/_emulator/exports/${'A'.repeat(32)}`);
    assert.equal(unknown.status, 404);
    // Just in time it still serves.
    const { url: fresh } = await exportOf(ana.platformId);
    await emu.control('clock/advance', { ms: DAY_MS - 1000 });
    assert.equal((await get(fresh)).status, 200);
  });

  it('events are listed by type; erasure emits title_deleted_master_player; a title without an address mails nothing', async () => {
    await exportOf(ana.platformId);
    const bo = DEMO_PLAYERS.find((p) => p.playedTitles.includes(ARENA.titleId) && p !== ana && !p.banned)!;
    const del = await emu.call('Admin/DeleteMasterPlayerAccount', { PlatformId: bo.platformId, MetaData: 'ticket-18' }, { titleId: ARENA.titleId });
    assert.equal(del.status, 200, del.text);
    await emu.control('clock/advance', { ms: 60_000 });
    assert.deepEqual((await events()).map((e) => e.type), ['player_data_exported', 'title_deleted_master_player']);
    const erased = await events('title_deleted_master_player');
    assert.equal(erased.length, 1);
    assert.deepEqual(
      { ReceiptId: erased[0].ReceiptId, MetaData: erased[0].MetaData, PlayerId: erased[0].PlayerId, type: erased[0].type },
      { ReceiptId: del.json.data.JobReceiptId, MetaData: 'ticket-18', PlayerId: bo.platformId, type: 'title_deleted_master_player' },
    );
    assert.equal((await events('player_data_exported')).length, 1);
    const mails = (await emu.control('outbox')).json.messages;
    assert.deepEqual(mails.map((m: Any) => m.type), ['player_data_exported'], 'A248 has no notification address: no deletion mail');
    const bad = await emu.control('events?type=nope');
    assert.equal(bad.status, 400);
    assert.match(bad.json.errorDetails.type[0], /player_data_exported, title_deleted_master_player/);
  });

  it('1006 until the title gets a notification address, then the export works there', async () => {
    const first = await emu.call('Admin/ExportMasterPlayerData', { PlatformId: ana.platformId }, { titleId: ARENA.titleId });
    assert.equal(first.json.errorCode, 1006);
    const set = await emu.control(`titles/${ARENA.titleId}/notification`, { email: 'privacy@arena.example' });
    assert.equal(set.status, 200, set.text);
    await exportOf(ana.platformId, ARENA.titleId);
    assert.equal((await emu.control('outbox')).json.messages[0].to, 'privacy@arena.example');
    await emu.control(`titles/${ARENA.titleId}/notification`, { email: null });
    assert.equal((await emu.call('Admin/ExportMasterPlayerData', { PlatformId: ana.platformId }, { titleId: ARENA.titleId })).json.errorCode, 1006);
    assert.equal((await emu.control(`titles/${ARENA.titleId}/notification`, { email: 5 })).status, 400);
  });

  it('DeleteMasterPlayerEventData is queued with the deletion delay (as the service queues it), then empties the player\'s events and nothing else', async () => {
    const before = await listed(ana.platformId);
    assert.ok(before.eventCount > 0);
    const info = (await emu.call('Admin/GetUserAccountInfo', { PlatformId: ana.platformId })).json.data;
    const r = await emu.call('Admin/DeleteMasterPlayerEventData', { PlatformId: ana.platformId });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.data, {});
    await emu.control('clock/advance', { ms: 59_000 });
    assert.equal((await listed(ana.platformId)).eventCount, before.eventCount, 'still queued 1 s before the delay');
    await emu.control('clock/advance', { ms: 1_000 });
    const after = await listed(ana.platformId);
    assert.equal(after.eventCount, 0);
    assert.deepEqual({ ...after, eventCount: before.eventCount }, before, 'every identifier kept');
    assert.deepEqual((await emu.call('Admin/GetUserAccountInfo', { PlatformId: ana.platformId })).json.data, info, 'the account as before');
    const sf = await emu.call('Server/GetPlatformIDsFromStorefrontNames', { StorefrontNames: ana.storefrontNames });
    assert.equal(sf.json.data.Data[0].PlatformId, ana.platformId);
    const { url } = await exportOf(ana.platformId);
    const doc = (await get(url)).json;
    assert.deepEqual(doc.events, []);
    assert.ok(Object.keys(doc.titles.F71AC.userData).length > 0, 'user data kept');
    assert.deepEqual(await events('title_deleted_master_player'), [], 'no erasure');
    assert.equal((await emu.call('Admin/DeleteMasterPlayerEventData', { PlatformId: DEMO_UNLINKED.platformId })).json.errorCode, 1001);
  });

  it('a third title of another publisher holds a second account of Ana: same e-mail, found only through that title', async () => {
    const second = await listed(DEMO_SECOND_ACCOUNT.platformId);
    const first = await listed(ana.platformId);
    assert.equal(second.email, first.email);
    assert.notEqual(second.publisherId, first.publisherId);
    assert.deepEqual(second.titlesPlayed, [KART.titleId]);
    assert.deepEqual(second.storefrontNames, DEMO_SECOND_ACCOUNT.storefrontNames);
    const byMail = async (titleId: string) => (await emu.call('Admin/GetUserAccountInfo', { Email: ana.email }, { titleId })).json;
    assert.equal((await byMail(MAIN.titleId)).data.UserInfo.PlatformId, ana.platformId);
    assert.equal((await byMail(ARENA.titleId)).data.UserInfo.PlatformId, ana.platformId);
    assert.equal((await byMail(KART.titleId)).data.UserInfo.PlatformId, DEMO_SECOND_ACCOUNT.platformId);
    const sf = async (titleId: string) => (await emu.call('Server/GetPlatformIDsFromStorefrontNames', { StorefrontNames: DEMO_SECOND_ACCOUNT.storefrontNames }, { titleId })).json.data.Data[0].PlatformId;
    assert.equal(await sf(MAIN.titleId), null);
    assert.equal(await sf(KART.titleId), DEMO_SECOND_ACCOUNT.platformId);
    assert.equal((await emu.call('Admin/GetPlayedTitleList', { PlatformId: DEMO_SECOND_ACCOUNT.platformId })).json.errorCode, 1001, 'not of the demo publisher');
    assert.deepEqual((await emu.call('Admin/GetPlayedTitleList', { PlatformId: DEMO_SECOND_ACCOUNT.platformId }, { titleId: KART.titleId })).json.data.TitleIds, [KART.titleId]);
    const { url } = await exportOf(DEMO_SECOND_ACCOUNT.platformId, KART.titleId);
    const doc = (await get(url)).json;
    assert.deepEqual(Object.keys(doc.titles), [KART.titleId]);
    assert.equal(doc.publisherId, DEMO_SECOND_ACCOUNT.publisherId);
  });

  it('a snapshot carries exports, links, events and players\' events: restored, the link serves again', async () => {
    const { url } = await exportOf(ana.platformId);
    await emu.call('Admin/DeleteMasterPlayerEventData', { PlatformId: DEMO_PLAYERS[1].platformId });
    assert.equal((await emu.control('snapshots/mid', {})).status, 200);
    assert.equal((await get(url)).status, 200);
    await emu.call('Admin/DeleteMasterPlayerEventData', { PlatformId: ana.platformId });
    await emu.control('reset', {});
    assert.deepEqual(await events(), []);
    assert.equal((await get(url)).status, 404, 'a reset forgets the export');
    await emu.control('snapshots/mid/restore', {});
    assert.equal((await events('player_data_exported')).length, 1);
    assert.ok((await listed(ana.platformId)).eventCount > 0, 'Ana\'s events are back');
    assert.ok((await listed(DEMO_PLAYERS[1].platformId)).eventCount > 0, 'the events-only erasure queued before the snapshot is still queued');
    await emu.control('clock/advance', { ms: 60_000 });
    assert.equal((await listed(DEMO_PLAYERS[1].platformId)).eventCount, 0, 'and takes effect after the delay');
    assert.equal((await get(url)).status, 200, 'restored, the link serves');
    assert.equal((await get(url)).status, 200, 'and again, until it expires');
  });
});

describe('emulator: data-subject state on disk', () => {
  it('--data keeps exports, events and players\' events across a restart; the link works on the new origin', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emu-dsr-'));
    try {
      let emu = await Emu.start({ dataDir: dir, deletionDelayMs: 1000 });
      // The events-only erasure first: it is due no later than the export, whose completion the test waits for.
      await emu.call('Admin/DeleteMasterPlayerEventData', { PlatformId: DEMO_PLAYERS[1].platformId });
      const r = await emu.call('Admin/ExportMasterPlayerData', { PlatformId: ana.platformId });
      await emu.close();
      emu = await Emu.start({ dataDir: dir, deletionDelayMs: 1000 });
      try {
        // The queued export survived the restart and completes on its timer.
        let url: string | undefined;
        for (let i = 0; i < 200 && url === undefined; i++) {
          url = (await emu.control('events?type=player_data_exported')).json.events.find((e: Any) => e.JobReceiptId === r.json.data.JobReceiptId)?.ExportDownloadUrl;
          if (url === undefined) await new Promise((res) => setTimeout(res, 25));
        }
        assert.ok(url?.startsWith(emu.origin), url);
        const players = (await emu.control('players')).json.players;
        assert.equal(players.find((p: Any) => p.PlatformId === DEMO_PLAYERS[1].platformId).eventCount, 0);
        assert.ok(players.find((p: Any) => p.PlatformId === ana.platformId).eventCount > 0);
        assert.equal((await get(url!)).status, 200);
      } finally {
        await emu.close();
      }
      emu = await Emu.start({ dataDir: dir });
      try {
        assert.equal((await emu.control('exports')).json.exports[0].downloadedAt !== undefined, true, 'the download is remembered');
      } finally {
        await emu.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a loaded state with bad data-request members is refused, naming the member', () => {
    const base = { version: 2, seed: 'demo', tokenSecret: 'x', tokensExpiredBefore: 0, clockOffsetMs: 0 };
    const data = { titles: {}, players: {}, jobs: [], outbox: [] };
    const refused = (d: unknown): string => {
      try {
        parseState({ ...base, data: d }, 'The state', 'fix it.');
      } catch (e) {
        return (e as Error).message;
      }
      assert.fail('accepted');
    };
    assert.match(refused({ ...data, events: 5 }), /data\.events must be a list of at most 10000 entries/);
    assert.match(refused({ ...data, events: Array.from({ length: 10_001 }, () => ({ type: 'player_data_exported', titleId: 'F71AC' })) }), /data\.events must be a list/);
    assert.match(refused({ ...data, events: [{ type: 'other' }] }), /events\[0\] must have a type/);
    assert.match(refused({ ...data, exports: [{ JobReceiptId: '../x', PlatformId: 'A', titleId: 'F71AC', status: 'queued', dueAt: 1 }] }), /exports\[0\]/);
    assert.match(refused({ ...data, exports: [{ JobReceiptId: 'A1', PlatformId: 'A', titleId: 'F71AC', status: 'completed', dueAt: 1, token: '../../etc' }] }), /exports\[0\]/);
    assert.match(refused({ ...data, exports: [{ JobReceiptId: 'A1', PlatformId: 'A', titleId: 'F71AC', status: 'completed', dueAt: 1, expiresAt: 1e300 }] }), /expiresAt is 1e\+300/);
    assert.match(refused({ ...data, players: { P: { events: [{ name: 'x', titleId: 'F71AC', time: -5 }] } } }), /time is -5/);
    assert.match(refused({ ...data, players: { P: { events: [{ name: 'x' }] } } }), /players\.P\.events must be a list/);
    assert.match(refused({ ...data, players: { P: { eventsErasureDueAt: 'soon' } } }), /players\.P\.eventsErasureDueAt must be a time in ms/);
    assert.doesNotThrow(() => parseState({ ...base, data }, 'The state', 'fix it.'), 'older states without them load');
  });
});
