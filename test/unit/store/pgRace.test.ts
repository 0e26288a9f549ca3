// Races on one batch in the team store: 2-4 CLI processes (real processes, one PostgreSQL) start
// the same batch at once, some killed -9 at random points; then two --resume runs together. A
// pass-through counts the deletions each player was sent: while no run confirms resending, no
// player is sent twice; no player is ever sent more often than it has committed intents; after the
// resumes every player is queued, and a player sent twice is one whose first send's outcome was
// never recorded (unknown: sent again only on the --resume confirmation, as with the file journal).
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { confirmOf, delay, PLAYERS, spawnCli, useCountingEmulator, type CliRun } from '../deletion/support';
import { sharedPostgres } from '../helpers/postgres';
import { makeStore, storeArgs, storeEnv, type StoreFixture } from './support';

/** Trials: RACE_TRIALS (npm run test:fuzz sets 50), 10 in the normal unit run. */
const TRIALS = Number(process.env.RACE_TRIALS ?? '') > 0 ? Number(process.env.RACE_TRIALS) : 10;
const BATCH = 12;
const LEASE = { PLATFORM_STORE_LEASE_SECONDS: '1' };

describe(`team store: 2-4 runs of one batch at once with kill -9 (${TRIALS} trials)`, function () {
  this.timeout(TRIALS * 40_000);
  const f = useCountingEmulator('pe-store-race-');
  const ids = PLAYERS.slice(0, BATCH).map((p) => p.platformId);

  async function counts(db: pg.Pool, batch: string): Promise<{ intents: Map<string, number>; open: Set<string>; queued: Set<string>; live: number }> {
    const rows = (await db.query<{ platform_id: string; state: string | null; live: boolean }>(`SELECT i.platform_id, o.state, i.lease_until > clock_timestamp() AS live
      FROM platform_explorer.intents i LEFT JOIN platform_explorer.outcomes o ON o.intent_id = i.id WHERE i.batch_id = $1`, [batch])).rows;
    const intents = new Map<string, number>();
    const open = new Set<string>();
    const queued = new Set<string>();
    let live = 0;
    for (const r of rows) {
      intents.set(r.platform_id, (intents.get(r.platform_id) ?? 0) + 1);
      if (r.state === null) open.add(r.platform_id);
      if (r.state === null && r.live) live++;
      if (r.state === 'queued') queued.add(r.platform_id);
    }
    return { intents, open, queued, live };
  }

  it('no player sent twice by racing runs, none sent without its intent committed, every player sent after the resumes', async () => {
    const pgServer = await sharedPostgres();
    let kills = 0;
    let killedInFlight = 0;
    let resent = 0;
    for (let n = 0; n < TRIALS; n++) {
      const store: StoreFixture = await makeStore(pgServer, `pe_race${n}`);
      const db = new pg.Pool({ connectionString: store.adminUrl, max: 4 });
      try {
        await f.emu.control('reset', {});
        await f.emu.control('faults', { latencyMs: 3 + Math.floor(Math.random() * 6) });
        f.counter.sends.clear();
        const input = join(f.dir, `ids-${n}.txt`);
        writeFileSync(input, ids.join('\n'));
        const batch = `race-${n}-${randomBytes(3).toString('hex')}`;
        const args = storeArgs(f.counter.endpoint, input, batch);
        const confirm = await confirmOf(['delete-players', ...args.slice(1, 9), '--journal', join(f.dir, `j-${n}.jsonl`)]);
        const k = 2 + (n % 3);
        const runs = Array.from({ length: k }, () => spawnCli([...args, '--confirm', confirm], storeEnv(store.operatorUrl, LEASE)));
        // Each run is killed -9 with even odds, once the batch has a random number of intents (or at once if it ends first).
        const killers = runs.map(async ({ child, done }) => {
          if (Math.random() < 0.5) return done;
          const at = 1 + Math.floor(Math.random() * (BATCH - 1));
          let finished = false;
          void done.then(() => { finished = true; });
          const deadline = Date.now() + 20_000;
          while (!finished && Date.now() < deadline && ((await counts(db, batch).catch(() => undefined))?.intents.size ?? 0) < at) await delay(2);
          if (!finished) {
            child.kill('SIGKILL');
            kills++;
          }
          return done;
        });
        const ended: CliRun[] = await Promise.all(killers);
        const said = ended.map((r) => `${r.signal ?? r.code}: ${r.stderr.slice(0, 300)}`).join('\n');
        for (const r of ended) assert.ok(r.signal === 'SIGKILL' || r.code === 0 || r.code === 1, `trial ${n}: ${said}`);
        assert.deepEqual(f.counter.twice(), [], `trial ${n}: players sent twice by runs that did not confirm resending:\n${said}`);
        const afterRace = await counts(db, batch);
        for (const [pid, sent] of f.counter.sends) assert.ok(sent <= (afterRace.intents.get(pid) ?? 0), `trial ${n}: ${pid} sent ${sent} times with ${afterRace.intents.get(pid) ?? 0} intents`);
        killedInFlight += afterRace.open.size;

        // Until the killed runs' leases expire (1 s), their sends are in flight: wait them out (bounded).
        const deadline = Date.now() + 10_000;
        while ((await counts(db, batch)).live > 0 && Date.now() < deadline) await delay(50);
        const before = new Map(f.counter.sends);
        const resumes = await Promise.all([0, 1].map(() => spawnCli([...args, '--resume', '--confirm', confirm], storeEnv(store.operatorUrl, LEASE)).done));
        for (const r of resumes) assert.ok(r.code === 0 || r.code === 1, `trial ${n}: ${r.code} ${r.stderr}`);
        const end = await counts(db, batch);
        assert.deepEqual([...end.queued].sort(), [...ids].sort(), `trial ${n}: every player queued after the resumes: ${resumes.map((r) => r.stderr).join(' | ')}`);
        assert.deepEqual([...f.counter.sends.keys()].sort(), [...ids].sort(), `trial ${n}: every player sent`);
        for (const [pid, sent] of f.counter.sends) {
          assert.ok(sent <= (end.intents.get(pid) ?? 0), `trial ${n}: ${pid} sent ${sent} times with ${end.intents.get(pid) ?? 0} intents`);
          if (sent > 1) {
            resent++;
            assert.ok(afterRace.open.has(pid), `trial ${n}: ${pid} sent twice, but its first send's outcome was recorded`);
            assert.equal(sent - (before.get(pid) ?? 0), 1, `trial ${n}: ${pid} resent more than once by the two resumes`);
          }
        }
      } finally {
        await db.end();
        rmSync(store.dir, { recursive: true, force: true });
      }
    }
    console.log(`      ${TRIALS} trials: ${kills} runs killed -9, ${killedInFlight} sends left without an outcome, ${resent} of them had reached the service and were resent on --resume`);
  });
});
