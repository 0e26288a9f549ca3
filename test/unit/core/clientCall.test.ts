// client.read / client.mutate over real HTTP: the emulator on 127.0.0.1 for what the table says
// (request checked before sending, mutations never re-sent, read refusing a mutating row), a
// scripted server for answers the emulator never gives (the row's result check, the behaviours
// the few per-operation methods add). Requests are counted by the server, never waited for.
import * as assert from 'node:assert/strict';
import { PlatformClient, type PlatformClientOptions } from '../../../src/core/api/client';
import { OPERATIONS, type OperationName } from '../../../src/core/api/operations';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../../src/emulator/seed';
import type { EmulatorHandle } from '../../../src/emulator/server';
import { checkedEmulator } from '../helpers/contract';
import { emulatorControl } from '../helpers/controls';
import { rejection } from '../helpers/rejection';
import { sampleRequest, send } from '../helpers/requests';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer';

const TITLE = DEMO_TITLES[0];
const PLAYER = DEMO_PLAYERS.find((p) => p.storefrontNames.length > 0 && !p.banned)!;
const names = Object.keys(OPERATIONS) as OperationName[];

describe('core/PlatformClient read and mutate against the emulator', () => {
  let emu: EmulatorHandle;
  const clients: PlatformClient[] = [];

  function client(o: Partial<PlatformClientOptions> = {}): PlatformClient {
    const c = new PlatformClient({
      titleId: TITLE.titleId, endpoint: emu.endpoint, getSecretKey: async () => TITLE.secretKey, maxRetries: 2, retryBaseDelayMs: 1, timeoutMs: 3000, ...o,
    });
    clients.push(c);
    return c;
  }
  async function sent(): Promise<Record<string, number>> {
    return (await emulatorControl(emu.origin, 'stats')).requests as Record<string, number>;
  }

  before(async () => { emu = await checkedEmulator({ seed: 'demo', deletionDelayMs: 60_000 }); });
  after(async () => { await emu.close(); });
  beforeEach(async () => { await emulatorControl(emu.origin, 'reset', {}); });
  afterEach(async () => { await Promise.all(clients.splice(0).map((c) => c.close())); });

  it('read sends the row\'s request and answers what the service answered, checked', async () => {
    const r = await client().read('GetPlayedTitleList', { PlatformId: PLAYER.platformId });
    // The same request sent by hand: the client passes the answer's data through.
    const res = await fetch(`${emu.origin}/${TITLE.titleId}/Admin/GetPlayedTitleList`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-secretkey': TITLE.secretKey }, body: JSON.stringify({ PlatformId: PLAYER.platformId }),
    });
    const raw = (await res.json()) as { data: { TitleIds: string[] } };
    assert.ok(raw.data.TitleIds.length > 0);
    assert.deepEqual(r, raw.data);
  });

  it('read refuses a mutating row from untyped code, and nothing is sent', async () => {
    for (const n of names.filter((x) => OPERATIONS[x].mutating)) {
      const e = await rejection(client().read(n as never, sampleRequest(n, PLAYER.platformId) as never));
      assert.equal(e.kind, 'validation', n);
      assert.equal(e.message, `${n} is not an operation that only reads: nothing was sent.`);
    }
    assert.deepEqual(await sent(), {});
  });

  it('every mutating row, its answer lost after the service acted: sent once, outcome unknown', async () => {
    for (const n of names.filter((x) => OPERATIONS[x].mutating)) {
      await emulatorControl(emu.origin, 'faults', { rules: [{ operation: OPERATIONS[n].path, kind: 'reset-after', times: 1 }] });
      const e = await rejection(send(client(), n, sampleRequest(n, PLAYER.platformId)));
      assert.equal(e.outcomeUnknown, true, `${n}: ${e.message}`);
      assert.equal(e.retryable, false, n);
      // The client gave up before answering: a re-send would already be counted.
      assert.equal((await sent())[OPERATIONS[n].path], 1, n);
    }
  });

  it('a read hit by the same fault is sent again and succeeds', async () => {
    await emulatorControl(emu.origin, 'faults', { rules: [{ operation: 'Admin/GetPlayedTitleList', kind: 'reset-after', times: 1 }] });
    const r = await client().read('GetPlayedTitleList', { PlatformId: PLAYER.platformId });
    assert.ok((r.TitleIds ?? []).length > 0);
    assert.equal((await sent())['Admin/GetPlayedTitleList'], 2);
  });

  it('checks the request against the row before sending: the member is named, nothing is sent', async () => {
    const c = client();
    const wrongType = await rejection(c.mutate('DeleteMasterPlayerAccount', { PlatformId: PLAYER.platformId, MetaData: 5 } as never));
    assert.equal(wrongType.kind, 'validation');
    assert.equal(wrongType.message, 'DeleteMasterPlayerAccount: MetaData should be a string but is a number; nothing was sent.');
    const missing = await rejection(c.read('GetPlayedTitleList', {} as never));
    assert.equal(missing.message, 'GetPlayedTitleList: PlatformId is missing; nothing was sent.');
    const tooMany = await rejection(c.read('GetPlatformIDsFromStorefrontNames', { StorefrontNames: Array.from({ length: 26 }, (_, i) => `n${i}`) }));
    assert.match(tooMany.message, /StorefrontNames has 26 entries; send at most 25 per request/);
    const notAnId = await rejection(c.read('GetPlayedTitleList', { PlatformId: 'player-one' }));
    assert.match(notAnId.message, /^PlatformId "player-one" is not valid/);
    assert.match(notAnId.hint, /Copy the PlatformId/);
    assert.deepEqual(await sent(), {});
  });

  it('mutate sends a deletion once and answers the row\'s result; a second one is the service\'s refusal, not a re-send', async () => {
    const c = client();
    const job = await c.mutate('DeleteMasterPlayerAccount', { PlatformId: PLAYER.platformId, MetaData: 'ticket 7' });
    assert.match(job.JobReceiptId ?? '', /\S/);
    const again = await rejection(c.mutate('DeleteMasterPlayerAccount', { PlatformId: PLAYER.platformId }));
    assert.equal(again.errorCode, 1000);
    assert.equal(again.outcomeUnknown, false);
    assert.equal((await sent())['Admin/DeleteMasterPlayerAccount'], 2);
  });
});

describe('core/PlatformClient: the row\'s result check and what the methods add (scripted server)', () => {
  let server: ScriptedServer;
  let c: PlatformClient;
  const token = (data: unknown): void => server.queue('Authentication/GetEntityToken', ok(data));

  beforeEach(async () => {
    server = await startScriptedServer();
    c = new PlatformClient({ titleId: 'F71AC', endpoint: server.endpoint, getSecretKey: async () => 'SECRETKEY0123456789ABCDEF', maxRetries: 2, retryBaseDelayMs: 1 });
  });
  afterEach(async () => {
    await c.close();
    await server.close();
  });

  it('an answer that breaks the row\'s result schema is malformed, naming the member; a read is not retried for it', async () => {
    server.queue('Admin/GetPlayedTitleList', ok({ TitleIds: 'F71AC' }));
    const e = await rejection(c.read('GetPlayedTitleList', { PlatformId: '9437A5ADDAE3012D' }));
    assert.equal(e.kind, 'malformed');
    assert.match(e.message, /^GetPlayedTitleList: the service's answer has an unexpected shape: data\.TitleIds should be an array but is a string\.$/);
    assert.equal(server.requests.length, 1);
  });

  it('a deletion whose 2xx answer breaks the schema is outcome unknown, sent once', async () => {
    server.queue('Admin/DeleteMasterPlayerAccount', ok({ JobReceiptId: 7 }));
    const e = await rejection(c.mutate('DeleteMasterPlayerAccount', { PlatformId: '9437A5ADDAE3012D' }));
    assert.equal(e.outcomeUnknown, true);
    assert.equal(server.requests.length, 1);
  });

  it('getPlayedTitleList and deleteMasterPlayerAccount answer TitleIds as a list when the service sends none', async () => {
    server.queue('Admin/GetPlayedTitleList', ok({}));
    server.queue('Admin/DeleteMasterPlayerAccount', ok({ JobReceiptId: 'job-1' }));
    assert.deepEqual(await c.getPlayedTitleList('9437A5ADDAE3012D'), { TitleIds: [] });
    assert.deepEqual(await c.deleteMasterPlayerAccount({ PlatformId: '9437A5ADDAE3012D' }), { JobReceiptId: 'job-1', TitleIds: [] });
  });

  it('getHandheldStore never passes on a ClientSecret; read() of the same row does (it adds nothing)', async () => {
    token({ EntityToken: 'tok-1', TokenExpiration: '2099-01-01T00:00:00Z' });
    const answer = { Created: true, ApplicationID: 'app', Environments: [{ ClientID: 'c', ClientSecret: 'S3CRET', ID: 'e' }], SubscriptionEnvironments: [{ ClientSecret: 'S2' }] };
    server.queue('Addon/GetHandheldStore', ok(answer));
    server.queue('Addon/GetHandheldStore', ok(answer));
    assert.deepEqual(await c.getHandheldStore(), { Created: true, ApplicationID: 'app', Environments: [{ ClientID: 'c', ID: 'e' }], SubscriptionEnvironments: [{}] });
    assert.deepEqual(await c.read('GetHandheldStore', {}), answer);
  });

  it('a token answer without a token, or with an expiry that is no date, is refused before any add-on call', async () => {
    token({ TokenExpiration: '2099-01-01T00:00:00Z' });
    const none = await rejection(c.getHandheldStore());
    assert.equal(none.kind, 'malformed');
    assert.equal(none.message, 'GetEntityToken: the service returned no token (its answer has no EntityToken).');
    token({ EntityToken: 'tok-2', TokenExpiration: 'never' });
    const notADate = await rejection(c.getEntityToken());
    assert.match(notADate.message, /unexpected shape: data\.TokenExpiration is not a date/);
    assert.deepEqual(server.requests.map((r) => r.route), ['Authentication/GetEntityToken', 'Authentication/GetEntityToken']);
  });

  it('lookup entries are matched back to the inputs, a null entry or PlatformId read as unlinked', async () => {
    server.queue('Server/GetPlatformIDsFromStorefrontNames', ok({ Data: [null, { StorefrontName: 'b', PlatformId: '9437A5ADDAE3012D' }, { StorefrontName: 'a', PlatformId: null }] }));
    assert.deepEqual(await c.getPlatformIdsFromStorefrontNames(['a', 'b', 'c']), [
      { StorefrontName: 'a', PlatformId: null }, { StorefrontName: 'b', PlatformId: '9437A5ADDAE3012D' }, { StorefrontName: 'c', PlatformId: null },
    ]);
  });
});
