// The real client against the emulator's fault injection: lookups retry within bounds and then
// finish or fail clearly; deletes are never re-sent and say when their outcome is unknown;
// cancellation stops work at once.
import * as assert from 'node:assert/strict';
import { PlatformClient, type PlatformClientOptions } from '../../../src/core/api/client';
import { isCancellation, type PlatformErrorKind } from '../../../src/core/api/errors';
import { rejection } from '../helpers/rejection';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../../src/emulator/seed';
import type { EmulatorHandle } from '../../../src/emulator/server';
import { checkedEmulator } from '../helpers/contract';
import { emulatorControl } from '../helpers/controls';

const TITLE = DEMO_TITLES[0];
const LOOKUP = 'Server/GetPlatformIDsFromStorefrontNames';
const DELETE_MASTER = 'Admin/DeleteMasterPlayerAccount';
const MAX_RETRIES = 3;
const TIMEOUT_MS = 800;
const linked = DEMO_PLAYERS.filter((p) => p.storefrontNames.length > 0 && !p.banned);

type Kind = '429' | '500' | '503' | 'reset-before' | 'reset-after' | 'garbage' | 'html' | 'timeout' | 'drip';
/** The error each fault ends in when it never stops. */
const FINAL_KIND: Record<Kind, PlatformErrorKind> = {
  '429': 'throttled', '500': 'service', '503': 'service', 'reset-before': 'network', 'reset-after': 'network',
  garbage: 'malformed', html: 'malformed', timeout: 'timeout', drip: 'timeout',
};
const KINDS = Object.keys(FINAL_KIND) as Kind[];

/** Fails the test when `p` has not settled within `ms`: "stops at once", bounded generously. */
async function settlesWithin<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} did not stop within ${ms} ms`)), ms); });
  try {
    return await Promise.race([p, guard]);
  } finally {
    clearTimeout(timer);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

describe('security: faults with the real client and the emulator', function () {
  this.timeout(30_000);
  let emu: EmulatorHandle;
  const clients: PlatformClient[] = [];

  function control(path: string, body?: unknown): Promise<Record<string, unknown>> {
    return emulatorControl(emu.origin, path, body);
  }
  async function count(op: string): Promise<number> {
    return ((await control('stats')) as { requests: Record<string, number> }).requests[op] ?? 0;
  }
  /** Requests of `op` the emulator counted, once no client of this test has anything in flight or scheduled. */
  async function sent(op: string): Promise<number> {
    await settlesWithin(Promise.all(clients.map((c) => c.whenIdle())), 5000, 'the clients\' work');
    return count(op);
  }
  async function jobs(): Promise<{ JobReceiptId: string; PlatformId: string }[]> {
    return (await control('jobs')).jobs as { JobReceiptId: string; PlatformId: string }[];
  }
  async function fault(kind: Kind, operation: string, times = 1, retryAfterSeconds = 0): Promise<void> {
    await control('faults', { rules: [{ operation, kind, times, retryAfterSeconds }] });
  }
  function client(o: Partial<PlatformClientOptions> = {}): PlatformClient {
    const c = new PlatformClient({
      titleId: TITLE.titleId, endpoint: emu.endpoint, getSecretKey: async () => TITLE.secretKey,
      maxRetries: MAX_RETRIES, retryBaseDelayMs: 1, timeoutMs: TIMEOUT_MS, ...o,
    });
    clients.push(c);
    return c;
  }
  async function until(what: string, cond: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 200; i++) {
      if (await cond()) return;
      await delay(10);
    }
    assert.fail(`timed out waiting for ${what}`);
  }

  before(async () => {
    emu = await checkedEmulator({ seed: 'demo', deletionDelayMs: 60_000 });
  });
  after(async () => {
    await emu.close();
  });
  beforeEach(async () => {
    await control('reset', {});
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  describe('lookups retry within bounds', () => {
    for (const kind of KINDS) {
      it(`${kind} once: retried, then the right answer`, async () => {
        await fault(kind, LOOKUP);
        const p = linked[0];
        const r = await client().getPlatformIdsFromStorefrontNames([p.storefrontNames[0], 'nobody-here']);
        assert.deepEqual(r.map((x) => x.PlatformId), [p.platformId, null]);
        assert.equal(await sent(LOOKUP), 2);
      });

      it(`${kind} forever: fails clearly after ${MAX_RETRIES + 1} attempts`, async () => {
        await fault(kind, LOOKUP, -1);
        const e = await rejection(client().getPlatformIdsFromStorefrontNames([linked[0].storefrontNames[0]]));
        assert.equal(e.kind, FINAL_KIND[kind], e.message);
        assert.match(e.message, /GetPlatformIDsFromStorefrontNames/);
        assert.ok(e.hint.length > 10);
        assert.ok(!e.message.includes(TITLE.secretKey));
        assert.equal(e.outcomeUnknown, false);
        assert.equal(await sent(LOOKUP), MAX_RETRIES + 1);
      });
    }

    it('429 asking for a longer wait than allowed fails at once with the delay in the message', async () => {
      await fault('429', LOOKUP, 1, 120);
      const e = await rejection(client().getPlatformIdsFromStorefrontNames(['x']));
      assert.equal(e.kind, 'throttled');
      assert.equal(e.retryAfterSeconds, 120);
      assert.match(e.message, /120 s/);
      assert.equal(await sent(LOOKUP), 1);
    });

    it('429 with Retry-After: waits for it, then succeeds', async () => {
      await fault('429', LOOKUP, 1, 1);
      const r = await client().getPlatformIdsFromStorefrontNames([linked[1].storefrontNames[0]]);
      assert.equal(r[0].PlatformId, linked[1].platformId);
      assert.equal(await sent(LOOKUP), 2);
    });
  });

  describe('deletes are never re-sent', () => {
    // Faults after which the service may or may not have acted.
    const ambiguous: Kind[] = ['timeout', 'reset-before', 'reset-after', '500', '503', 'garbage', 'html', 'drip'];
    for (const kind of ambiguous) {
      it(`DeleteMasterPlayerAccount hit by ${kind}: sent once, outcome unknown`, async () => {
        await fault(kind, DELETE_MASTER);
        const e = await rejection(client().deleteMasterPlayerAccount({ PlatformId: linked[2].platformId }));
        assert.equal(e.outcomeUnknown, true, e.message);
        assert.equal(e.retryable, false);
        assert.match(e.message, /may or may not have happened/);
        assert.ok(e.hint.length > 10);
        assert.equal(await sent(DELETE_MASTER), 1);
        // The emulator acted only when the fault came after processing: that is why the outcome is unknown.
        assert.equal((await jobs()).length, kind === 'reset-after' || kind === 'drip' ? 1 : 0);
      });
    }

    for (const op of ['Addon/DeleteMobileStore', 'Addon/DeleteConsoleNetB'] as const) {
      for (const kind of ['timeout', 'reset-after', '503', 'garbage'] as const) {
        it(`${op} hit by ${kind}: sent once, outcome unknown`, async () => {
          await fault(kind, op);
          const c = client();
          const e = await rejection(op === 'Addon/DeleteMobileStore' ? c.mutate('DeleteMobileStore', {}) : c.mutate('DeleteConsoleNetB', {}));
          assert.equal(e.outcomeUnknown, true, e.message);
          assert.equal(await sent(op), 1);
        });
      }
    }

    it('a 429 is a definite rejection: the delete is sent again after the delay and queued exactly once', async () => {
      await fault('429', DELETE_MASTER, 1, 0);
      const r = await client().deleteMasterPlayerAccount({ PlatformId: linked[3].platformId });
      assert.match(r.JobReceiptId ?? '', /^[0-9A-F]{32}$/);
      assert.equal(await sent(DELETE_MASTER), 2);
      assert.deepEqual((await jobs()).map((j) => j.JobReceiptId), [r.JobReceiptId]);
    });
  });

  describe('cancellation stops at once', () => {
    it('a lookup waiting for an answer', async () => {
      await fault('timeout', LOOKUP, -1);
      const ac = new AbortController();
      const p = rejection(client({ timeoutMs: 30_000 }).getPlatformIdsFromStorefrontNames(['x'], { signal: ac.signal }));
      await until('the request', async () => (await count(LOOKUP)) === 1);
      ac.abort();
      const e = await settlesWithin(p, 2000, 'the lookup');
      assert.equal(e.kind, 'cancelled');
      assert.equal(await sent(LOOKUP), 1, 'sent again after cancellation');
    });

    it('a lookup waiting out a Retry-After', async () => {
      await fault('429', LOOKUP, -1, 30);
      const ac = new AbortController();
      let retryIn!: (delayMs: number) => void;
      const retryScheduled = new Promise<number>((resolve) => { retryIn = resolve; });
      const p = rejection(client({ onRetry: (n) => retryIn(n.delayMs) }).getPlatformIdsFromStorefrontNames(['x'], { signal: ac.signal }));
      // The client has the 429 and waits out its Retry-After: cancel then.
      assert.equal(await settlesWithin(retryScheduled, 2000, 'the throttled request'), 30_000);
      ac.abort();
      const e = await settlesWithin(p, 2000, 'the throttled lookup');
      assert.equal(e.kind, 'cancelled');
      assert.equal(await sent(LOOKUP), 1);
    });

    it('a bulk lookup of 2,000 names sends no more requests once cancelled', async () => {
      await control('faults', { latencyMs: 30, rules: [] });
      const ac = new AbortController();
      const names = Array.from({ length: 2000 }, (_, i) => `name-${i}`);
      const p = rejection(client().getPlatformIdsFromStorefrontNames(names, {
        signal: ac.signal, concurrency: 2, onProgress: (done) => { if (done > 0) ac.abort(); },
      }));
      const e = await settlesWithin(p, 2000, 'the bulk lookup');
      assert.equal(e.kind, 'cancelled');
      // Cancelled as the first answer came: only the 2 requests in flight then may have reached the emulator.
      const total = await sent(LOOKUP);
      assert.ok(total >= 1 && total <= 2, `${total} of 80 requests sent: requests kept going after cancellation`);
    });

    it('a delete cancelled after it was sent says its outcome is unknown', async () => {
      // drip: the emulator queues the job, then sends the answer a byte at a time.
      await fault('drip', DELETE_MASTER);
      const ac = new AbortController();
      const p = rejection(client({ timeoutMs: 30_000 }).deleteMasterPlayerAccount({ PlatformId: linked[4].platformId }, { signal: ac.signal }));
      await until('the job', async () => (await jobs()).length === 1);
      ac.abort();
      const e = await settlesWithin(p, 2000, 'the delete');
      assert.equal(e.kind, 'cancelled');
      assert.equal(e.outcomeUnknown, true, `"${e.message}" although the deletion was queued`);
      assert.match(e.message, /may or may not have happened/);
      // Not a silent cancellation: the user is told.
      assert.equal(isCancellation(e), false);
      assert.equal(await sent(DELETE_MASTER), 1);
    });

    it('a delete cancelled before it was sent is a plain cancellation', async () => {
      const ac = new AbortController();
      ac.abort();
      const e = await rejection(client().deleteMasterPlayerAccount({ PlatformId: linked[4].platformId }, { signal: ac.signal }));
      assert.equal(e.kind, 'cancelled');
      assert.equal(e.outcomeUnknown, false);
      assert.equal(isCancellation(e), true);
      assert.equal(await sent(DELETE_MASTER), 0);
    });
  });
});
