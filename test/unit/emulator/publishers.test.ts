// A title sees the players of its own publisher only: a PlatformId of another publisher's player
// is AccountNotFound for GetPlayedTitleList and DeleteMasterPlayerAccount, as on the service.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedSource } from '../../../src/emulator/seed';
import { Emu } from './harness';

const KEY_A = 'PUBLISHERAKEY0123456789ABCDEFGH';
const KEY_B = 'PUBLISHERBKEY0123456789ABCDEFGH';
const MINE = '1111111111111111';
const THEIRS = '2222222222222222';

describe('emulator: players belong to a publisher', () => {
  let dir: string;
  let emu: Emu;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'emu-publishers-'));
    const file = join(dir, 'seed.json');
    writeFileSync(file, JSON.stringify({
      publisherId: 'AAA1',
      titles: [{ titleId: 'A0001', name: 'Ours', secretKey: KEY_A }, { titleId: 'B0002', name: 'Theirs', publisherId: 'BBB2', secretKey: KEY_B }],
      players: [
        { platformId: MINE, titles: { A0001: {} } },
        // Another publisher's player who also has a record for our title ID: still not ours.
        { platformId: THEIRS, publisherId: 'BBB2', titles: { B0002: {}, A0001: {} } },
      ],
    }));
    emu = await Emu.start({ seed: seedSource(file), fixedKeys: false });
  });
  after(async () => {
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const asA = (op: string, PlatformId: string) => emu.call(op, { PlatformId }, { titleId: 'A0001', headers: { 'X-SecretKey': KEY_A } });

  it('GetPlayedTitleList and DeleteMasterPlayerAccount answer AccountNotFound for another publisher\'s player, and delete nothing', async () => {
    const played = await asA('Admin/GetPlayedTitleList', THEIRS);
    assert.equal(played.status, 400, played.text);
    assert.equal(played.json.error, 'AccountNotFound');
    const del = await asA('Admin/DeleteMasterPlayerAccount', THEIRS);
    assert.equal(del.json.error, 'AccountNotFound', del.text);
    // Their own title still sees them, with both records.
    const theirs = await emu.call('Admin/GetPlayedTitleList', { PlatformId: THEIRS }, { titleId: 'B0002', headers: { 'X-SecretKey': KEY_B } });
    assert.equal(theirs.status, 200, theirs.text);
    assert.deepEqual(theirs.json.data.TitleIds, ['B0002']);
  });

  it('our own player is found', async () => {
    const played = await asA('Admin/GetPlayedTitleList', MINE);
    assert.equal(played.status, 200, played.text);
    assert.deepEqual(played.json.data.TitleIds, ['A0001']);
  });
});
