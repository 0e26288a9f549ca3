/* eslint-disable @typescript-eslint/no-explicit-any -- tests read members of parsed answers freely */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DEMO_PLAYERS, DEMO_UNLINKED } from '../../../src/emulator/seed';
import { Emu, MAIN } from './harness';

const [victim, other] = DEMO_PLAYERS.filter((p) => p.playedTitles.includes(MAIN.titleId) && !p.banned);

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('emulator: snapshots', () => {
  let emu: Emu;
  afterEach(async () => { await emu?.close(); });

  it('a snapshot restored twice is the same both times: restore, change, restore again (a suite that resets between tests)', async () => {
    emu = await Emu.start({ deletionDelayMs: 60_000 });
    await emu.control('snapshots/clean', {});
    const players = async () => (await emu.control('players')).json.players.map((p: any) => p.PlatformId).sort();
    const clean = await players();
    for (let round = 0; round < 3; round++) {
      assert.equal((await emu.control('snapshots/clean/restore', {})).status, 200);
      assert.deepEqual(await players(), clean, `round ${round}: the restored players`);
      assert.equal((await emu.call('Admin/GetPlayedTitleList', { PlatformId: victim.platformId })).status, 200, `round ${round}: the victim is back`);
      // Change the restored state in place: a deletion completes, an account is created.
      assert.equal((await emu.call('Admin/DeleteMasterPlayerAccount', { PlatformId: victim.platformId })).status, 200);
      await emu.control('clock/advance', { ms: 61_000 });
      const IdentityToken = await emu.launcherToken({ subject: DEMO_UNLINKED.launcherSubject });
      assert.equal((await emu.call('Server/LoginWithLauncher', { IdentityToken, CreateAccount: true })).status, 200);
      assert.notDeepEqual(await players(), clean);
    }
  });

  it('save, change everything, restore: the whole state is back (players, accounts, jobs, outbox, tokens) and listed', async () => {
    emu = await Emu.start({ deletionDelayMs: 60_000 });
    const token = await emu.titleToken();
    const saved = await emu.control('snapshots/before', {});
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.json.players, DEMO_PLAYERS.length + 1, 'the demo publisher\'s players and the second account in C3A5E');
    // Change: a deletion completes, an account is created, an add-on removed.
    assert.equal((await emu.call('Admin/DeleteMasterPlayerAccount', { PlatformId: victim.platformId })).status, 200);
    await emu.control('clock/advance', { ms: 61_000 });
    assert.equal((await emu.control('outbox')).json.messages.length, 1);
    const IdentityToken = await emu.launcherToken({ subject: DEMO_UNLINKED.launcherSubject });
    assert.equal((await emu.call('Server/LoginWithLauncher', { IdentityToken, CreateAccount: true })).status, 200);
    assert.equal((await emu.callWithToken('Addon/DeleteConsoleNetB', token)).status, 200);
    const restored = await emu.control('snapshots/before/restore', {});
    assert.equal(restored.status, 200, restored.text);
    assert.equal((await emu.call('Admin/GetPlayedTitleList', { PlatformId: victim.platformId })).status, 200, 'the deleted player is back');
    assert.deepEqual((await emu.control('outbox')).json.messages, []);
    assert.deepEqual((await emu.control('jobs')).json.jobs, []);
    const again = await emu.launcherToken({ subject: DEMO_UNLINKED.launcherSubject });
    assert.equal((await emu.call('Server/LoginWithLauncher', { IdentityToken: again })).json.error, 'AccountNotFound', 'the created account is gone');
    assert.equal((await emu.callWithToken('Addon/DeleteConsoleNetB', token)).status, 200, 'the add-on is back; the token of before works');
    const list = await emu.control('snapshots');
    assert.deepEqual(list.json.snapshots.map((s: { name: string }) => s.name), ['before']);
    assert.equal((await emu.control('snapshots/nope/restore', {})).status, 400);
    const bad = await emu.control('snapshots/bad%2Fname', {});
    assert.equal(bad.status, 400);
    assert.match(bad.json.errorDetails.name[0], /1 to 64 letters, digits/);
  });

  it('a snapshot taken mid-deletion restores the queued job, and its timer completes it again', async () => {
    emu = await Emu.start({ deletionDelayMs: 1500 });
    const del = await emu.call('Admin/DeleteMasterPlayerAccount', { PlatformId: victim.platformId, MetaData: 'ticket-9' });
    const receipt = del.json.data.JobReceiptId;
    assert.equal((await emu.control('snapshots/mid', {})).json.queuedJobs, 1);
    // The timer completes the job (no clock advance): the e-mail is sent, the player gone.
    await waitFor('the first completion', async () => ((await emu.control('outbox')).json.messages.length === 1 ? true : undefined));
    assert.equal((await emu.call('Admin/GetPlayedTitleList', { PlatformId: victim.platformId })).json.error, 'AccountNotFound');
    assert.equal((await emu.control('snapshots/mid/restore', {})).status, 200);
    const jobs = (await emu.control('jobs')).json.jobs;
    assert.deepEqual(jobs.map((j: any) => [j.JobReceiptId, j.status, j.MetaData]), [[receipt, 'queued', 'ticket-9']]);
    assert.equal((await emu.call('Admin/GetPlayedTitleList', { PlatformId: victim.platformId })).status, 200, 'pending again');
    assert.equal((await emu.call('Admin/DeleteMasterPlayerAccount', { PlatformId: victim.platformId })).json.errorMessage.includes('already'), true, 'the queued job is known: no second one');
    assert.deepEqual((await emu.control('outbox')).json.messages, []);
    // Its timer runs again from the time it had left.
    const messages = await waitFor('the completion after restore', async () => {
      const m = (await emu.control('outbox')).json.messages;
      return m.length > 0 ? m : undefined;
    });
    assert.equal(messages.length, 1);
    assert.equal(messages[0].JobReceiptId, receipt);
    assert.equal((await emu.call('Admin/GetPlayedTitleList', { PlatformId: victim.platformId })).json.error, 'AccountNotFound');
    assert.equal((await emu.call('Admin/GetPlayedTitleList', { PlatformId: other.platformId })).status, 200);
  });

  describe('--snapshot-on-exit and --load', () => {
    let dir: string;
    let child: ChildProcess | undefined;
    beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'emu-snap-')); });
    afterEach(() => {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });

    const bundle = join(process.cwd(), 'dist', 'emulator.js');
    const start = async (args: string[]) => {
      const c = spawn(process.execPath, [bundle, '--port', '0', '--json', '--fixed-keys', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      child = c;
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: c.stdout! }).once('line', resolve);
        c.once('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      return JSON.parse(line) as { endpoint: string; controlToken: string; titles: { titleId: string; secretKey: string }[] };
    };
    const post = (endpoint: string, op: string, body: unknown) => fetch(endpoint.replace('{titleId}', MAIN.titleId) + '/' + op, {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'X-SecretKey': MAIN.secretKey }, body: JSON.stringify(body),
    });

    it('a run stopped mid-deletion writes its state; --load brings the queued job back and it completes', async function () {
      this.timeout(30_000);
      const file = join(dir, 'state.snapshot.json');
      let info = await start(['--deletion-delay', '600000', '--snapshot-on-exit', file]);
      const del = await post(info.endpoint, 'Admin/DeleteMasterPlayerAccount', { PlatformId: victim.platformId });
      const receipt = ((await del.json()) as { data: { JobReceiptId: string } }).data.JobReceiptId;
      const exited = new Promise((r) => child!.once('exit', r));
      child!.kill('SIGTERM');
      assert.equal(await exited, 0);
      const written = JSON.parse(readFileSync(file, 'utf8'));
      assert.equal(written.format, 'platform-emulator-snapshot');
      assert.equal(written.state.data.jobs[0].JobReceiptId, receipt);
      info = await start(['--load', file]);
      const origin = new URL(info.endpoint.replace('/{titleId}', '')).origin;
      const jobs = (await (await fetch(`${origin}/_emulator/jobs`, { headers: { Authorization: `Bearer ${info.controlToken}` } })).json()) as { jobs: { status: string }[] };
      assert.deepEqual(jobs.jobs.map((j) => j.status), ['queued']);
      const adv = await fetch(`${origin}/_emulator/clock/advance`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${info.controlToken}` }, body: '{"ms":600000}' });
      assert.deepEqual(((await adv.json()) as { completedJobs: string[] }).completedJobs, [receipt]);
    });

    it('--load of a broken or planted file exits 2 naming the file and the member', async () => {
      const file = join(dir, 'bad.json');
      const run = async (content: unknown) => {
        writeFileSync(file, JSON.stringify(content));
        const c = spawn(process.execPath, [bundle, '--load', file, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
        let err = '';
        c.stderr.on('data', (d: Buffer) => { err += d.toString(); });
        const code = await new Promise((r) => c.once('exit', r));
        return { code, err };
      };
      let r = await run({ hello: 1 });
      assert.equal(r.code, 2);
      assert.match(r.err, /bad\.json is not a platform-emulator snapshot/);
      r = await run({ format: 'platform-emulator-snapshot', version: 1, takenAt: 0, state: { version: 2, tokenSecret: 'x', tokensExpiredBefore: 0, clockOffsetMs: 1e300, data: {} } });
      assert.equal(r.code, 2);
      assert.match(r.err, /The snapshot file .*bad\.json is not valid: clockOffsetMs is 1e\+300/);
    });
  });
});
