import * as assert from 'node:assert/strict';
import { BENCH_PLAYER_COUNT, benchConsoleLiveId, benchStorefrontName } from '../../../src/emulator/seed';
import { Emu } from './harness';

describe('emulator: bench seed', () => {
  let emu: Emu;
  before(async () => { emu = await Emu.start({ seed: 'bench' }); });
  after(async () => { await emu.close(); });

  it('links every even benchmark identifier and no odd one', async () => {
    const last = 2 * BENCH_PLAYER_COUNT - 1;
    const idx = [0, 1, 2, 3, last - 1, last, last + 1];
    const names = await emu.call('Server/GetPlatformIDsFromStorefrontNames', { StorefrontNames: idx.map(benchStorefrontName) });
    assert.equal(names.status, 200, names.text);
    const live = await emu.call('Server/GetPlatformIDsFromConsoleLiveIDs', { ConsoleLiveAccountIDs: idx.map(benchConsoleLiveId), Sandbox: 'RETAIL' });
    assert.equal(live.status, 200, live.text);
    for (const data of [names.json.data.Data, live.json.data.Data] as { PlatformId: string | null }[][]) {
      const linked = data.map((e) => e.PlatformId !== null);
      assert.deepEqual(linked, [true, false, true, false, true, false, false]);
      assert.match(data[0].PlatformId!, /^[0-9A-F]{16}$/);
    }
    // The same player behind both of its identifiers.
    assert.equal(names.json.data.Data[4].PlatformId, live.json.data.Data[4].PlatformId);
  });

  it('the seed control accepts bench and reports it', async () => {
    const r = await emu.control('seed', { seed: 'bench' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.seed, 'bench');
  });
});
