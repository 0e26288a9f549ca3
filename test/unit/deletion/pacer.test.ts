// The pacer's AIMD rules on a clock the test moves, and the background verification backoff.
import * as assert from 'node:assert/strict';
import { nextVerifyDelay, Pacer } from '../../../src/core/deletion';

describe('deletion/pacer', () => {
  let now = 0;
  const clock = (): number => now;
  beforeEach(() => { now = 1000; });

  it('grows fast until the first throttled answer, then additively; decreases once per burst of throttled answers', async () => {
    const p = new Pacer({ initialRate: 10, additivePerSecond: 20, decrease: 0.5, now: clock });
    for (let i = 0; i < 5; i++) p.onSuccess();
    assert.ok(Math.abs(p.rate - 10 * 1.1 ** 5) < 1e-9, `slow start: ${p.rate}`);
    const before = p.rate;
    p.onThrottle(0.4);
    assert.equal(p.rate, before * 0.5);
    p.onThrottle(0.4);
    p.onThrottle(0.3);
    assert.equal(p.rate, before * 0.5, 'answers already in flight when the limit was hit count once');
    assert.equal(p.waitingMs(), 400);
    const r = p.rate;
    p.onSuccess();
    assert.ok(Math.abs(p.rate - (r + 20 / r)) < 1e-9, 'after the limit was found: +20 per second of successes');
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

  it('background verification backs off from 30 s to 30 min and starts over when something was verified', () => {
    let d = nextVerifyDelay(undefined, false);
    assert.equal(d, 30_000);
    for (let i = 0; i < 10; i++) d = nextVerifyDelay(d, false);
    assert.equal(d, 30 * 60_000);
    assert.equal(nextVerifyDelay(d, true), 30_000);
  });
});
