import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INFO_REQUEST_FLAGS, PROFILE_CONSTRAINT_FLAGS } from '../../../src/core/api/operations';
import { writeFileAtomic } from '../../../src/emulator/persistence';
import { DEMO_PLAYERS, DEMO_UNLINKED } from '../../../src/emulator/seed';
import { startEmulator } from '../../../src/emulator/server';
import { Emu } from './harness';

const victim = DEMO_PLAYERS.find((p) => p.storefrontNames.length > 0 && !p.banned)!;

describe('emulator: persistence with --data', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'emu-data-')); });
  afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

  it('converts a state file of the previous layout (dollars) to cents, so every answer stays a whole number of cents', async () => {
    let emu = await Emu.start({ dataDir: dir });
    await emu.close();
    const file = join(dir, 'state.json');
    const state = JSON.parse(readFileSync(file, 'utf8'));
    state.version = 1;
    const payer = DEMO_PLAYERS.find((p) => p.launcherSubject !== undefined && !p.banned && p.playedTitles.includes('F71AC'))!;
    state.data.players[payer.platformId].totalValueToDateInUSD = 4.99;
    writeFileSync(file, JSON.stringify(state));
    emu = await Emu.start({ dataDir: dir });
    try {
      const IdentityToken = await emu.launcherToken({ subject: payer.launcherSubject });
      const r = await emu.call('Server/LoginWithLauncher', {
        IdentityToken,
        InfoRequestParameters: {
          ...Object.fromEntries(INFO_REQUEST_FLAGS.map((f) => [f, f === 'GetPlayerProfile'])),
          ProfileConstraints: Object.fromEntries(PROFILE_CONSTRAINT_FLAGS.map((f) => [f, f === 'ShowTotalValueToDateInUsd'])),
        },
      });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.data.InfoResultPayload.PlayerProfile.TotalValueToDateInUSD, 499);
    } finally {
      await emu.close();
    }
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).version, 2, 'written back in the new layout');
  });

  it('keeps state across a restart; a queued deletion survives it and completes after', async () => {
    let emu = await Emu.start({ dataDir: dir, deletionDelayMs: 60_000 });
    let receipt: string;
    try {
      const IdentityToken = await emu.launcherToken({ subject: DEMO_UNLINKED.launcherSubject });
      const created = await emu.call('Server/LoginWithLauncher', { IdentityToken, CreateAccount: true });
      assert.equal(created.status, 200);
      const token = await emu.titleToken();
      assert.equal((await emu.callWithToken('Addon/DeleteConsoleNetB', token)).status, 200);
      const del = await emu.call('Admin/DeleteMasterPlayerAccount', { PlatformId: victim.platformId });
      assert.equal(del.status, 200);
      receipt = del.json.data.JobReceiptId;
      // The acknowledged job is on disk before the answer.
      const onDisk = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8'));
      assert.equal(onDisk.data.jobs[0].JobReceiptId, receipt);
    } finally {
      await emu.close();
    }

    emu = await Emu.start({ dataDir: dir, deletionDelayMs: 60_000 });
    try {
      // The account created before the restart is still there.
      const IdentityToken = await emu.launcherToken({ subject: DEMO_UNLINKED.launcherSubject });
      const login = await emu.call('Server/LoginWithLauncher', { IdentityToken });
      assert.equal(login.status, 200, login.text);
      assert.equal(login.json.data.NewlyCreated, false);
      // The deleted add-on stays deleted.
      const token = await emu.titleToken();
      assert.equal((await emu.callWithToken('Addon/DeleteConsoleNetB', token)).json.errorCode, 19009);
      // The job is still queued, still blocks a second delete, then completes.
      const jobs = (await emu.control('jobs')).json.jobs;
      assert.deepEqual(jobs.map((j: { JobReceiptId: string; status: string }) => [j.JobReceiptId, j.status]), [[receipt, 'queued']]);
      assert.equal((await emu.call('Admin/DeleteMasterPlayerAccount', { PlatformId: victim.platformId })).status, 400);
      const adv = await emu.control('clock/advance', { ms: 60_000 });
      assert.deepEqual(adv.json.completedJobs, [receipt]);
      const sf = await emu.call('Server/GetPlatformIDsFromStorefrontNames', { StorefrontNames: victim.storefrontNames });
      assert.equal(sf.json.data.Data[0].PlatformId, null);
      // The outbox message is also a file under DIR/outbox.
      const files = readdirSync(join(dir, 'outbox'));
      assert.deepEqual(files, [`${receipt}.json`]);
      const mail = JSON.parse(readFileSync(join(dir, 'outbox', files[0]), 'utf8'));
      assert.equal(mail.JobReceiptId, receipt);
      assert.equal(mail.to, 'privacy@demo-racer.example');
    } finally {
      await emu.close();
    }

    // Completion itself persisted; the clock offset too (the job stays completed).
    emu = await Emu.start({ dataDir: dir });
    try {
      const jobs = (await emu.control('jobs')).json.jobs;
      assert.equal(jobs[0].status, 'completed');
      assert.equal((await emu.control('outbox')).json.messages.length, 1);
    } finally {
      await emu.close();
    }
  });

  it('a deletion that fell due while the emulator was down completes right after start', async () => {
    let emu = await Emu.start({ dataDir: dir, deletionDelayMs: 100 });
    const del = await emu.call('Admin/DeleteMasterPlayerAccount', { PlatformId: victim.platformId });
    await emu.close();
    await new Promise((r) => setTimeout(r, 150));
    emu = await Emu.start({ dataDir: dir });
    try {
      let done = false;
      for (let i = 0; i < 100 && !done; i++) {
        done = (await emu.control('outbox')).json.messages.some((m: { JobReceiptId: string }) => m.JobReceiptId === del.json.data.JobReceiptId);
        if (!done) await new Promise((r) => setTimeout(r, 20));
      }
      assert.ok(done, 'the overdue job completed');
    } finally {
      await emu.close();
    }
  });

  it('reset goes back to the seed on disk and clears outbox files', async () => {
    const emu = await Emu.start({ dataDir: dir, deletionDelayMs: 0 });
    try {
      await emu.call('Admin/DeleteMasterPlayerAccount', { PlatformId: victim.platformId });
      await emu.control('clock/advance', { ms: 0 });
      assert.equal(readdirSync(join(dir, 'outbox')).length, 1);
      await emu.control('reset', {});
      assert.equal(readdirSync(join(dir, 'outbox')).length, 0);
      const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8'));
      assert.ok(state.data.players[victim.platformId], 'the player is back');
      assert.deepEqual(state.data.jobs, []);
    } finally {
      await emu.close();
    }
  });

  it('a corrupt state file is a clear start-up error naming the file and the fix', async () => {
    writeFileSync(join(dir, 'state.json'), '{"version": 1, "data": ');
    await assert.rejects(startEmulator({ dataDir: dir }), (e: Error) => e.message.includes('state.json') && /delete it/.test(e.message));
  });

  it('writeFileAtomic leaves only the target file behind', async () => {
    const target = join(dir, 'x.json');
    await writeFileAtomic(target, '{"a":1}');
    await writeFileAtomic(target, '{"a":2}');
    assert.deepEqual(readdirSync(dir), ['x.json']);
    assert.equal(readFileSync(target, 'utf8'), '{"a":2}');
  });
});
