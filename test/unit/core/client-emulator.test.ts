// Every PlatformClient method against the real emulator: success and the main error paths.
import * as assert from 'node:assert/strict';
import { parseEnvelope } from '../../../src/core/api/envelope';
import { checkResult } from '../../../src/core/api/exchange';
import { PlatformClient, type PlatformClientOptions, type RequestLogEntry } from '../../../src/core/api/client';
import { PlatformError } from '../../../src/core/api/errors';
import { rejection } from '../helpers/rejection';
import { DEMO_PLAYERS, DEMO_TITLES, DEMO_UNLINKED } from '../../../src/emulator/seed';
import type { EmulatorHandle } from '../../../src/emulator/server';
import { checkedEmulator } from '../helpers/contract';
import { emulatorControl } from '../helpers/controls';

const TITLE = DEMO_TITLES[0];
const OTHER = DEMO_TITLES[1];

describe('core/PlatformClient against the emulator', () => {
  let emu: EmulatorHandle;
  const clients: PlatformClient[] = [];
  let log: RequestLogEntry[];

  function control(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
    return emulatorControl(emu.origin, path, method === 'POST' ? body ?? {} : undefined);
  }

  async function requests(op: string): Promise<number> {
    const stats = (await control('GET', 'stats')) as { requests: Record<string, number> };
    return stats.requests[op] ?? 0;
  }

  async function launcherToken(subject: string, extra: Record<string, unknown> = {}): Promise<string> {
    return (await control('POST', 'launcher-token', { titleId: TITLE.titleId, subject, ...extra })).IdentityToken as string;
  }

  function client(o: Partial<PlatformClientOptions> = {}): PlatformClient {
    const c = new PlatformClient({
      titleId: TITLE.titleId, endpoint: emu.endpoint, getSecretKey: () => Promise.resolve(TITLE.secretKey),
      retryBaseDelayMs: 1, timeoutMs: 3000, onRequest: (e) => log.push(e), ...o,
    });
    clients.push(c);
    return c;
  }

  before(async () => {
    emu = await checkedEmulator({ seed: 'demo', deletionDelayMs: 60_000 });
  });
  after(async () => {
    await emu.close();
  });
  beforeEach(async () => {
    log = [];
    await control('POST', 'reset');
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  it('serves the demo titles with the seed keys', () => {
    assert.deepEqual(emu.titles.map((t) => t.titleId).sort(), DEMO_TITLES.map((t) => t.titleId).sort());
  });

  describe('secret-key operations', () => {
    it('getPlayedTitleList returns the titles a player played', async () => {
      const p = DEMO_PLAYERS.find((x) => x.playedTitles.length === 2)!;
      const r = await client().getPlayedTitleList(p.platformId);
      assert.deepEqual([...r.TitleIds].sort(), [...p.playedTitles].sort());
    });

    it('a wrong secret key is a 401/403 service error with a hint to fix the key, and is not retried', async () => {
      for (const key of ['WRONGKEY0123456789ABCDEFGHIJKLMNOPQRSTUV', OTHER.secretKey]) {
        const e = await rejection(client({ getSecretKey: () => Promise.resolve(key) }).getPlayedTitleList(DEMO_PLAYERS[0].platformId));
        assert.ok(e.httpStatus === 401 || e.httpStatus === 403, String(e.httpStatus));
        assert.equal(e.kind, 'service');
        assert.equal(e.retryable, false);
        assert.match(e.hint, /secret key/);
        assert.ok(!e.message.includes(key), 'key in message');
      }
      assert.equal(await requests('Admin/GetPlayedTitleList'), 2);
    });

    it('ConsoleLive lookups map linked and unlinked IDs per sandbox, in input order with duplicates', async () => {
      const retail = DEMO_PLAYERS.filter((p) => p.consoleLive.some((c) => c.sandbox === 'RETAIL')).slice(0, 3);
      const ids = retail.map((p) => p.consoleLive.find((c) => c.sandbox === 'RETAIL')!.id);
      const input = [ids[0], DEMO_UNLINKED.consoleLiveIds[0], ids[1], ids[0], ids[2], DEMO_UNLINKED.consoleLiveIds[1]];
      const r = await client().getPlatformIdsFromConsoleLiveIds(input);
      assert.deepEqual(r, [
        { ConsoleLiveAccountId: ids[0], PlatformId: retail[0].platformId },
        { ConsoleLiveAccountId: DEMO_UNLINKED.consoleLiveIds[0], PlatformId: null },
        { ConsoleLiveAccountId: ids[1], PlatformId: retail[1].platformId },
        { ConsoleLiveAccountId: ids[0], PlatformId: retail[0].platformId },
        { ConsoleLiveAccountId: ids[2], PlatformId: retail[2].platformId },
        { ConsoleLiveAccountId: DEMO_UNLINKED.consoleLiveIds[1], PlatformId: null },
      ]);
      const dev = DEMO_PLAYERS.find((p) => p.consoleLive.some((c) => c.sandbox === 'XDKS.1'))!;
      const devId = dev.consoleLive.find((c) => c.sandbox === 'XDKS.1')!.id;
      assert.equal((await client().getPlatformIdsFromConsoleLiveIds([devId], 'XDKS.1'))[0].PlatformId, dev.platformId);
      assert.equal((await client().getPlatformIdsFromConsoleLiveIds([devId]))[0].PlatformId, null, 'not linked in RETAIL');
    });

    it('Storefront lookups over many names are chunked by 25 and come back in order', async () => {
      const linked = DEMO_PLAYERS.filter((p) => p.storefrontNames.length > 0);
      const names: string[] = [];
      for (let i = 0; i < 60; i++) {
        names.push(i % 4 === 3 ? `${DEMO_UNLINKED.storefrontNames[i % 2]}_${i}` : linked[i % linked.length].storefrontNames[0]);
      }
      const progress: number[] = [];
      const r = await client().getPlatformIdsFromStorefrontNames(names, { onProgress: (d) => progress.push(d) });
      assert.deepEqual(r.map((x) => x.StorefrontName), names);
      r.forEach((x, i) => {
        assert.equal(x.PlatformId, i % 4 === 3 ? null : linked[i % linked.length].platformId, x.StorefrontName);
      });
      const distinct = new Set(names).size;
      assert.equal(await requests('Server/GetPlatformIDsFromStorefrontNames'), Math.ceil(distinct / 25));
      assert.equal(progress[progress.length - 1], distinct);
    });

    it('retries a lookup after injected 503, reset and garbage faults', async () => {
      await control('POST', 'faults', { rules: [
        { operation: 'Server/GetPlatformIDsFromStorefrontNames', kind: '503' },
        { operation: 'Server/GetPlatformIDsFromStorefrontNames', kind: 'reset-before' },
        { operation: 'Server/GetPlatformIDsFromStorefrontNames', kind: 'garbage' },
      ] });
      const name = DEMO_PLAYERS.find((p) => p.storefrontNames.length > 0)!;
      const r = await client().getPlatformIdsFromStorefrontNames([name.storefrontNames[0]]);
      assert.equal(r[0].PlatformId, name.platformId);
      assert.equal(log.filter((e) => e.operation === 'GetPlatformIDsFromStorefrontNames').length, 4);
      assert.deepEqual(log.map((e) => e.ok), [false, false, false, true]);
    });

    it('a service that never answers: each retry is announced as "attempt N of M", and the final error says how long it waited over how many attempts', async () => {
      await control('POST', 'faults', { rules: [{ operation: 'Admin/GetPlayedTitleList', kind: 'timeout', times: -1 }] });
      const notices: string[] = [];
      const ends = new Set<Promise<void>>();
      let ended = false;
      const c = client({ timeoutMs: 300, maxRetries: 2, onRetry: (n) => {
        notices.push(`${n.operation} attempt ${n.attempt} of ${n.of}: ${n.reason}`);
        ends.add(n.settled);
        void n.settled.then(() => { ended = true; });
      } });
      const e = await rejection(c.getPlayedTitleList(DEMO_PLAYERS[0].platformId));
      // One end per call, settled once the call failed (a retry notice closes with it).
      assert.equal(ends.size, 1);
      await [...ends][0];
      assert.equal(ended, true);
      assert.ok(e instanceof PlatformError);
      assert.deepEqual(notices, [2, 3].map((n) => `GetPlayedTitleList attempt ${n} of 3: GetPlayedTitleList: the service did not answer within 0.3 s.`));
      assert.equal(e.attempts, 3);
      assert.ok(e.elapsedMs !== undefined && e.elapsedMs >= 900, `elapsed ${e.elapsedMs} ms`);
      assert.match(e.message, /^GetPlayedTitleList: the service did not answer within 0\.3 s\. Waited \d+\.\d s in all over 3 attempts\.$/);
      assert.equal(await requests('Admin/GetPlayedTitleList'), 3);
    });

    it('a call answered at once reports no attempts and no retry', async () => {
      const notices: unknown[] = [];
      await client({ onRetry: (n) => notices.push(n) }).getPlayedTitleList(DEMO_PLAYERS[0].platformId);
      assert.deepEqual(notices, []);
    });

    it('waits out an injected 429 and then succeeds', async () => {
      await control('POST', 'faults', { rules: [{ operation: 'Admin/GetPlayedTitleList', kind: '429', retryAfterSeconds: 0 }] });
      await client().getPlayedTitleList(DEMO_PLAYERS[0].platformId);
      assert.deepEqual(log.map((e) => [e.httpStatus, e.ok]), [[429, false], [200, true]]);
    });
  });

  describe('launcher login and the deletion lifecycle', () => {
    const player = DEMO_PLAYERS.find((p) => p.launcherSubject !== undefined && p.storefrontNames.length > 0
      && p.consoleLive.some((c) => c.sandbox === 'RETAIL'))!;

    it('loginWithLauncher with a minted token returns the player, a player token and the asked-for info', async () => {
      const identity = await launcherToken(player.launcherSubject!);
      const r = await client().loginWithLauncher({ IdentityToken: identity, LoginTitlePlayerAccountEntity: true, InfoRequestParameters: { GetUserVirtualCurrency: true, GetUserAccountInfo: true } });
      assert.equal(r.PlatformId, player.platformId);
      assert.equal(r.EntityToken?.Entity?.Type, 'title_player_account');
      assert.equal(typeof r.SessionTicket, 'string');
      assert.equal(typeof r.InfoResultPayload?.UserVirtualCurrency, 'object');
      assert.equal(r.InfoResultPayload?.AccountInfo?.PlatformId, player.platformId);
    });

    it('login failures carry the spec codes: bad signature, not enabled, unknown account', async () => {
      const c = client();
      const bad = await rejection(c.loginWithLauncher({ IdentityToken: await launcherToken(player.launcherSubject!, { wrongKey: true }) }));
      assert.equal(bad.errorCode, 1273);
      assert.ok(!bad.message.includes('eyJ'), 'no token in the message');
      const unknown = await rejection(c.loginWithLauncher({ IdentityToken: await launcherToken(DEMO_UNLINKED.launcherSubject) }));
      assert.equal(unknown.errorCode, 1001);
      await control('POST', `titles/${TITLE.titleId}/launcher`, { enabled: false });
      const off = await rejection(c.loginWithLauncher({ IdentityToken: await launcherToken(player.launcherSubject!) }));
      assert.equal(off.errorCode, 1602);
      assert.match(off.hint, /Enable/);
    });

    it('deleteMasterPlayerAccount queues once; re-login with CreateAccount is AccountDeleted; after completion lookups are null', async () => {
      const c = client();
      const played = await c.getPlayedTitleList(player.platformId);
      const r = await c.deleteMasterPlayerAccount({ PlatformId: player.platformId });
      assert.equal(typeof r.JobReceiptId, 'string');
      assert.deepEqual([...r.TitleIds].sort(), [...played.TitleIds].sort());
      const again = await rejection(c.deleteMasterPlayerAccount({ PlatformId: player.platformId }));
      assert.equal(again.kind, 'service');
      assert.equal(again.outcomeUnknown, false);
      assert.equal(await requests('Admin/DeleteMasterPlayerAccount'), 2);
      const relogin = await rejection(c.loginWithLauncher({ IdentityToken: await launcherToken(player.launcherSubject!), CreateAccount: true }));
      assert.equal(relogin.errorCode, 1322);
      assert.equal(relogin.retryable, false);
      assert.match(relogin.hint, /deletion finishes/);
      await control('POST', 'clock/advance', { ms: 61_000 });
      const outbox = (await control('GET', 'outbox')) as { messages: { JobReceiptId: string }[] };
      assert.ok(outbox.messages.some((m) => m.JobReceiptId === r.JobReceiptId));
      const retailId = player.consoleLive.find((x) => x.sandbox === 'RETAIL')!.id;
      assert.equal((await c.getPlatformIdsFromConsoleLiveIds([retailId]))[0].PlatformId, null);
      assert.equal((await c.getPlatformIdsFromStorefrontNames([player.storefrontNames[0]]))[0].PlatformId, null);
    });

    it('a delete hit by a reset after sending is not re-sent and says the outcome is unknown', async () => {
      await control('POST', 'faults', { rules: [{ operation: 'Admin/DeleteMasterPlayerAccount', kind: 'reset-after' }] });
      const e = await rejection(client().deleteMasterPlayerAccount({ PlatformId: player.platformId }));
      assert.equal(e.outcomeUnknown, true);
      assert.equal(log.filter((x) => x.operation === 'DeleteMasterPlayerAccount').length, 1);
    });

    it('a delete of an unknown PlatformId is a definite error', async () => {
      const e = await rejection(client().deleteMasterPlayerAccount({ PlatformId: DEMO_UNLINKED.platformId }));
      assert.equal(e.outcomeUnknown, false);
      assert.ok(e.httpStatus !== undefined && e.httpStatus >= 400 && e.httpStatus < 500);
    });
  });

  describe('add-on operations', () => {
    it('getHandheldStore returns the configuration without ClientSecret', async () => {
      const r = await client().getHandheldStore();
      assert.equal(r.Created, true);
      assert.equal(typeof r.ApplicationID, 'string');
      assert.ok((r.Environments?.length ?? 0) > 0);
      assert.ok(!JSON.stringify(r).includes('ClientSecret'));
      assert.equal(await requests('Authentication/GetEntityToken'), 1);
    });

    it('deleting an add-on twice gives AddonDoesntExist the second time, as a definite error', async () => {
      const c = client();
      await c.mutate('DeleteMobileStore', {});
      const e = await rejection(c.mutate('DeleteMobileStore', {}));
      assert.equal(e.error, 'AddonDoesntExist');
      assert.equal(e.errorCode, 19009);
      assert.equal(e.outcomeUnknown, false);
      await c.mutate('DeleteConsoleNetB', {});
      assert.equal((await rejection(c.mutate('DeleteConsoleNetB', {}))).errorCode, 19009);
      assert.equal(await requests('Authentication/GetEntityToken'), 1, 'one title token for all calls');
    });

    it('X-ReportErrorAsSuccess answers are classified by the body', async () => {
      const c = client({ reportErrorAsSuccess: true });
      await c.mutate('DeleteConsoleNetB', {});
      const e = await rejection(c.mutate('DeleteConsoleNetB', {}));
      assert.equal(e.httpStatus, 200);
      assert.equal(e.errorCode, 19009);
      assert.ok(e.code !== undefined && e.code >= 400);
    });

    it('refreshes the title token once when the emulator expires it', async () => {
      const c = client();
      await c.getHandheldStore();
      await control('POST', 'tokens/expire');
      await c.getHandheldStore();
      assert.equal(await requests('Authentication/GetEntityToken'), 2);
      assert.equal(await requests('Addon/GetHandheldStore'), 3);
    });

    it('a player token on an add-on operation is InvalidEntityType, parsed by the client', async () => {
      const player = DEMO_PLAYERS.find((p) => p.launcherSubject !== undefined)!;
      const login = await client().loginWithLauncher({ IdentityToken: await launcherToken(player.launcherSubject!), LoginTitlePlayerAccountEntity: true });
      const base = client().baseUrl;
      const res = await fetch(new URL('Addon/GetHandheldStore', base), {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-entitytoken': login.EntityToken!.EntityToken! }, body: '{}',
      });
      let err: unknown;
      try {
        parseEnvelope('GetHandheldStore', { httpStatus: res.status, body: await res.text() }, (d) => checkResult('GetHandheldStore', d));
      } catch (e) {
        err = e;
      }
      assert.ok(err instanceof PlatformError);
      assert.equal(err.error, 'InvalidEntityType');
      assert.equal(err.errorCode, 1373);
      assert.equal(err.retryable, false);
      assert.match(err.message, /title token/);
    });

    it('a wrong secret key fails the token fetch, so the add-on call is never sent', async () => {
      const e = await rejection(client({ getSecretKey: () => Promise.resolve(OTHER.secretKey) }).getHandheldStore());
      assert.equal(e.operation, 'GetEntityToken');
      assert.ok(e.httpStatus === 401 || e.httpStatus === 403);
      assert.equal(await requests('Addon/GetHandheldStore'), 0);
    });
  });
});
