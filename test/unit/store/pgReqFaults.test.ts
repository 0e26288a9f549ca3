// Data requests on a failing team store (issue 33): the database stopped under a run (a server of
// this test's own, stopped by its postmaster's PID) and a send's lease lost to another operator
// (a second operator's run claims it while the first awaits the answer). Each run stops with a
// message that says what to do; nothing is sent without its intent committed first; the shared
// queue (request show) names who holds a send.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { delay, runCli, spawnCli, useCountingEmulator } from '../deletion/support';
import { TestPostgres } from '../helpers/postgres';
import { servedPer } from '../requests/support';
import { accounts, newStoreRequest, reqEnv, requestIntents } from './pgReqSupport';
import { makeStore, useStore, type StoreFixture } from './support';

const ERASE = 'DeleteMasterPlayerAccount';

describe('team store faults under a data request run', function () {
  this.timeout(120_000);
  const f = useCountingEmulator('pe-store-reqfault-');
  const shared = useStore('pe_reqfault');
  beforeEach(() => f.emu.control('requests/clear', {}));

  it('the database stopped mid-run: the run stops and says what to do; every send has a committed intent; the same command then sends the rest', async () => {
    const server = await TestPostgres.start();
    let store: StoreFixture | undefined;
    try {
      store = await makeStore(server, 'pe_reqstop');
      const pids = accounts(12);
      const { id, confirm } = await newStoreRequest(store.operatorUrl, f.dir, f.emu.endpoint, pids, 'erasure');
      await f.emu.control('faults', { latencyMs: 40 });
      const args = ['request', 'run', '--store', 'postgres', '--id', id, '--confirm', confirm];
      const run = spawnCli(args, reqEnv(store.operatorUrl, { PLATFORM_STORE_LEASE_SECONDS: '1' }));
      const deadline = Date.now() + 20_000;
      // Bounded: until a few sends were claimed, then the server goes down under the run.
      while (Date.now() < deadline && (await requestIntents(store.adminUrl, id).catch(() => [])).length < 3) await delay(5);
      server.stop();
      const r = await run.done;
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /The team store 127\.0\.0\.1:\d+\/pe_reqstop_\w+ stopped answering while .*The run stopped: nothing more was sent.*run the same request command again: a send whose answer was not recorded stays unknown/s);
      server.restart();
      const committed = await requestIntents(store.adminUrl, id);
      const served = await servedPer(f.emu);
      const sent = pids.filter((p) => (served.get(`${ERASE} ${p}`) ?? 0) > 0);
      assert.ok(sent.length > 0 && sent.length < pids.length, `sent ${sent.length} before the stop`);
      for (const p of sent) assert.ok((served.get(`${ERASE} ${p}`) ?? 0) <= committed.filter((i) => i.platform_id === p).length, `${p} sent without a committed intent`);
      await f.emu.control('faults', { latencyMs: 0 });
      // Bounded: the stopped run's leases (1 s) run out; the same command sends the rest, --resend-unknown the unknown ones.
      await delay(1100);
      await runCli(args, reqEnv(store.operatorUrl));
      const again = await runCli([...args, '--resend-unknown'], reqEnv(store.operatorUrl));
      assert.equal(again.code, 0, again.stderr);
      const end = await servedPer(f.emu);
      for (const p of pids) assert.ok((end.get(`${ERASE} ${p}`) ?? 0) >= 1, `${p} sent in the end`);
    } finally {
      server.dispose();
      if (store !== undefined) rmSync(store.dir, { recursive: true, force: true });
    }
  });

  it('a lease lost to another operator: show names who holds the send now; the first run records its answer and stops with a message naming that operator', async () => {
    const [pid] = accounts(1);
    const { id, confirm } = await newStoreRequest(shared.operatorUrl, f.dir, f.emu.endpoint, [pid], 'erasure', 'LEASE-1');
    const other = mkdtempSync(join(tmpdir(), 'pe-other-op-'));
    try {
      const otherEnv = { XDG_CONFIG_HOME: other };
      const made = await runCli(['operator', 'init', '--name', 'Second Operator', '--json'], otherEnv);
      assert.equal(made.code, 0, made.stderr);
      await f.emu.control('faults', { latencyMs: 4000 });
      const args = ['request', 'run', '--store', 'postgres', '--id', id, '--confirm', confirm];
      const first = spawnCli(args, reqEnv(shared.operatorUrl, { PLATFORM_STORE_LEASE_SECONDS: '1' }));
      const deadline = Date.now() + 20_000;
      // Bounded: until the first run's claim is there and its 1 s lease has run out (its send still awaiting the service).
      while (Date.now() < deadline && !(await requestIntents(shared.adminUrl, id)).some((i) => !i.live && i.state === null)) await delay(20);
      const second = spawnCli([...args, '--resend-unknown'], reqEnv(shared.operatorUrl, { PLATFORM_STORE_LEASE_SECONDS: '60', ...otherEnv }));
      while (Date.now() < deadline && (await requestIntents(shared.adminUrl, id)).length < 2) await delay(20);
      const shown = await runCli(['request', 'show', '--store', 'postgres'], reqEnv(shared.operatorUrl));
      assert.match(shown.stdout, new RegExp(`held by: Second Operator \\(SHA256:[A-Za-z0-9_-]{43}\\) on \\S+ \\(process \\d+\\), sending ${ERASE} of ${pid}, lease until `));
      const r = await first.done;
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, new RegExp(`The lease on the send of ${pid} \\(batch [0-9a-f-]+\\) ran out while this run awaited its answer, and Second Operator \\(SHA256:[A-Za-z0-9_-]{43}\\) on \\S+ \\(process \\d+\\) claimed that send since\\. This run recorded the answer it got \\(queued\\) and stopped`));
      const s = await second.done;
      assert.equal(s.code, 0, s.stderr);
      const rows = await requestIntents(shared.adminUrl, id);
      assert.deepEqual(rows.map((i) => i.operator_name), ['Test Operator', 'Second Operator']);
    } finally {
      await f.emu.control('faults', { latencyMs: 0 });
      rmSync(other, { recursive: true, force: true });
    }
  });
});
