// Bulk lookups report what each request resolved (onResolved), so that a caller keeps it when
// the lookup is cancelled part-way: against the real emulator over HTTP.
import * as assert from 'node:assert/strict';
import { PlatformClient } from '../../../src/core/api/client';
import { PlatformError } from '../../../src/core/api/errors';
import { DEMO_PLAYERS, DEMO_TITLES, DEMO_UNLINKED } from '../../../src/emulator/seed';
import type { EmulatorHandle } from '../../../src/emulator/server';
import { checkedEmulator } from '../helpers/contract';
import { emulatorControl } from '../helpers/controls';

const TITLE = DEMO_TITLES[0];
const linked = DEMO_PLAYERS.flatMap((p) => p.storefrontNames.map((name) => ({ name, platformId: p.platformId })));

describe('core/bulk lookups report each request\'s answers (onResolved)', () => {
  let emu: EmulatorHandle;
  let client: PlatformClient;

  before(async () => {
    emu = await checkedEmulator({ seed: 'demo' });
    client = new PlatformClient({ titleId: TITLE.titleId, endpoint: emu.endpoint, getSecretKey: async () => TITLE.secretKey, retryBaseDelayMs: 1 });
  });
  after(async () => {
    await client.close();
    await emu.close();
  });
  beforeEach(async () => {
    await emulatorControl(emu.origin, 'reset', {});
  });

  // 60 distinct names, 3 requests of 25, 25 and 10; the first request holds every linked name.
  const names = [...linked.map((l) => l.name), ...Array.from({ length: 60 - linked.length }, (_, i) => `${DEMO_UNLINKED.storefrontNames[0]}_${i}`)];
  const expected = new Map(linked.map((l) => [l.name, l.platformId]));

  it('reports every identifier once, with the PlatformId the result holds', async () => {
    const reported: [string, string | null][] = [];
    const sizes: number[] = [];
    const result = await client.getPlatformIdsFromStorefrontNames([...names, names[0]], {
      concurrency: 2,
      onResolved: (m) => {
        sizes.push(m.size);
        reported.push(...m);
      },
    });
    assert.deepEqual([...sizes].sort((a, b) => a - b), [10, 25, 25]);
    assert.equal(new Set(reported.map(([n]) => n)).size, 60, 'each distinct name reported once');
    const fromResult = new Map(result.map((r) => [r.StorefrontName, r.PlatformId]));
    for (const [name, platformId] of reported) {
      assert.equal(platformId, fromResult.get(name), name);
      assert.equal(platformId, expected.get(name) ?? null, name);
    }
  });

  it('a lookup cancelled after its first answer has reported that answer, and nothing else is sent', async () => {
    await emulatorControl(emu.origin, 'faults', { latencyMs: 100 });
    const abort = new AbortController();
    const reported = new Map<string, string | null>();
    const e = await client.getPlatformIdsFromStorefrontNames(names, {
      concurrency: 1,
      signal: abort.signal,
      onResolved: (m) => {
        m.forEach((v, k) => reported.set(k, v));
        abort.abort();
      },
    }).then(() => assert.fail('the lookup was not cancelled'), (err: unknown) => err);
    await emulatorControl(emu.origin, 'faults/clear', {});
    assert.ok(e instanceof PlatformError && e.kind === 'cancelled', String(e));
    assert.deepEqual([...reported.keys()], names.slice(0, 25), 'the first request\'s names, kept');
    for (const [name, platformId] of reported) assert.equal(platformId, expected.get(name) ?? null, name);
    const stats = await emulatorControl(emu.origin, 'stats') as { requests: Record<string, number> };
    assert.equal(stats.requests['Server/GetPlatformIDsFromStorefrontNames'], 1);
  });
});
