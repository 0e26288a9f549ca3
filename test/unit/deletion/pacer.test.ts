// The pacer's AIMD rules on a clock the test moves, and the background verification backoff.
import * as assert from 'node:assert/strict';
import { nextVerifyDelay, Pacer } from '../../../src/core/deletion';

describe('deletion/pacer', () => {
  let now = 0;
  const clock = (): number => now;
  beforeEach(() => { now = 1000; });

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
    const p = new Pacer({ initialRate: 100, maxInFlight: 4, now: clock });
    assert.equal(await p.acquire(), true);
    p.release();
    p.onThrottle(0.05);
    const ac = new AbortController();
    let got = false;
    const waiting = p.acquire(ac.signal).then((ok) => { got = ok; });
    await new Promise((r) => setTimeout(r, 20));
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
    // Four sends may be in flight; a fifth waits for a release. acquire() takes a free slot
    // synchronously, so one turn of the event loop is enough to see that it did not.
    for (let i = 0; i < 4; i++) {
      now += 10;
      assert.equal(await p.acquire(), true);
    }
    now += 10;
    let fifth = false;
    const waiting = p.acquire().then((ok) => { fifth = ok; });
    await new Promise((r) => setImmediate(r));
    assert.equal(fifth, false, 'a fifth request in flight');
    p.release();
    await waiting;
    assert.equal(fifth, true, 'the released slot is taken');
  });

  it('background verification backs off from 30 s to 30 min and starts over when something was verified', () => {
    let d = nextVerifyDelay(undefined, false);
    assert.equal(d, 30_000);
    for (let i = 0; i < 10; i++) d = nextVerifyDelay(d, false);
    assert.equal(d, 30 * 60_000);
    assert.equal(nextVerifyDelay(d, true), 30_000);
  });
});
