// A lease lost to another operator, on the real PostgreSQL: run A claims a player, then is paused
// (as a process stopped or a laptop asleep) until its lease has run out; run B, a real CLI process
// of another operator, resumes the batch, claims the player and sends it. When A wakes it must not
// send: its last check before the send (under the player's lock) finds B's claim, A says so, and
// B's outcome stands. A lease that ran out with nobody else claiming is recorded as not sent.
import * as assert from 'node:assert/strict';
import { PlatformClient } from '../../../src/core/api/client';
import { confirmValue, JOURNAL_VERSION, runBatch, type BatchRecord } from '../../../src/core/deletion';
import { openPgBatch, type PgBatch } from '../../../src/core/store';
import { delay, PLAYERS, TITLE, useCountingEmulator } from '../deletion/support';
import { asUser, runStoreCli, storeArgs, useStore } from './support';

describe('team store (PostgreSQL): a lease lost to another operator', function () {
  this.timeout(60_000);
  const store = useStore('pe_lease');
  const f = useCountingEmulator('pe-store-lease-');

  function batchOf(id: string, pid: string): BatchRecord {
    return {
      type: 'batch', version: JOURNAL_VERSION, batchId: id, titleId: TITLE.titleId, kind: 'platform-id', createdAt: new Date().toISOString(),
      entries: [{ line: 1, input: pid, status: 'delete', platformId: pid, titleIds: [TITLE.titleId] }],
    };
  }

  async function runA(batch: BatchRecord, whilePaused: () => Promise<void>): Promise<{ a: PgBatch; r: Awaited<ReturnType<typeof runBatch>> }> {
    const a = await openPgBatch({
      url: store.operatorUrl, operator: { fingerprint: 'SHA256:operator-a', name: 'operator-a' }, leaseSeconds: 1,
      batchId: batch.batchId, secret: TITLE.secretKey, titleId: TITLE.titleId, create: batch,
    });
    const claim = a.claim.bind(a);
    // A is paused right after its claim is committed, for as long as `whilePaused` takes.
    a.claim = async (pid, o) => {
      const got = await claim(pid, o);
      await whilePaused();
      return got;
    };
    const client = new PlatformClient({ titleId: TITLE.titleId, endpoint: f.counter.endpoint, getSecretKey: () => Promise.resolve(TITLE.secretKey), maxRetries: 0 });
    try {
      return { a, r: await runBatch(client, a, { resendUnknown: false }) };
    } finally {
      await client.close();
    }
  }

  /** Until every intent of `batch` has a lease that ran out (bounded). */
  async function leaseRunsOut(batch: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const live = await asUser<{ n: string }>(store.auditorUrl, `SELECT count(*)::text AS n FROM platform_explorer.intents WHERE batch_id = $1 AND lease_until > clock_timestamp()`, [batch]);
      if (live[0].n === '0') return;
      await delay(50);
    }
    throw new Error('the lease never ran out');
  }

  it("A's lease runs out while it is paused and B claims and sends the player: A does not send, says so, and B's outcome stands", async () => {
    const pid = PLAYERS[0].platformId;
    const batch = batchOf('lease-lost-1', pid);
    let b: Awaited<ReturnType<typeof runStoreCli>> | undefined;
    const { a, r } = await runA(batch, async () => {
      await leaseRunsOut(batch.batchId);
      // B: another operator's CLI resumes the batch (confirming a resend of what reads as unknown).
      b = await runStoreCli([...storeArgs(f.counter.endpoint, '/nonexistent', batch.batchId), '--resume', '--confirm', confirmValue(batch)], store.operatorUrl);
    });
    try {
      assert.equal(b?.code, 0, b?.stderr);
      assert.equal(f.counter.sends.get(pid), 1, 'sent once, by B only');
      assert.equal(r.sent, 0, 'A sent nothing');
      assert.equal(r.lost.length, 1);
      assert.equal(r.lost[0].platformId, pid);
      assert.match(r.lost[0].why, /this run's claim on it \(a lease of 1 s\) ran out before the send was due, and .+ on .+ claimed it since \(batch lease-lost-1, attempt 2\), so this run did not send it; that run's outcome stands/);
      await a.reload();
      assert.equal(a.players().get(pid)?.state, 'queued', "B's outcome stands");
      const rows = await asUser<{ attempt: number; operator_name: string; state: string | null }>(store.auditorUrl, `SELECT i.attempt, i.operator_name, o.state FROM platform_explorer.intents i
        LEFT JOIN platform_explorer.outcomes o ON o.intent_id = i.id WHERE i.batch_id = 'lease-lost-1' ORDER BY i.attempt`);
      assert.deepEqual(rows.map((x) => [x.attempt, x.operator_name === 'operator-a', x.state]), [[1, true, null], [2, false, 'queued']]);
    } finally {
      await a.close();
    }
  });

  it('a lease that ran out with nobody claiming since: A does not send, and its intent is answered not-sent (pending, not unknown)', async () => {
    const pid = PLAYERS[1].platformId;
    const batch = batchOf('lease-lost-2', pid);
    const { a, r } = await runA(batch, () => leaseRunsOut(batch.batchId));
    try {
      assert.equal(f.counter.sends.get(pid), undefined, 'nothing sent');
      assert.equal(r.lost.length, 1);
      assert.match(r.lost[0].why, /ran out before the send was due, so it was not sent; it is recorded as not sent/);
      await a.reload();
      assert.equal(a.players().get(pid)?.state, 'pending');
    } finally {
      await a.close();
    }
  });
});
