// Error hints fit the operation that failed: a repeated deletion is "already queued, wait", a
// deletion or played-titles call for a deleted player is "no such player", never the login's
// "create an account" or InvalidParams' "correct the fields".
import * as assert from 'node:assert/strict';
import { PlatformClient } from '../../../src/core/api/client';
import { PlatformError } from '../../../src/core/api/errors';
import type { EmulatorHandle } from '../../../src/emulator/server';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../../src/emulator/seed';
import { checkedEmulator } from '../helpers/contract';
import { emulatorControl } from '../helpers/controls';

const TITLE = DEMO_TITLES[0];

describe('core: error hints fit the operation', () => {
  let emu: EmulatorHandle;
  let client: PlatformClient;
  before(async () => {
    emu = await checkedEmulator({ seed: 'demo', deletionDelayMs: 60_000 });
    client = new PlatformClient({ titleId: TITLE.titleId, endpoint: emu.endpoint, getSecretKey: async () => TITLE.secretKey, maxRetries: 0 });
  });
  after(async () => {
    await client.close();
    await emu.close();
  });

  async function failure(p: Promise<unknown>): Promise<PlatformError> {
    const e = await p.then(() => undefined, (x: unknown) => x);
    assert.ok(e instanceof PlatformError, String(e));
    return e;
  }

  it('a second deletion while one is queued says so and says to wait', async () => {
    const player = DEMO_PLAYERS.find((p) => p.playedTitles.includes(TITLE.titleId) && !p.banned)!;
    await client.deleteMasterPlayerAccount({ PlatformId: player.platformId });
    const e = await failure(client.deleteMasterPlayerAccount({ PlatformId: player.platformId }));
    assert.equal(e.errorCode, 1000);
    assert.match(e.message, /already queued/);
    assert.doesNotMatch(e.hint, /Check the fields/);
    assert.match(e.hint, /Nothing to do/);

    await emulatorControl(emu.origin, 'clock/advance', { ms: 61_000 });
    for (const call of [client.deleteMasterPlayerAccount({ PlatformId: player.platformId }), client.getPlayedTitleList(player.platformId)]) {
      const gone = await failure(call);
      assert.equal(gone.errorCode, 1001);
      assert.match(gone.message, /may already have been deleted/);
      assert.doesNotMatch(gone.hint, /create account/i, 'the login\'s advice does not fit a deleted player');
    }
  });

  it('a login for an unknown identity keeps the login\'s advice', async () => {
    const { IdentityToken } = (await emulatorControl(emu.origin, 'launcher-token', { titleId: TITLE.titleId, subject: 'launcher-user-nobody-here' })) as { IdentityToken: string };
    const e = await failure(client.loginWithLauncher({ IdentityToken }));
    assert.equal(e.errorCode, 1001);
    assert.match(e.hint, /create account/i);
  });
});
