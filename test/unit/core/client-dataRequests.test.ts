// PlatformClient's data-subject methods against the real emulator: getUserAccountInfo (exactly one
// identifier, refused before sending otherwise), exportMasterPlayerData (1006 with the fix) and
// deleteMasterPlayerEventData (empty answer, never re-sent after an ambiguous failure).
import * as assert from 'node:assert/strict';
import { PlatformClient, type RequestLogEntry } from '../../../src/core/api/client';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../../src/emulator/seed';
import type { EmulatorHandle } from '../../../src/emulator/server';
import { checkedEmulator } from '../helpers/contract';
import { emulatorControl } from '../helpers/controls';
import { rejection } from '../helpers/rejection';

const [RACER, ARENA] = DEMO_TITLES;
const ana = DEMO_PLAYERS.find((p) => p.playedTitles.length === 2 && p.storefrontNames.length > 0 && p.consoleLive.length > 0 && !p.banned)!;

describe('core/PlatformClient: data-subject operations against the emulator', () => {
  let emu: EmulatorHandle;
  let log: RequestLogEntry[];
  const clients: PlatformClient[] = [];
  const client = (title = RACER): PlatformClient => {
    const c = new PlatformClient({
      titleId: title.titleId, endpoint: emu.endpoint, getSecretKey: () => Promise.resolve(title.secretKey),
      retryBaseDelayMs: 1, timeoutMs: 3000, onRequest: (e) => log.push(e),
    });
    clients.push(c);
    return c;
  };

  before(async () => { emu = await checkedEmulator({ seed: 'demo', deletionDelayMs: 60_000 }); });
  after(async () => { await emu.close(); });
  beforeEach(async () => {
    log = [];
    await emulatorControl(emu.origin, 'reset', {});
  });
  afterEach(async () => { await Promise.all(clients.splice(0).map((c) => c.close())); });

  it('getUserAccountInfo finds the account by each identifier', async () => {
    const { players } = await emulatorControl(emu.origin, 'players');
    const listed = players.find((p: { PlatformId: string }) => p.PlatformId === ana.platformId);
    for (const q of [{ PlatformId: ana.platformId }, { Email: listed.email }, { Username: listed.username }, { TitleDisplayName: ana.displayName! }]) {
      const r = await client().getUserAccountInfo(q);
      assert.equal(r.UserInfo?.PlatformId, ana.platformId, JSON.stringify(q));
    }
  });

  it('getUserAccountInfo refuses none or several identifiers, naming the fields, and sends nothing', async () => {
    const none = await rejection(client().getUserAccountInfo({}));
    assert.equal(none.kind, 'validation');
    assert.match(none.message, /exactly one of PlatformId, Email, Username or TitleDisplayName/);
    const several = await rejection(client().getUserAccountInfo({ Email: 'a@b.example', Username: 'ana' }));
    assert.match(several.message, /Email and Username/);
    assert.match(several.hint, /one identifier at a time/);
    const empty = await rejection(client().getUserAccountInfo({ Username: '  ' }));
    assert.match(empty.message, /Username is empty/);
    const badId = await rejection(client().getUserAccountInfo({ PlatformId: 'not-hex' }));
    assert.match(badId.message, /PlatformId "not-hex" is not valid/);
    assert.equal(log.length, 0, 'nothing was sent');
  });

  it('getUserAccountInfo: no match is AccountNotFound with a title-specific hint', async () => {
    const e = await rejection(client().getUserAccountInfo({ Email: 'nobody@nowhere.example' }));
    assert.equal(e.errorCode, 1001);
    assert.match(e.hint, /title-specific/);
  });

  it('exportMasterPlayerData returns the JobReceiptId; without a notification address the error says to configure one', async () => {
    const r = await client().exportMasterPlayerData(ana.platformId);
    assert.match(r.JobReceiptId ?? '', /^[0-9A-F]{32}$/);
    const e = await rejection(client(ARENA).exportMasterPlayerData(ana.platformId));
    assert.equal(e.errorCode, 1006);
    assert.equal(e.retryable, false);
    assert.match(e.message, /notification e-mail address/);
    assert.match(e.hint, /Configure the title's notification address/);
    assert.equal(log.filter((x) => x.operation === 'ExportMasterPlayerData').length, 2, 'each sent once');
  });

  it('deleteMasterPlayerEventData resolves empty; after an ambiguous failure it is not sent again', async () => {
    assert.equal(await client().deleteMasterPlayerEventData(ana.platformId), undefined);
    await emulatorControl(emu.origin, 'faults', { rules: [{ operation: 'Admin/DeleteMasterPlayerEventData', kind: 'reset-after' }] });
    const e = await rejection(client().deleteMasterPlayerEventData(ana.platformId));
    assert.equal(e.outcomeUnknown, true);
    assert.equal(log.filter((x) => x.operation === 'DeleteMasterPlayerEventData').length, 2, 'once each: the mutation is never re-sent');
    const refused = await rejection(client().exportMasterPlayerData('xyz'));
    assert.equal(refused.kind, 'validation');
  });
});
