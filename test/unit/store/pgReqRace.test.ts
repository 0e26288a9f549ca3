// Races on one data request in the team store (issue 33): 2-4 `request run --store postgres`
// processes (real processes, one PostgreSQL) start at once, some killed -9 at random points; then
// two plain runs together. The emulator's own log counts what it was sent: while no run confirms
// resending (--resend-unknown), no action is sent twice; then --resend-unknown sends the actions
// whose answer was never recorded, and every action has been sent. A run that ignored the
// database's answer to its claim fails this test (see the commit that added it).
import * as assert from 'node:assert/strict';
import { delay, spawnCli, useCountingEmulator, type CliRun } from '../deletion/support';
import { servedPer } from '../requests/support';
import { accounts, newStoreRequest, reqEnv, requestIntents } from './pgReqSupport';
import { asUser, useStore } from './support';

/** Trials: RACE_TRIALS (npm run test:fuzz sets 50), 10 in the normal unit run. */
const TRIALS = Number(process.env.RACE_TRIALS ?? '') > 0 ? Number(process.env.RACE_TRIALS) : 10;
const ACCOUNTS = 6;
const OPERATION = { events: 'DeleteMasterPlayerEventData', erasure: 'DeleteMasterPlayerAccount' } as const;
const LEASE = { PLATFORM_STORE_LEASE_SECONDS: '1' };

describe(`team store: 2-4 runs of one data request at once with kill -9 (${TRIALS} trials)`, function () {
  this.timeout(TRIALS * 60_000);
  const store = useStore('pe_reqrace');
  const f = useCountingEmulator('pe-store-reqrace-');
  const pids = accounts(ACCOUNTS);

  it('no action sent twice by racing runs; every action sent once the unknown ones are resent on confirmation', async () => {
    let kills = 0;
    let unknownAfterRace = 0;
    let resent = 0;
    for (let n = 0; n < TRIALS; n++) {
      await f.emu.control('reset', {});
      await f.emu.control('requests/clear', {});
      await f.emu.control('faults', { latencyMs: 3 + Math.floor(Math.random() * 8) });
      const { id, confirm } = await newStoreRequest(store.operatorUrl, f.dir, f.emu.endpoint, pids, 'events,erasure', `RACE-${n}`);
      const run = (more: string[] = []): ReturnType<typeof spawnCli> => spawnCli(['request', 'run', '--store', 'postgres', '--id', id, '--confirm', confirm, ...more], reqEnv(store.operatorUrl, LEASE));
      const k = 2 + (n % 3);
      const runs = Array.from({ length: k }, () => run());
      // Each run is killed -9 with even odds, once the request has a random number of intents (or not, if it ends first).
      const ended: CliRun[] = await Promise.all(runs.map(async ({ child, done }) => {
        if (Math.random() < 0.5) return done;
        const at = 1 + Math.floor(Math.random() * (2 * ACCOUNTS - 1));
        let finished = false;
        void done.then(() => { finished = true; });
        const deadline = Date.now() + 20_000;
        while (!finished && Date.now() < deadline && (await requestIntents(store.adminUrl, id).catch(() => [])).length < at) await delay(2);
        if (!finished) {
          child.kill('SIGKILL');
          kills++;
        }
        return done;
      }));
      const said = ended.map((r) => `${r.signal ?? r.code}: ${r.stderr.slice(0, 400)}`).join('\n');
      for (const r of ended) assert.ok(r.signal === 'SIGKILL' || r.code === 0 || r.code === 1, `trial ${n}: ${said}`);
      const twice = (m: Map<string, number>): string[] => pids.flatMap((p) => Object.values(OPERATION).filter((op) => (m.get(`${op} ${p}`) ?? 0) > 1).map((op) => `${op} ${p}`));
      assert.deepEqual(twice(await servedPer(f.emu)), [], `trial ${n}: sent twice by runs that did not confirm resending:\n${said}`);

      // Until the killed runs' leases end (1 s), their sends are in flight: waited out (bounded); then two plain runs at once.
      const deadline = Date.now() + 10_000;
      while ((await requestIntents(store.adminUrl, id)).some((i) => i.live) && Date.now() < deadline) await delay(50);
      const plain = await Promise.all([run().done, run().done]);
      for (const r of plain) assert.ok(r.code === 0 || r.code === 1, `trial ${n}: ${r.code} ${r.stderr}`);
      const afterPlain = await servedPer(f.emu);
      assert.deepEqual(twice(afterPlain), [], `trial ${n}: sent twice without --resend-unknown: ${plain.map((r) => r.stderr).join(' | ')}`);
      const rows = await requestIntents(store.adminUrl, id);
      const unknown = new Set(rows.filter((i) => i.state === null).map((i) => `${i.action} ${i.platform_id}`));
      unknownAfterRace += unknown.size;

      // The user's confirmation to send the unknown ones again: then everything is sent, and only those twice at most.
      const last = await run(['--resend-unknown']).done;
      const where = async (): Promise<string> => JSON.stringify({ journals: await asUser(store.adminUrl, 'SELECT name, batch_id FROM platform_explorer.request_journals WHERE request_id = $1', [id]), intents: await requestIntents(store.adminUrl, id) });
      assert.equal(last.code, 0, `trial ${n}: ${last.stderr} ${await where()}`);
      const end = await servedPer(f.emu);
      for (const p of pids) {
        for (const op of Object.values(OPERATION)) {
          const sent = end.get(`${op} ${p}`) ?? 0;
          assert.ok(sent >= 1, `trial ${n}: ${op} of ${p} never sent`);
          if (sent > 1) {
            resent++;
            assert.ok(unknown.has(`${op} ${p}`) && sent === 2, `trial ${n}: ${op} of ${p} sent ${sent} times, and it was not left unknown`);
          }
        }
      }
      for (const i of await requestIntents(store.adminUrl, id)) assert.equal(i.operator_name, 'Test Operator');
    }
    console.log(`      ${TRIALS} trials: ${kills} runs killed -9, ${unknownAfterRace} sends left without an outcome, ${resent} of them had reached the service and were resent on --resend-unknown`);
  });
});
