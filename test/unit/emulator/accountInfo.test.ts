// Admin/GetUserAccountInfo over real HTTP: each identifier, title-specific answers, exactly one
// identifier a request, and AccountNotFound 1001 when nothing matches.
import * as assert from 'node:assert/strict';
import { DEMO_PLAYERS, DEMO_UNLINKED } from '../../../src/emulator/seed';
import { ARENA, Emu, MAIN } from './harness';

const OP = 'Admin/GetUserAccountInfo';
const both = DEMO_PLAYERS.find((p) => p.playedTitles.length === 2 && p.storefrontNames.length > 0 && p.consoleLive.length > 0 && !p.banned)!;
const mainOnly = DEMO_PLAYERS.find((p) => p.playedTitles.length === 1 && p.playedTitles[0] === MAIN.titleId && !p.banned)!;

describe('emulator: GetUserAccountInfo', () => {
  let emu: Emu;
  before(async () => { emu = await Emu.start(); });
  after(async () => { await emu.close(); });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const players = async (): Promise<any[]> => (await emu.control('players')).json.players;

  it('finds one account by its PlatformId, e-mail (any case), username or title display name, with the title\'s view of it', async () => {
    const listed = (await players()).find((p) => p.PlatformId === both.platformId);
    assert.ok(listed?.email && listed.username, 'the demo player has an e-mail and a username');
    const byId = await emu.call(OP, { PlatformId: both.platformId });
    assert.equal(byId.status, 200, byId.text);
    const info = byId.json.data.UserInfo;
    assert.equal(info.PlatformId, both.platformId);
    assert.equal(info.Username, listed.username);
    assert.equal(info.PrivateInfo.Email, listed.email);
    assert.equal(info.TitleInfo.DisplayName, both.displayName);
    assert.equal(info.StorefrontInfo.StorefrontName, both.storefrontNames[0]);
    assert.deepEqual(info.ConsoleLiveInfo, { ConsoleLiveUserId: both.consoleLive[0].id, ConsoleLiveUserSandbox: both.consoleLive[0].sandbox });
    for (const body of [{ Email: listed.email.toUpperCase() }, { Username: listed.username }, { TitleDisplayName: both.displayName }]) {
      const r = await emu.call(OP, body);
      assert.equal(r.status, 200, `${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.json.data.UserInfo.PlatformId, both.platformId, JSON.stringify(body));
    }
    // Each title answers with its own title player account.
    const arena = await emu.call(OP, { PlatformId: both.platformId }, { titleId: ARENA.titleId });
    assert.notEqual(arena.json.data.UserInfo.TitleInfo.TitlePlayerAccount.Id, info.TitleInfo.TitlePlayerAccount.Id);
  });

  it('is title-specific: a player is not found through a title of its publisher it never played', async () => {
    const listed = (await players()).find((p) => p.PlatformId === mainOnly.platformId);
    assert.deepEqual(listed.titlesPlayed, [MAIN.titleId]);
    for (const body of [{ PlatformId: mainOnly.platformId }, { Username: listed.username }, { TitleDisplayName: mainOnly.displayName }]) {
      assert.equal((await emu.call(OP, body)).status, 200, JSON.stringify(body));
      const other = await emu.call(OP, body, { titleId: ARENA.titleId });
      assert.equal(other.status, 400, JSON.stringify(body));
      assert.equal(other.json.errorCode, 1001);
      assert.equal(other.json.error, 'AccountNotFound');
    }
  });

  it('answers AccountNotFound 1001 when nothing matches', async () => {
    for (const body of [{ PlatformId: DEMO_UNLINKED.platformId }, { Email: 'nobody@nowhere.example' }, { Username: 'no-such-user' }, { TitleDisplayName: 'Nobody at all' }]) {
      const r = await emu.call(OP, body);
      assert.equal(r.json.errorCode, 1001, JSON.stringify(body));
    }
  });

  it('takes exactly one identifier: none or several is InvalidParams naming the fields', async () => {
    const none = await emu.call(OP, {});
    assert.equal(none.status, 400);
    assert.equal(none.json.errorCode, 1000);
    assert.match(none.json.errorMessage, /exactly one of PlatformId, Email, Username or TitleDisplayName/);
    const several = await emu.call(OP, { PlatformId: both.platformId, Username: 'user0' });
    assert.equal(several.json.errorCode, 1000);
    assert.match(several.json.errorMessage, /PlatformId and Username/);
    const wrongType = await emu.call(OP, { Email: 5 });
    assert.equal(wrongType.json.errorCode, 1000);
    assert.ok(wrongType.json.errorDetails.Email, wrongType.text);
  });
});
