// Bulk lookups at high concurrency against the emulator's bench seed: every answer lands in
// place, one request per 25 distinct identifiers, and no listener-leak warning from Node.
import * as assert from 'node:assert/strict';
import { PlatformClient } from '../../../src/core/api/client';
import { BENCH_PLAYER_COUNT, benchStorefrontName } from '../../../src/emulator/seed';
import type { EmulatorHandle } from '../../../src/emulator/server';
import { checkedEmulator } from '../helpers/contract';
import { controlHeaders } from '../../../src/core/controlToken';

describe('core/PlatformClient bulk lookups at scale', () => {
  let emu: EmulatorHandle;
  let client: PlatformClient;
  const warnings: Error[] = [];
  const onWarning = (w: Error): void => { warnings.push(w); };

  before(async () => {
    emu = await checkedEmulator({ seed: 'bench' });
    const title = emu.titles[0];
    client = new PlatformClient({ titleId: title.titleId, endpoint: emu.endpoint, getSecretKey: async () => title.secretKey });
    process.on('warning', onWarning);
  });
  after(async () => {
    process.off('warning', onWarning);
    await client.close();
    await emu.close();
  });

  it('resolves 2,000 names (with duplicates) at concurrency 32 in ceil(unique/25) requests, without warnings', async () => {
    const names = Array.from({ length: 2000 }, (_, i) => benchStorefrontName(i % 1600));
    const stats0 = await (await fetch(`${emu.origin}/_emulator/stats`, { headers: controlHeaders(emu.origin) })).json() as { total: number };
    const result = await client.getPlatformIdsFromStorefrontNames(names, { concurrency: 32 });
    const stats1 = await (await fetch(`${emu.origin}/_emulator/stats`, { headers: controlHeaders(emu.origin) })).json() as { total: number };
    await new Promise((r) => setImmediate(r));
    assert.equal(stats1.total - stats0.total, Math.ceil(1600 / 25));
    assert.equal(result.length, names.length);
    result.forEach((e, i) => {
      assert.equal(e.StorefrontName, names[i]);
      const linked = (i % 1600) % 2 === 0 && i % 1600 < 2 * BENCH_PLAYER_COUNT;
      assert.equal(e.PlatformId !== null, linked, `${e.StorefrontName} linked`);
    });
    assert.deepEqual(warnings.map((w) => `${w.name}: ${w.message}`), []);
  });
});
