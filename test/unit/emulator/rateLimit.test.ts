// --rate-limit: a fixed window per title and per operation; 429 with Retry-After, retryAfterSeconds and 1199.
import * as assert from 'node:assert/strict';
import { parseRateLimit } from '../../../src/emulator/rateLimit';
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
