// The pacer's AIMD rules on a clock the test moves, and the background verification backoff.
import * as assert from 'node:assert/strict';
import { nextVerifyDelay } from '../../../src/core/deletion';
import { Pacer } from '../../../src/core/pacing/pacer';

describe('pacing/pacer', () => {
  let now = 0;
  const clock = (): number => now;
  beforeEach(() => { now = 1000; });

  /**
   * Takes `n` slots 10 ms apart, then shows that one more waits until a release and then gets it.
   * acquire() takes a free slot synchronously, so one turn of the event loop shows it did not.
   */
  async function fillThenWaitForRelease(p: Pacer, n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      now += 10;
      assert.equal(await p.acquire(), true, `slot ${i + 1} of ${n}`);
    }
    now += 10;
    let extra = false;
    const waiting = p.acquire().then((ok) => { extra = ok; });
    await new Promise((r) => setImmediate(r));
    assert.equal(extra, false, `request ${n + 1} in flight`);
    p.release();
    await waiting;
    assert.equal(extra, true, 'the released slot is taken');
  }

  it('grows fast until the first throttled answer, then settles under the last second\'s successes; one burst counts once', async () => {
    const p = new Pacer({ initialRate: 10, additivePerSecond: 20, decrease: 0.5, now: clock });
    for (let i = 0; i < 5; i++) p.onSuccess();
    assert.ok(Math.abs(p.rate - 10 * 1.1 ** 5) < 1e-9, `slow start: ${p.rate}`);
    p.onThrottle(1);
    assert.equal(p.rate, 5 * 0.95, 'the service took 5 in the last second: settle at 95% of that');
    p.onThrottle(1);
    p.onThrottle(1);
    assert.equal(p.rate, 5 * 0.95, 'answers already in flight when the limit was hit count once');
    assert.equal(p.waitingMs(), 1000);
    now += 1000;
    for (let i = 0; i < 20; i++) p.onSuccess();
    assert.equal(p.rate, 5 * 0.95, 'no creeping back into the limit (each throttle costs a whole second)');
    now += 10_000;
    p.onSuccess();
    assert.ok(Math.abs(p.rate - 5 * 0.95 * 1.05) < 1e-9, `after 10 s without a throttle it probes 5% higher: ${p.rate}`);
    now += 2000;
    p.onThrottle(1);
    assert.ok(Math.abs(p.rate - 5 * 0.95 * 1.05 * 0.5) < 1e-9, `no success in the last second: the rate times decrease (${p.rate})`);
  });

  it('against a fixed window of 100/s with whole-second Retry-After: 1,000 sends with one throttled burst, close to the bound', () => {
    // A simulation on the test clock: the service's window starts at its first request.
    const p = new Pacer({ now: clock });
    now = 0;
    let windowStart = -Infinity;
    let inWindow = 0;
    let sent = 0;
    let bursts = 0;
    let throttledBefore = false;
    for (let step = 0; step < 100_000 && sent < 1000; step++) {
      const wait = p.waitingMs();
      if (wait > 0) {
        now += wait;
        continue;
      }
      if (now - windowStart >= 1000) {
        windowStart = now;
        inWindow = 0;
      }
      if (++inWindow <= 100) {
        p.onSuccess();
        sent++;
        throttledBefore = false;
      } else {
        if (!throttledBefore) bursts++;
        throttledBefore = true;
        p.onThrottle(Math.max(1, Math.ceil((windowStart + 1000 - now) / 1000)));
      }
      now += 1000 / p.rate;
    }
    assert.equal(sent, 1000);
    assert.equal(bursts, 1, 'only the burst that found the limit');
    // The bound: 10 s of sending plus the one whole second the service asked for.
    assert.ok(now <= 11_000 * 1.1, `took ${now} ms`);
  });

  it('sends nothing before Retry-After, keeps the interval of its rate and the in-flight cap; a 1342 halves the cap', async () => {
    let reads = 0;
    const p = new Pacer({ initialRate: 100, maxInFlight: 4, now: () => { reads++; return now; } });
    assert.equal(await p.acquire(), true);
    p.release();
    p.onThrottle(0.05);
    const ac = new AbortController();
    let got = false;
    const before = reads;
    const waiting = p.acquire(ac.signal).then((ok) => { got = ok; });
    // The event to wait for: the pacer slept out the pause and read the clock again (the test clock has not moved), or took the slot.
    while (reads < before + 2 && !got) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setImmediate(r));
    assert.equal(got, false, 'still paused on the test clock');
    now += 60;
    await waiting;
    assert.equal(got, true);
    p.release();
    p.onThrottle(undefined, true);
    assert.equal(p.inFlightCap, 2);
    ac.abort();
    assert.equal(await p.acquire(ac.signal), false, 'an aborted wait takes no slot');
  });

  it('after a concurrency refusal the in-flight cap grows back with successes to maxInFlight, and never past it', async () => {
    const p = new Pacer({ initialRate: 1000, maxInFlight: 4, now: clock });
    p.onThrottle(undefined, true);
    assert.equal(p.inFlightCap, 2, 'a 1342 halves the cap');
    now += 10;
    p.onSuccess();
    assert.ok(p.inFlightCap > 2 && p.inFlightCap < 3, `it grows back a little with each success (${p.inFlightCap})`);
    for (let i = 0; i < 50; i++) p.onSuccess();
    assert.equal(p.inFlightCap, 4, 'back to maxInFlight, not above it');
    // Four sends may be in flight; a fifth waits for a release.
    await fillThenWaitForRelease(p, 4);
  });

  it('spaces sends by its rate: a slot is free exactly at the interval, not before; a throttle pause holds them even once the interval has passed', async () => {
    const p = new Pacer({ initialRate: 10, maxInFlight: 8, now: clock });
    /** Starts an acquire(); it takes a free slot synchronously, so one turn of the event loop shows whether it did. */
    const start = async (): Promise<{ got: () => boolean; done: Promise<void> }> => {
      let got = false;
      const done = p.acquire().then((ok) => { got = ok; });
      await new Promise((r) => setImmediate(r));
      return { got: () => got, done };
    };
    assert.equal((await start()).got(), true);
    // The next slot is 100 ms (1/rate) later: the second request waits until the clock gets there.
    const second = await start();
    assert.equal(second.got(), false, 'sent before its interval');
    now += 100;
    await second.done;
    assert.equal(second.got(), true, 'sent at its interval');
    // A throttle pause of 50 ms, once the 100 ms interval has passed: the pause still holds sends.
    now += 100;
    p.onThrottle(0.05);
    const third = await start();
    assert.equal(third.got(), false, 'sent during the pause');
    now += 50;
    await third.done;
    assert.equal(third.got(), true);
  });

  it('a wait aborted while paused ends false and takes no slot', async () => {
    const p = new Pacer({ initialRate: 1000, maxInFlight: 1, now: clock });
    p.onThrottle(60);
    const ac = new AbortController();
    const waiting = p.acquire(ac.signal);
    await new Promise((r) => setImmediate(r));
    ac.abort();
    assert.equal(await waiting, false);
    now += 60_000;
    // The one slot is still free: taken at once.
    assert.equal(await p.acquire(), true);
  });

  it('release() frees one slot each, never more; an aborted signal takes none even when one is free', async () => {
    const p = new Pacer({ initialRate: 1000, maxInFlight: 2, now: clock });
    await fillThenWaitForRelease(p, 2);
    // Two in flight: three releases free two slots, not three.
    p.release();
    p.release();
    p.release();
    const ac = new AbortController();
    ac.abort();
    now += 10;
    assert.equal(await p.acquire(ac.signal), false, 'aborted first: no slot taken');
    // Extra releases do not make room for more than maxInFlight.
    await fillThenWaitForRelease(p, 2);
  });

  it('boundaries of the throttle rules: a success exactly a second old is not counted, a throttle as a pause ends starts a new burst, a probe comes exactly probeAfterMs after the last throttle', () => {
    const p = new Pacer({ initialRate: 10, decrease: 0.5, additivePerSecond: 0.1, now: clock });
    p.onSuccess();
    now += 1000;
    p.onThrottle(1);
    assert.ok(Math.abs(p.rate - 11 * 0.5) < 1e-9, `the success 1000 ms ago is outside the last second: rate x decrease (${p.rate})`);
    now += 1000;
    p.onThrottle(1);
    assert.ok(Math.abs(p.rate - 11 * 0.5 * 0.5) < 1e-9, `a throttle as the pause ends is a new burst (${p.rate})`);
    const settled = p.rate;
    now += 10_000;
    p.onSuccess();
    // Probing raises the ceiling 5%; below it the rate grows by additivePerSecond / rate per success.
    assert.ok(Math.abs(p.rate - (settled + 0.1 / settled)) < 1e-9, `exactly probeAfterMs later it probes (${p.rate})`);
  });

  it('background verification backs off from 30 s to 30 min and starts over when something was verified', () => {
    let d = nextVerifyDelay(undefined, false);
    assert.equal(d, 30_000);
    for (let i = 0; i < 10; i++) d = nextVerifyDelay(d, false);
    assert.equal(d, 30 * 60_000);
    assert.equal(nextVerifyDelay(d, true), 30_000);
  });
});
