import * as assert from 'node:assert/strict';
import { DEMO_PLAYERS, DEMO_UNLINKED } from '../../../src/emulator/seed';
import { ARENA, Emu, MAIN } from './harness';

// A player with every kind of link, who played both titles.
const victim = DEMO_PLAYERS.find((p) => p.launcherSubject && p.storefrontNames.length > 0 && p.consoleLive.length > 0 && p.playedTitles.length === 2 && !p.banned)!;

describe('emulator: DeleteMasterPlayerAccount lifecycle', () => {
  let emu: Emu;
  before(async () => { emu = await Emu.start({ deletionDelayMs: 60_000 }); });
  after(async () => { await emu.close(); });
  beforeEach(async () => { await emu.control('reset', {}); });

  const lookups = async () => {
    const sf = await emu.call('Server/GetPlatformIDsFromStorefrontNames', { StorefrontNames: victim.storefrontNames });
    const cl = await emu.call('Server/GetPlatformIDsFromConsoleLiveIDs', { ConsoleLiveAccountIDs: [victim.consoleLive[0].id], Sandbox: victim.consoleLive[0].sandbox });
    return [sf.json.data.Data[0].PlatformId, cl.json.data.Data[0].PlatformId];
  };

  it('queues a job, refuses a second, blocks re-creation, completes on clock advance, then removes the player and mails the receipt', async () => {
    const del = await emu.call('Admin/DeleteMasterPlayerAccount', { PlatformId: victim.platformId, MetaData: 'ticket-77' });
    assert.equal(del.status, 200, del.text);
    assert.match(del.json.data.JobReceiptId, /^[0-9A-F]{32}$/);
    assert.deepEqual([...del.json.data.TitleIds].sort(), [...victim.playedTitles].sort());

    const second = await emu.call('Admin/DeleteMasterPlayerAccount', { PlatformId: victim.platformId });
    assert.equal(second.status, 400);
    assert.equal(second.json.error, 'InvalidParams');
    assert.match(second.json.errorMessage, /already queued/);

    // Not complete yet: links still resolve, re-creation is refused.
    assert.deepEqual(await lookups(), [victim.platformId, victim.platformId]);
    const IdentityToken = await emu.launcherToken({ subject: victim.launcherSubject });
    const recreate = await emu.call('Server/LoginWithLauncher', { IdentityToken, CreateAccount: true });
    assert.equal(recreate.status, 400);
    assert.equal(recreate.json.error, 'AccountDeleted');
    assert.equal(recreate.json.errorCode, 1322);
    assert.deepEqual((await emu.control('outbox')).json.messages, []);

    const jobs = (await emu.control('jobs')).json.jobs;
    assert.equal(jobs.length, 1);
    assert.equal(jobs[0].status, 'queued');
    assert.equal(jobs[0].MetaData, 'ticket-77');

    const adv = await emu.control('clock/advance', { ms: 60_000 });
    assert.deepEqual(adv.json.completedJobs, [del.json.data.JobReceiptId]);

    assert.deepEqual(await lookups(), [null, null]);
    const login = await emu.call('Server/LoginWithLauncher', { IdentityToken });
    assert.equal(login.json.error, 'AccountNotFound');
    const played = await emu.call('Admin/GetPlayedTitleList', { PlatformId: victim.platformId });
    assert.equal(played.json.error, 'AccountNotFound');
    const again = await emu.call('Admin/DeleteMasterPlayerAccount', { PlatformId: victim.platformId });
    assert.equal(again.json.errorCode, 1001);

    const messages = (await emu.control('outbox')).json.messages;
    assert.equal(messages.length, 1);
    const m = messages[0];
    assert.equal(m.to, 'privacy@demo-racer.example');
    assert.equal(m.JobReceiptId, del.json.data.JobReceiptId);
    assert.equal(m.titleId, MAIN.titleId);
    assert.ok(m.body.includes(del.json.data.JobReceiptId));
    assert.ok(!Number.isNaN(Date.parse(m.sentAt)));
    assert.equal((await emu.control('jobs')).json.jobs[0].status, 'completed');

    // After completion the identity can create a brand-new account.
    const fresh = await emu.call('Server/LoginWithLauncher', { IdentityToken, CreateAccount: true });
    assert.equal(fresh.json.data.NewlyCreated, true);
    assert.notEqual(fresh.json.data.PlatformId, victim.platformId);
  });

  it('a job is due after the deletion delay, not before; its completion is an event and a mail that say what was deleted; a title without an address mails nothing', async () => {
    const other = DEMO_PLAYERS.find((p) => p !== victim && !p.banned && p.playedTitles.length > 0)!;
    const del = await emu.call('Admin/DeleteMasterPlayerAccount', { PlatformId: victim.platformId });
    const quiet = await emu.call('Admin/DeleteMasterPlayerAccount', { PlatformId: other.platformId }, { titleId: ARENA.titleId });
    assert.deepEqual([del.status, quiet.status], [200, 200], quiet.text);
    const [queued] = (await emu.control('jobs')).json.jobs as Record<string, unknown>[];
    assert.equal('MetaData' in queued, false, 'no MetaData sent, none kept');
    assert.equal(Number(queued.dueAt) - Number(queued.createdAt), 60_000);
    assert.deepEqual((await emu.control('clock/advance', { ms: 50_000 })).json.completedJobs, [], 'not due before the delay');
    assert.deepEqual((await emu.control('outbox')).json.messages, []);
    const done = (await emu.control('clock/advance', { ms: 10_000 })).json.completedJobs as string[];
    assert.deepEqual([...done].sort(), [del.json.data.JobReceiptId, quiet.json.data.JobReceiptId].sort());
    const events = (await emu.control('events?type=title_deleted_master_player')).json.events as Record<string, unknown>[];
    const event = events.find((e) => e.ReceiptId === del.json.data.JobReceiptId)!;
    assert.match(String(event.EventId), /^[0-9a-f]{32}$/);
    assert.deepEqual({ ...event, Timestamp: undefined, EventId: undefined }, {
      type: 'title_deleted_master_player', titleId: MAIN.titleId, Timestamp: undefined, ReceiptId: del.json.data.JobReceiptId, MetaData: null, PlayerId: victim.platformId,
      EventName: 'title_deleted_master_player', EventNamespace: 'com.platform.admin', EntityId: victim.platformId, EntityType: 'master_player_account',
      EventId: undefined, Source: 'Platform', TitleId: MAIN.titleId,
    });
    assert.match(String(event.Timestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    assert.equal(events.find((e) => e.ReceiptId === quiet.json.data.JobReceiptId)?.titleId, ARENA.titleId);
    const messages = (await emu.control('outbox')).json.messages as { subject: string; body: string; to: string }[];
    assert.equal(messages.length, 1, 'the title without a notification address mails nothing');
    assert.equal(messages[0].subject, `Player account deletion completed (${del.json.data.JobReceiptId})`);
    assert.equal(messages[0].body, [
      `The master player account deletion requested through title ${MAIN.name} (${MAIN.titleId}) has completed.`,
      `JobReceiptId: ${del.json.data.JobReceiptId}`,
      `PlatformId: ${victim.platformId}`,
      `Data was deleted from titles: ${(del.json.data.TitleIds as string[]).join(', ')}`,
    ].join('\n'));
    const jobs = (await emu.control('jobs')).json.jobs as Record<string, unknown>[];
    assert.deepEqual(jobs.map((j) => j.status), ['completed', 'completed']);
    assert.ok(jobs.every((j) => Number(j.completedAt) >= Number(j.dueAt)));
  });

  it('of concurrent deletes of one player exactly one succeeds', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => emu.call('Admin/DeleteMasterPlayerAccount', { PlatformId: victim.platformId })));
    assert.equal(answers.filter((a) => a.status === 200).length, 1);
    assert.equal(answers.filter((a) => a.status === 400 && a.json.error === 'InvalidParams').length, 7);
    assert.equal((await emu.control('jobs')).json.jobs.length, 1);
  });

  it('unknown or missing PlatformId: AccountNotFound / InvalidParams', async () => {
    const unknown = await emu.call('Admin/DeleteMasterPlayerAccount', { PlatformId: DEMO_UNLINKED.platformId });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.json.error, 'AccountNotFound');
    assert.equal(unknown.json.errorCode, 1001);
    const missing = await emu.call('Admin/DeleteMasterPlayerAccount', { MetaData: 'x' });
    assert.equal(missing.json.error, 'InvalidParams');
    assert.ok(missing.json.errorDetails.PlatformId);
    const both = await emu.call('Admin/DeleteMasterPlayerAccount', { MetaData: 5 });
    assert.deepEqual(Object.keys(both.json.errorDetails).sort(), ['MetaData', 'PlatformId']);
    assert.equal((await emu.control('jobs')).json.jobs.length, 0);
  });

  it('completes on its own after the configured delay (real timers)', async () => {
    const quick = await Emu.start({ deletionDelayMs: 50 });
    try {
      const del = await quick.call('Admin/DeleteMasterPlayerAccount', { PlatformId: victim.platformId });
      assert.equal(del.status, 200);
      let messages: { JobReceiptId: string }[] = [];
      for (let i = 0; i < 100 && messages.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
        messages = (await quick.control('outbox')).json.messages;
      }
      assert.equal(messages[0]?.JobReceiptId, del.json.data.JobReceiptId);
    } finally {
      await quick.close();
    }
  });
});
