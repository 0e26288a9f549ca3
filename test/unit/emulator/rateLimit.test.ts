// --rate-limit: a fixed window per title and per operation; 429 with Retry-After, retryAfterSeconds and 1199.
import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/emulator/http';
import { parseRateLimit, RateLimiter } from '../../../src/emulator/rateLimit';
import { ARENA, Emu, MAIN } from './harness';

const LOOKUP = 'Server/GetPlatformIDsFromStorefrontNames';
const body = { StorefrontNames: ['nobody'] };

describe('emulator: --rate-limit', () => {
  let emu: Emu;
  before(async () => { emu = await Emu.start({ rateLimit: parseRateLimit('3/1') }); });
  after(async () => { await emu.close(); });
  beforeEach(async () => { await emu.control('reset', {}); });

  it('answers 429 past N in the window, with Retry-After, retryAfterSeconds and 1199; per title and per operation', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await emu.call(LOOKUP, body)).status, 200);
    const r = await emu.call(LOOKUP, body);
    assert.equal(r.status, 429);
    assert.equal(r.json.errorCode, 1199);
    assert.equal(r.json.error, 'APIClientRequestRateLimitExceeded');
    assert.equal(r.json.retryAfterSeconds, 1, 'whole seconds, as the service sends them');
    assert.equal(r.headers.get('retry-after'), '1');
    // Another operation and another title have windows of their own.
    assert.equal((await emu.call('Server/GetPlatformIDsFromConsoleLiveIDs', { ConsoleLiveAccountIDs: ['1'] })).status, 200);
    assert.equal((await emu.call(LOOKUP, body, { titleId: ARENA.titleId })).status, 200);
    await new Promise((res) => setTimeout(res, r.json.retryAfterSeconds * 1000 + 20));
    assert.equal((await emu.call(LOOKUP, body)).status, 200, 'a new window after Retry-After');
    assert.equal((await emu.control('stats')).json.throttled, 1);
  });

  it('the faults control sets and clears it; bad values are refused naming rateLimit', async () => {
    assert.equal((await emu.control('faults', { rateLimit: '1/60' })).status, 200);
    assert.equal((await emu.call(LOOKUP, body)).status, 200);
    assert.equal((await emu.call(LOOKUP, body)).status, 429);
    assert.equal((await emu.control('faults', { rateLimit: null })).status, 200);
    assert.equal((await emu.call(LOOKUP, body, { titleId: MAIN.titleId })).status, 200);
    const bad = await emu.control('faults', { rateLimit: '10 per second' });
    assert.equal(bad.status, 400);
    assert.match(bad.json.errorDetails.rateLimit[0], /N\/SECONDS/);
    // Not text and not null: refused with how to write it; the current limit is kept.
    const number = await emu.control('faults', { rateLimit: 5 });
    assert.equal(number.status, 400);
    assert.deepEqual(number.json.errorDetails, { rateLimit: ['rateLimit must be "N/SECONDS" (e.g. "100/1") or null.'] });
  });

  it('parses N/SECONDS and names the flag when it is wrong', () => {
    assert.deepEqual(parseRateLimit('100/1'), { limit: 100, windowMs: 1000 });
    assert.deepEqual(parseRateLimit('5/0.5'), { limit: 5, windowMs: 500 });
    for (const bad of ['0/1', '10', '10/0', 'a/b', '-1/1', '100/1x', 'x100/1', '100/1/2', '1000001/1', '1/3601']) assert.throws(() => parseRateLimit(bad), /--rate-limit must be N\/SECONDS/, bad);
    assert.deepEqual(parseRateLimit('5/0.125'), { limit: 5, windowMs: 125 }, 'milliseconds in the window');
    assert.throws(() => parseRateLimit('5/0.1255'), /--rate-limit must be N\/SECONDS/);
    assert.deepEqual(parseRateLimit(' 1000000/3600 '), { limit: 1_000_000, windowMs: 3_600_000 }, 'the largest allowed, spaces trimmed');
  });
});

describe('emulator: the rate limiter on a clock the test moves', () => {
  let now = 0;
  const clock = (): number => now;
  beforeEach(() => { now = 10_000; });

  /** The Retry-After of the throttled answer to one more request, or undefined when it is taken. */
  function take(rl: RateLimiter, title = 't', op = 'Op'): number | undefined {
    try {
      rl.take(title, op);
      return undefined;
    } catch (e) {
      assert.ok(e instanceof ApiError);
      assert.equal(e.httpStatus, 429);
      assert.equal(e.error, 'APIClientRequestRateLimitExceeded');
      assert.equal(e.message, `The title has exceeded its API request rate for ${op}; retry after the delay.`);
      return e.retryAfterSeconds;
    }
  }

  it('takes N per window of each title and operation; the window restarts exactly when it ends; Retry-After is the rest of it in whole seconds, at least 1', () => {
    const rl = new RateLimiter({ limit: 2, windowMs: 3000 }, clock);
    assert.deepEqual([take(rl), take(rl)], [undefined, undefined]);
    now += 500;
    assert.equal(take(rl), 3, '2.5 s left: 3 whole seconds');
    assert.equal(take(rl, 'u'), undefined, 'another title');
    assert.equal(take(rl, 't', 'Other'), undefined, 'another operation');
    now += 2000;
    assert.equal(take(rl), 1, '0.5 s left: 1');
    now += 499;
    assert.equal(take(rl), 1, '1 ms left: still 1');
    assert.equal(rl.throttled, 3);
    now += 1;
    assert.deepEqual([take(rl), take(rl), take(rl)], [undefined, undefined, 3], 'a new window exactly at its end');
    assert.deepEqual(new RateLimiter({ limit: 1, windowMs: 200 }, clock).config, { limit: 1, windowMs: 200 });
  });

  it('without a limit nothing is throttled; the faults control sets one, null restores the command line\'s, and reset clears windows and the count', () => {
    const none = new RateLimiter(undefined, clock);
    for (let i = 0; i < 100; i++) assert.equal(take(none), undefined);
    assert.equal(none.config, undefined);
    const rl = new RateLimiter({ limit: 1, windowMs: 1000 }, clock);
    assert.deepEqual([take(rl), take(rl)], [undefined, 1]);
    rl.configure('2/10');
    assert.deepEqual(rl.config, { limit: 2, windowMs: 10_000 });
    assert.deepEqual([take(rl), take(rl), take(rl)], [undefined, undefined, 10], 'a new limit starts new windows');
    rl.configure(null);
    assert.deepEqual(rl.config, { limit: 1, windowMs: 1000 });
    assert.deepEqual([take(rl), take(rl)], [undefined, 1]);
    assert.equal(rl.throttled, 3);
    rl.configure('5/1');
    rl.reset();
    assert.deepEqual([rl.config, rl.throttled], [{ limit: 1, windowMs: 1000 }, 0]);
    assert.equal(take(rl), undefined);
    assert.equal(take(rl), 1);
    rl.reset();
    assert.equal(take(rl), undefined, 'reset alone clears the windows');
    assert.throws(() => rl.configure('0/1'), (e: unknown) => e instanceof ApiError && e.httpStatus === 400 && /^rateLimit must be N\/SECONDS/.test(e.errorDetails!.rateLimit[0]));
    assert.deepEqual(rl.config, { limit: 1, windowMs: 1000 }, 'a refused value changes nothing');
    assert.equal(take(rl), 1, 'nor the window');
  });
});
