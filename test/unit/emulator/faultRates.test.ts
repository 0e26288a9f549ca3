// Faults by rate over real HTTP: a probability per rule drawn from a generator seeded by faultSeed
// (the same seed and requests give the same faults), filters by operation and title, latency
// distributions, and the seed and the rule in every request log entry.
/* eslint-disable @typescript-eslint/no-explicit-any -- tests read members of parsed answers freely */
import * as assert from 'node:assert/strict';
import { ARENA, Emu, MAIN } from './harness';

const LOOKUP = 'Server/GetPlatformIDsFromStorefrontNames';

async function statuses(emu: Emu, n: number, titleId = MAIN.titleId): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await emu.call(LOOKUP, { StorefrontNames: ['racer_ana_0'] }, { titleId })).status);
  return out;
}

describe('emulator: faults by rate', () => {
  const started: Emu[] = [];
  const start = async (faultSeed: number) => {
    const e = await Emu.start({ faultSeed });
    started.push(e);
    return e;
  };
  after(async () => { await Promise.all(started.map((e) => e.close())); });
  const RATE = { rules: [{ operation: LOOKUP, kind: '500', probability: 0.3 }, { operation: LOOKUP, kind: '429', probability: 0.2, retryAfterSeconds: 1 }] };

  it('the same seed gives the same fault sequence: set again, or in another run; another seed another one', async () => {
    const a = await start(42);
    assert.equal(a.handle.faultSeed, 42);
    assert.equal((await a.control('faults', RATE)).status, 200);
    const first = await statuses(a, 60);
    const hits = first.filter((s) => s !== 200).length;
    assert.ok(hits > 10 && hits < 45, `about half of 60 hit: ${first.join(',')}`);
    assert.ok(first.includes(500) && first.includes(429), 'both rules hit');
    await a.control('faults', RATE);
    assert.deepEqual(await statuses(a, 60), first, 'the rules set again replay from the seed');
    const b = await start(42);
    await b.control('faults', RATE);
    assert.deepEqual(await statuses(b, 60), first, 'another run with the seed replays');
    const c = await start(43);
    await c.control('faults', RATE);
    assert.notDeepEqual(await statuses(c, 60), first);
    // A seed given with the rules replays a run whose seed was another.
    await c.control('faults', { ...RATE, seed: 42 });
    assert.deepEqual(await statuses(c, 60), first);
  });

  it('every log entry carries the seed; a hit one its rule and kind', async () => {
    const e = await start(7);
    await e.control('requests/clear', {});
    await e.control('faults', RATE);
    const got = await statuses(e, 20);
    const { entries } = (await e.control('requests')).json;
    assert.equal(entries.length, 20);
    entries.forEach((x: any, i: number) => {
      assert.equal(x.faultSeed, 7);
      assert.equal(x.status, got[i]);
      if (got[i] === 200) assert.equal(x.fault, null);
      else assert.deepEqual(x.fault, { kind: String(got[i]), rule: got[i] === 500 ? 0 : 1, faultSeed: 7 });
    });
  });

  it('a title filter hits only that title; probability 0 never, 1 always', async () => {
    const e = await start(1);
    await e.control('faults', { rules: [{ titleId: ARENA.titleId.toLowerCase(), kind: '503', probability: 1 }] });
    assert.deepEqual(await statuses(e, 5), [200, 200, 200, 200, 200]);
    assert.deepEqual(await statuses(e, 5, ARENA.titleId), [503, 503, 503, 503, 503], 'probability with no times: forever');
    await e.control('faults', { rules: [{ kind: '500', probability: 0 }] });
    assert.deepEqual(await statuses(e, 5), [200, 200, 200, 200, 200]);
  });

  it('latency: fixed, uniform and normal; a latency-only rule answers normally and takes at least its time', async () => {
    const e = await start(3);
    await e.control('requests/clear', {});
    await e.control('faults', { rules: [{ operation: LOOKUP, latency: { kind: 'uniform', minMs: 40, maxMs: 60 }, times: 3 }] });
    assert.deepEqual(await statuses(e, 3), [200, 200, 200]);
    for (const x of (await e.control('requests')).json.entries) assert.ok(x.durationMs >= 39, `${x.durationMs} ms`);
    for (const latency of [{ kind: 'fixed', ms: 1 }, { kind: 'normal', meanMs: 2, stdDevMs: 1 }]) {
      assert.equal((await e.control('faults', { rules: [{ latency, times: 1 }] })).status, 200);
      assert.deepEqual(await statuses(e, 1), [200]);
    }
  });

  it('refuses a bad probability, latency or seed naming the member and the fix', async () => {
    const e = await start(5);
    const r = await e.control('faults', {
      seed: -1,
      rules: [{ kind: '500', probability: 1.5 }, { latency: { kind: 'uniform', minMs: 9, maxMs: 1 } }, { operation: LOOKUP }, { kind: '500', probability: '10%' }],
    });
    assert.equal(r.status, 400);
    assert.deepEqual(Object.keys(r.json.errorDetails).sort(), ['rules[0].probability', 'rules[1].latency', 'rules[2]', 'rules[3].probability', 'seed']);
    assert.match(r.json.errorDetails['rules[0].probability'][0], /from 0 to 1 \(0\.01 for 1%\)/);
    assert.equal((await e.control('faults', { rules: [] })).status, 200, 'nothing half-set');
  });
});
