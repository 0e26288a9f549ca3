// kill -9 of `request run` at random moments, then the same command again until it is done:
// the emulator's own request log shows no action sent twice for any account, and every action the
// request records as taken was served exactly once.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RequestStore } from '../../../src/core/requests';
import { delay, PLAYERS, runCli, spawnCli, useCountingEmulator } from '../deletion/support';
import { KEY_ENV, servedPer } from './support';

const CYCLES = Number(process.env.DURABILITY_CYCLES ?? '') > 0 ? Number(process.env.DURABILITY_CYCLES) : 4;
const ACCOUNTS = 24;
const OPERATION = { export: 'ExportMasterPlayerData', events: 'DeleteMasterPlayerEventData', erasure: 'DeleteMasterPlayerAccount' } as const;

/** Intents written so far in all the request's journals. */
function intents(folder: string): number {
  let n = 0;
  for (const name of readdirSync(folder)) {
    if (name.endsWith('.journal.jsonl')) n += readFileSync(join(folder, name), 'utf8').split('"type":"intent"').length - 1;
  }
  return n;
}

describe('requests: kill -9 during a run, then resumed', function () {
  this.timeout(CYCLES * 40_000);
  const f = useCountingEmulator('pe-reqkill-');

  it(`${CYCLES} requests of ${ACCOUNTS} accounts (exports; or events-only erasure, then erasure), each killed at random moments and run again: nothing sent twice; --resend-unknown then finishes it`, async () => {
    const pids = PLAYERS.filter((p) => p.playedTitles.includes('F71AC')).slice(0, ACCOUNTS).map((p) => p.platformId);
    const ids = join(f.dir, 'ids.txt');
    writeFileSync(ids, pids.map((p) => `platformid:${p}`).join('\n'));
    let killsMidRun = 0;
    let unknownLeft = 0;
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      await f.emu.control('reset', {});
      await f.emu.control('requests/clear', {});
      await f.emu.control('faults', { latencyMs: 5 + Math.floor(Math.random() * 10) });
      const store = join(f.dir, `store-${cycle}`);
      // Odd cycles: exports (access); even: events-only erasure, then erasure.
      const asks = cycle % 2 === 1 ? 'access' : 'events,erasure';
      const made = await runCli(['request', 'new', '--store', store, '--reference', `KILL-${cycle}`, '--asks', asks, '--identifiers', ids, '--titles', 'F71AC', '--endpoint', f.emu.endpoint, '--json'], KEY_ENV);
      assert.equal(made.code, 0, made.stderr);
      const id = (JSON.parse(made.stdout) as { id: string }).id;
      const dry = await runCli(['request', 'run', '--store', store, '--id', id, '--dry-run', '--json'], KEY_ENV);
      assert.equal(dry.code, 0, dry.stderr);
      const confirm = (JSON.parse(dry.stdout) as { accounts: unknown[]; confirm: string }).confirm;
      assert.equal((JSON.parse(dry.stdout) as { accounts: unknown[] }).accounts.length, ACCOUNTS);
      const folder = join(store, id);
      for (let attempt = 0; attempt < 12; attempt++) {
        const { child, done } = spawnCli(['request', 'run', '--store', store, '--id', id, '--confirm', confirm], KEY_ENV);
        if (attempt < 3) {
          const target = intents(folder) + 1 + Math.floor(Math.random() * ACCOUNTS);
          const deadline = Date.now() + 15_000;
          let finished = false;
          void done.then(() => { finished = true; });
          while (!finished && Date.now() < deadline && intents(folder) < target) await delay(1);
          if (!finished && child.exitCode === null && child.signalCode === null) {
            child.kill('SIGKILL');
            await done;
            killsMidRun++;
          }
        }
        const r = await done;
        if (r.signal === 'SIGKILL') continue;
        // Exit 1 is left only by sends whose answer was never recorded (never sent again).
        const req = await (await RequestStore.open(store)).load(id);
        const open = req.actions.filter((a) => a.status === 'planned' || a.status === 'failed');
        if (r.code === 0 || open.length === 0) break;
      }
      await f.emu.control('faults/clear', {});
      const served = await servedPer(f.emu);
      const req = await (await RequestStore.open(store)).load(id);
      for (const a of req.actions) {
        const op = OPERATION[a.kind];
        const n = served.get(`${op} ${a.platformId}`) ?? 0;
        assert.ok(n <= 1, `cycle ${cycle}: ${op} of ${a.platformId} served ${n} times`);
        if (a.status === 'queued' || a.status === 'completed' || a.status === 'accepted') assert.equal(n, 1, `cycle ${cycle}: ${a.kind} of ${a.platformId} is ${a.status} and was served once`);
        else assert.ok(a.status === 'unknown' || a.status === 'waiting', `cycle ${cycle}: ${a.kind} of ${a.platformId} is ${a.status}: ${a.error ?? ''}`);
        if (a.status === 'unknown') unknownLeft++;
      }
      const first = req.actions.filter((a) => a.kind !== 'erasure');
      assert.ok(first.every((a) => ['completed', 'accepted', 'queued', 'unknown'].includes(a.status)), `cycle ${cycle}: every export or events-only erasure sent`);

      // The user's choice to send the unknown ones again: only those may be served a second time, and then everything is taken.
      const unknown = new Set(req.actions.filter((a) => a.status === 'unknown').map((a) => `${a.kind} ${a.platformId}`));
      for (let i = 0; i < 3; i++) {
        const again = await runCli(['request', 'run', '--store', store, '--id', id, '--confirm', confirm, '--resend-unknown'], KEY_ENV);
        if (again.code === 0) break;
      }
      const after = await (await RequestStore.open(store)).load(id);
      const servedAfter = await servedPer(f.emu);
      for (const a of after.actions) {
        assert.ok(a.status === 'completed' || a.status === 'accepted' || a.status === 'queued', `cycle ${cycle}: ${a.kind} of ${a.platformId} is ${a.status} after --resend-unknown`);
        const n = servedAfter.get(`${OPERATION[a.kind]} ${a.platformId}`) ?? 0;
        if (unknown.has(`${a.kind} ${a.platformId}`)) assert.ok(n === 1 || n === 2, `cycle ${cycle}: ${a.kind} of ${a.platformId} resent: served ${n}`);
        else assert.equal(n, 1, `cycle ${cycle}: ${a.kind} of ${a.platformId} served once`);
      }
    }
    assert.ok(killsMidRun >= CYCLES, `kills that landed mid-run: ${killsMidRun}`);
    console.log(`      (${killsMidRun} kills mid-run; ${unknownLeft} actions left sent without a recorded answer, each served at most once)`);
  });
});
