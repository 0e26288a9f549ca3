// ExportMasterPlayerData and DeleteMasterPlayerEventData over real HTTP.
import * as assert from 'node:assert/strict';
import { DEMO_PLAYERS, DEMO_UNLINKED } from '../../../src/emulator/seed';
import { ARENA, Emu, MAIN } from './harness';

const ana = DEMO_PLAYERS.find((p) => p.playedTitles.length === 2 && p.storefrontNames.length > 0 && p.consoleLive.length > 0 && !p.banned)!;

describe('emulator: data-subject operations', () => {
  let emu: Emu;
  before(async () => { emu = await Emu.start(); });
  after(async () => { await emu.close(); });
  beforeEach(async () => { await emu.control('reset', {}); });

  it('ExportMasterPlayerData answers a JobReceiptId at once; a title without a notification address answers EmailAddressNotAvailable 1006', async () => {
    const r = await emu.call('Admin/ExportMasterPlayerData', { PlatformId: ana.platformId });
    assert.equal(r.status, 200, r.text);
    assert.match(r.json.data.JobReceiptId, /^[0-9A-F]{32}$/);
    const none = await emu.call('Admin/ExportMasterPlayerData', { PlatformId: ana.platformId }, { titleId: ARENA.titleId });
    assert.equal(none.status, 400);
    assert.equal(none.json.error, 'EmailAddressNotAvailable');
    assert.equal(none.json.errorCode, 1006);
    assert.match(none.json.errorMessage, /notification e-mail address/);
    const unknown = await emu.call('Admin/ExportMasterPlayerData', { PlatformId: DEMO_UNLINKED.platformId });
    assert.equal(unknown.json.errorCode, 1001);
  });

  it('DeleteMasterPlayerEventData answers empty and keeps the account', async () => {
    const r = await emu.call('Admin/DeleteMasterPlayerEventData', { PlatformId: ana.platformId });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.data, {});
    const still = await emu.call('Admin/GetPlayedTitleList', { PlatformId: ana.platformId });
    assert.deepEqual([...still.json.data.TitleIds].sort(), [...ana.playedTitles].sort());
    assert.equal((await emu.call('Admin/DeleteMasterPlayerEventData', { PlatformId: DEMO_UNLINKED.platformId }, { titleId: MAIN.titleId })).json.errorCode, 1001);
  });
});
