// The team store failing under a run: the database stopped mid-run (a server of this test's own,
// stopped by its postmaster's PID) and a statement that runs out of time. The run stops with a
// message that says what to do, and no player is sent without its intent committed first.
import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { confirmOf, delay, PLAYERS, spawnCli, useCountingEmulator } from '../deletion/support';
import { TestPostgres } from '../helpers/postgres';
import { asUser, makeStore, runStoreCli, storeArgs, storeEnv, useStore, type StoreFixture } from './support';

/** Intents per player in `batch` (the admin's view). */
async function intents(url: string, batch: string): Promise<Map<string, number>> {
  const rows = await asUser<{ platform_id: string; n: number }>(url, 'SELECT platform_id, count(*)::int AS n FROM platform_explorer.intents WHERE batch_id = $1 GROUP BY 1', [batch]);
  return new Map(rows.map((r) => [r.platform_id, r.n]));
}

describe('team store faults under a run', function () {
  this.timeout(120_000);
  const f = useCountingEmulator('pe-store-faults-');
  const shared = useStore('pe_faults');
  const ids = PLAYERS.slice(0, 12).map((p) => p.platformId);

  async function setUp(batch: string, endpoint = f.counter.endpoint): Promise<{ args: string[]; confirm: string }> {
    const input = join(f.dir, 'ids.txt');
    writeFileSync(input, ids.join('\n'));
    const args = storeArgs(endpoint, input, batch);
    return { args, confirm: await confirmOf(['delete-players', ...args.slice(1, 9), '--journal', join(f.dir, 'j.jsonl')]) };
  }

  it('the database stopped mid-run: the run stops and says to --resume; every player sent has a committed intent; the resume sends the rest', async () => {
    const server = await TestPostgres.start();
    let store: StoreFixture | undefined;
    try {
      store = await makeStore(server, 'pe_stop');
      await f.emu.control('faults', { latencyMs: 40 });
      const { args, confirm } = await setUp('stopped-1');
      const run = spawnCli([...args, '--confirm', confirm], storeEnv(store.operatorUrl, { PLATFORM_STORE_LEASE_SECONDS: '1' }));
      const deadline = Date.now() + 20_000;
      // Bounded: until a few sends were claimed, then the server goes down under the run.
      while (Date.now() < deadline && ((await intents(store.adminUrl, 'stopped-1').catch(() => new Map())).size < 3)) await delay(5);
      server.stop();
      const r = await run.done;
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /The team store 127\.0\.0\.1:\d+\/pe_stop_\w+ stopped answering while (claiming the send of|recording the outcome of) [0-9A-F]+ .*The run stopped: nothing more was sent.*run the same command with --resume/s);
      server.restart();
      const committed = await intents(store.adminUrl, 'stopped-1');
      assert.ok(f.counter.sends.size > 0 && f.counter.sends.size < ids.length, `sent ${f.counter.sends.size} before the stop`);
      for (const [pid, n] of f.counter.sends) assert.ok(n <= (committed.get(pid) ?? 0), `${pid} sent ${n} times with ${committed.get(pid) ?? 0} committed intents`);
      await f.emu.control('faults', { latencyMs: 0 });
      // Bounded: the stopped run's leases (1 s) run out; then its unsent and unknown players are sent on --resume.
      await delay(1100);
      const again = await runStoreCli([...args, '--resume', '--confirm', confirm], store.operatorUrl);
      assert.equal(again.code, 0, again.stderr);
      assert.deepEqual([...f.counter.sends.keys()].sort(), [...ids].sort());
    } finally {
      server.dispose();
      if (store !== undefined) rmSync(store.dir, { recursive: true, force: true });
    }
  });

  it('a statement time-out: the run stops naming it, nothing is sent', async () => {
    const { args, confirm } = await setUp('timeout-1');
    const admin = new pg.Client({ connectionString: shared.adminUrl });
    await admin.connect();
    try {
      await admin.query('BEGIN');
      await admin.query('LOCK TABLE platform_explorer.intents IN ACCESS EXCLUSIVE MODE');
      const r = await runStoreCli([...args, '--confirm', confirm], shared.operatorUrl, { PLATFORM_STORE_STATEMENT_TIMEOUT_MS: '300' });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /The team store 127\.0\.0\.1:\d+\/pe_faults_\w+ did not finish a statement in time while .*statement timeout.*57014.*run the same command with --resume/s);
      assert.equal(f.counter.sends.size, 0);
    } finally {
      await admin.query('ROLLBACK');
      await admin.end();
    }
  });
});
