import * as assert from 'node:assert/strict';
import { request } from 'node:http';
import { DEMO_PLAYERS, DEMO_UNLINKED } from '../../../src/emulator/seed';
import { ARENA, Emu, MAIN } from './harness';

const linkedStorefront = DEMO_PLAYERS.filter((p) => p.storefrontNames.length > 0);
const retail = DEMO_PLAYERS.filter((p) => p.consoleLive.some((l) => l.sandbox === 'RETAIL'));
const devSandbox = DEMO_PLAYERS.find((p) => p.consoleLive.some((l) => l.sandbox === 'XDKS.1'))!;

describe('emulator: operations and envelopes', () => {
  let emu: Emu;
  before(async () => { emu = await Emu.start(); });
  after(async () => { await emu.close(); });
  beforeEach(async () => { await emu.control('reset', {}); });

  describe('identifier lookups', () => {
    it('GetPlatformIDsFromStorefrontNames answers one entry per name, in order, null when unlinked', async () => {
      const names = [linkedStorefront[0].storefrontNames[0], DEMO_UNLINKED.storefrontNames[0], linkedStorefront[1].storefrontNames[0], linkedStorefront[0].storefrontNames[0]];
      const r = await emu.call('Server/GetPlatformIDsFromStorefrontNames', { StorefrontNames: names });
      assert.equal(r.status, 200);
      assert.equal(r.json.code, 200);
      assert.equal(r.json.status, 'OK');
      assert.deepEqual(r.json.data, {
        Data: [
          { StorefrontName: names[0], PlatformId: linkedStorefront[0].platformId },
          { StorefrontName: names[1], PlatformId: null },
          { StorefrontName: names[2], PlatformId: linkedStorefront[1].platformId },
          { StorefrontName: names[3], PlatformId: linkedStorefront[0].platformId },
        ],
      });
    });

    it('GetPlatformIDsFromConsoleLiveIDs defaults Sandbox to RETAIL and keys links per Sandbox (case-sensitive)', async () => {
      const retailId = retail[0].consoleLive.find((l) => l.sandbox === 'RETAIL')!.id;
      const devId = devSandbox.consoleLive.find((l) => l.sandbox === 'XDKS.1')!.id;
      const noSandbox = await emu.call('Server/GetPlatformIDsFromConsoleLiveIDs', { ConsoleLiveAccountIDs: [retailId, DEMO_UNLINKED.consoleLiveIds[0]] });
      assert.deepEqual(noSandbox.json.data.Data, [
        { ConsoleLiveAccountId: retailId, PlatformId: retail[0].platformId },
        { ConsoleLiveAccountId: DEMO_UNLINKED.consoleLiveIds[0], PlatformId: null },
      ]);
      const dev = await emu.call('Server/GetPlatformIDsFromConsoleLiveIDs', { ConsoleLiveAccountIDs: [devId, retailId], Sandbox: 'XDKS.1' });
      assert.deepEqual(dev.json.data.Data.map((e: { PlatformId: string | null }) => e.PlatformId), [devSandbox.platformId, null]);
      const wrongCase = await emu.call('Server/GetPlatformIDsFromConsoleLiveIDs', { ConsoleLiveAccountIDs: [retailId], Sandbox: 'retail' });
      assert.equal(wrongCase.json.data.Data[0].PlatformId, null);
    });

    it('refuses more than 25 identifiers, empty lists, missing lists and wrong member types with InvalidParams naming the field', async () => {
      const many = Array.from({ length: 26 }, (_, i) => `name${i}`);
      const cases: [string, unknown, string][] = [
        ['Server/GetPlatformIDsFromStorefrontNames', { StorefrontNames: many }, 'StorefrontNames'],
        ['Server/GetPlatformIDsFromConsoleLiveIDs', { ConsoleLiveAccountIDs: many }, 'ConsoleLiveAccountIDs'],
        ['Server/GetPlatformIDsFromStorefrontNames', { StorefrontNames: [] }, 'StorefrontNames'],
        ['Server/GetPlatformIDsFromStorefrontNames', {}, 'StorefrontNames'],
        ['Server/GetPlatformIDsFromStorefrontNames', { StorefrontNames: 'racer' }, 'StorefrontNames'],
        ['Server/GetPlatformIDsFromStorefrontNames', { StorefrontNames: ['a', 5] }, 'StorefrontNames'],
        ['Server/GetPlatformIDsFromConsoleLiveIDs', { ConsoleLiveAccountIDs: ['1'], Sandbox: 7 }, 'Sandbox'],
      ];
      for (const [op, body, field] of cases) {
        const r = await emu.call(op, body);
        assert.equal(r.status, 400, `${op} ${JSON.stringify(body).slice(0, 60)}`);
        assert.equal(r.json.error, 'InvalidParams');
        assert.equal(r.json.errorCode, 1000);
        assert.ok(Array.isArray(r.json.errorDetails[field]) && r.json.errorDetails[field].length > 0, JSON.stringify(r.json));
      }
      const ok = await emu.call('Server/GetPlatformIDsFromStorefrontNames', { StorefrontNames: many.slice(0, 25) });
      assert.equal(ok.json.data.Data.length, 25);
    });
  });

  describe('GetEntityToken and Addon operations', () => {
    it('issues a title token for 24 hours with X-SecretKey, and a fresh one for X-EntityToken', async () => {
      const r = await emu.call('Authentication/GetEntityToken');
      assert.equal(r.status, 200);
      const d = r.json.data;
      assert.deepEqual(d.Entity, { Id: MAIN.titleId, Type: 'title', TypeString: 'title' });
      assert.match(d.TokenExpiration, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const hours = (Date.parse(d.TokenExpiration) - Date.now()) / 3_600_000;
      assert.ok(hours > 23.9 && hours <= 24, `lifetime ${hours}h`);
      const again = await emu.raw(`/${MAIN.titleId}/Authentication/GetEntityToken`, {
        headers: { 'Content-Type': 'application/json', 'X-EntityToken': d.EntityToken }, body: {},
      });
      assert.equal(again.status, 200);
      assert.equal(again.json.data.Entity.Type, 'title');
      assert.notEqual(again.json.data.EntityToken, '');
      const none = await emu.raw(`/${MAIN.titleId}/Authentication/GetEntityToken`, { headers: { 'Content-Type': 'application/json' }, body: {} });
      assert.equal(none.status, 401);
      assert.equal(none.json.error, 'NotAuthenticated');
      assert.equal(none.json.errorCode, 1074);
    });

    it('GetHandheldStore returns the configuration without any ClientSecret, and Created:false when absent', async () => {
      const token = await emu.titleToken();
      const r = await emu.callWithToken('Addon/GetHandheldStore', token);
      assert.equal(r.status, 200);
      const d = r.json.data;
      assert.equal(d.Created, true);
      assert.match(d.ApplicationID, /^[0-9A-F]+$/);
      assert.ok(d.Environments.length > 0 && d.Environments.length <= 4);
      assert.ok(!r.text.includes('ClientSecret'), 'no ClientSecret member in the answer');
      for (const e of [...d.Environments, ...d.SubscriptionEnvironments, ...d.SecondarySubscriptionEnvironments]) {
        assert.equal(typeof e.ClientID, 'string');
        assert.equal(typeof e.ID, 'string');
      }
      const removed = await emu.control(`titles/${MAIN.titleId}/addons/HandheldStore`, undefined, 'DELETE');
      assert.equal(removed.status, 200, removed.text);
      const absent = await emu.callWithToken('Addon/GetHandheldStore', token);
      assert.equal(absent.status, 200);
      assert.deepEqual(absent.json.data, { Created: false });
    });

    it('DeleteMobileStore / DeleteConsoleNetB answer data {} once, then AddonDoesntExist 19009; re-created via the control', async () => {
      const token = await emu.titleToken();
      for (const op of ['Addon/DeleteMobileStore', 'Addon/DeleteConsoleNetB']) {
        const first = await emu.callWithToken(op, token, { CustomTags: { build: '7' } });
        assert.equal(first.status, 200, first.text);
        assert.deepEqual(first.json, { code: 200, status: 'OK', data: {} });
        const second = await emu.callWithToken(op, token);
        assert.equal(second.status, 400);
        assert.equal(second.json.error, 'AddonDoesntExist');
        assert.equal(second.json.errorCode, 19009);
      }
      // Only this title lost them.
      const arenaToken = await emu.titleToken(ARENA.titleId);
      assert.equal((await emu.callWithToken('Addon/DeleteMobileStore', arenaToken, {}, ARENA.titleId)).status, 200);
      const recreate = await emu.control(`titles/${MAIN.titleId}/addons/MobileStore`, {});
      assert.equal(recreate.status, 200);
      assert.equal((await emu.callWithToken('Addon/DeleteMobileStore', token)).status, 200);
    });

    it('Addon operations refuse player tokens (InvalidEntityType 1373), missing, invalid, expired and foreign tokens', async () => {
      const player = DEMO_PLAYERS[0];
      const identity = await emu.launcherToken({ subject: player.launcherSubject });
      const login = await emu.call('Server/LoginWithLauncher', { IdentityToken: identity, LoginTitlePlayerAccountEntity: true });
      const playerToken = login.json.data.EntityToken.EntityToken as string;
      const wrongType = await emu.callWithToken('Addon/GetHandheldStore', playerToken);
      assert.equal(wrongType.status, 400);
      assert.equal(wrongType.json.error, 'InvalidEntityType');
      assert.equal(wrongType.json.errorCode, 1373);

      const missing = await emu.raw(`/${MAIN.titleId}/Addon/GetHandheldStore`, { headers: { 'Content-Type': 'application/json', 'X-SecretKey': MAIN.secretKey }, body: {} });
      assert.equal(missing.status, 401);
      assert.equal(missing.json.error, 'EntityTokenMissing');
      assert.equal(missing.json.errorCode, 1334);

      const token = await emu.titleToken();
      const tampered = token.slice(0, -3) + (token.endsWith('AAA') ? 'BBB' : 'AAA');
      const invalid = await emu.callWithToken('Addon/GetHandheldStore', tampered);
      assert.equal(invalid.status, 401);
      assert.equal(invalid.json.error, 'EntityTokenInvalid');
      assert.equal(invalid.json.errorCode, 1335);

      const foreign = await emu.callWithToken('Addon/GetHandheldStore', await emu.titleToken(ARENA.titleId));
      assert.equal(foreign.status, 403);
      assert.equal(foreign.json.error, 'NotAuthorized');

      assert.equal((await emu.control('tokens/expire', {})).status, 200);
      const expired = await emu.callWithToken('Addon/GetHandheldStore', token);
      assert.equal(expired.status, 401);
      assert.equal(expired.json.error, 'EntityTokenExpired');
      assert.equal(expired.json.errorCode, 1336);
      const fresh = await emu.titleToken();
      assert.equal((await emu.callWithToken('Addon/GetHandheldStore', fresh)).status, 200);
    });

    it('tokens expire after 24 hours of emulator clock', async () => {
      const token = await emu.titleToken();
      await emu.control('clock/advance', { ms: 23 * 3_600_000 });
      assert.equal((await emu.callWithToken('Addon/GetHandheldStore', token)).status, 200);
      await emu.control('clock/advance', { ms: 3_600_000 + 1000 });
      const r = await emu.callWithToken('Addon/GetHandheldStore', token);
      assert.equal(r.json.error, 'EntityTokenExpired');
    });
  });

  describe('GetPlayedTitleList', () => {
    it('returns the titles the player has played and AccountNotFound for unknown players', async () => {
      const both = DEMO_PLAYERS.find((p) => p.playedTitles.length === 2)!;
      const r = await emu.call('Admin/GetPlayedTitleList', { PlatformId: both.platformId });
      assert.equal(r.status, 200);
      assert.deepEqual([...r.json.data.TitleIds].sort(), [...both.playedTitles].sort());
      const unknown = await emu.call('Admin/GetPlayedTitleList', { PlatformId: DEMO_UNLINKED.platformId });
      assert.equal(unknown.status, 400);
      assert.equal(unknown.json.error, 'AccountNotFound');
      assert.equal(unknown.json.errorCode, 1001);
      const missing = await emu.call('Admin/GetPlayedTitleList', {});
      assert.equal(missing.json.error, 'InvalidParams');
      assert.ok(missing.json.errorDetails.PlatformId);
    });
  });

  describe('keys, titles and routing', () => {
    const op = 'Server/GetPlatformIDsFromStorefrontNames';
    const body = { StorefrontNames: ['x'] };

    it('missing key: 401 NotAuthenticated; unknown key: 401 SecretKeyNotFound; another title\'s key: 403 NotAuthorized', async () => {
      const missing = await emu.raw(`/${MAIN.titleId}/${op}`, { headers: { 'Content-Type': 'application/json' }, body });
      assert.equal(missing.status, 401);
      assert.equal(missing.json.errorCode, 1074);
      const wrong = await emu.call(op, body, { headers: { 'X-SecretKey': 'NOT-A-REAL-KEY' } });
      assert.equal(wrong.status, 401);
      assert.equal(wrong.json.error, 'SecretKeyNotFound');
      assert.equal(wrong.json.errorCode, 1293);
      assert.ok(!wrong.text.includes('NOT-A-REAL-KEY'), 'the key is not echoed');
      const other = await emu.call(op, body, { headers: { 'X-SecretKey': ARENA.secretKey } });
      assert.equal(other.status, 403);
      assert.equal(other.json.error, 'NotAuthorized');
      assert.equal(other.json.errorCode, 1089);
    });

    it('unknown title and host/path mismatch: InvalidTitleId 1004; title from the Host label works; unknown API: 404', async () => {
      const unknown = await emu.call(op, body, { titleId: 'BEEF' });
      assert.equal(unknown.status, 400);
      assert.equal(unknown.json.error, 'InvalidTitleId');
      assert.equal(unknown.json.errorCode, 1004);

      const viaHost = (path: string, host: string) => new Promise<{ status: number; json: { errorCode?: number; data?: unknown } }>((resolve, reject) => {
        const url = new URL(emu.origin);
        const req = request({ host: '127.0.0.1', port: url.port, path, method: 'POST', headers: { Host: host, 'Content-Type': 'application/json', 'X-SecretKey': MAIN.secretKey } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => { text += c.toString(); });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
        });
        req.on('error', reject);
        req.end(JSON.stringify(body));
      });
      const hostRouted = await viaHost(`/${op}`, `${MAIN.titleId.toLowerCase()}.platform.localhost:${new URL(emu.origin).port}`);
      assert.equal(hostRouted.status, 200);
      const mismatch = await viaHost(`/${ARENA.titleId}/${op}`, `${MAIN.titleId.toLowerCase()}.platform.localhost:${new URL(emu.origin).port}`);
      assert.equal(mismatch.status, 400);
      assert.equal(mismatch.json.errorCode, 1004);
      const noTitle = await viaHost(`/${op}`, `127.0.0.1:${new URL(emu.origin).port}`);
      assert.equal(noTitle.json.errorCode, 1004);

      const api = await emu.call('Server/NoSuchOperation', {});
      assert.equal(api.status, 404);
      assert.equal(api.json.code, 404);
      const get = await emu.raw(`/${MAIN.titleId}/${op}`, { method: 'GET' });
      assert.equal(get.status, 404);
    });

    it('non-JSON content type: InvalidContentType 1144; malformed or non-object JSON: InvalidParams with details', async () => {
      const ct = await emu.call(op, 'StorefrontNames=x', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
      assert.equal(ct.status, 400);
      assert.equal(ct.json.error, 'InvalidContentType');
      assert.equal(ct.json.errorCode, 1144);
      const charset = await emu.call(op, body, { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
      assert.equal(charset.status, 200);
      for (const bad of ['{"StorefrontNames": [', '[1,2]', '"text"', '42']) {
        const r = await emu.call(op, bad);
        assert.equal(r.status, 400, bad);
        assert.equal(r.json.error, 'InvalidParams');
        assert.ok(r.json.errorDetails.RequestBody?.length > 0, r.text);
      }
    });

    it('bodies over 64 KiB get 413 with the error wrapper', async () => {
      const huge = { StorefrontNames: ['x'.repeat(70 * 1024)] };
      const r = await emu.call(op, huge);
      assert.equal(r.status, 413);
      assert.equal(r.json.code, 413);
      assert.equal(typeof r.json.errorCode, 'number');
      assert.match(r.json.errorMessage, /limit/);
      const after = await emu.call(op, body);
      assert.equal(after.status, 200, 'the emulator keeps serving');
    });

    it('X-ReportErrorAsSuccess: true answers HTTP 200 with the real code in the body', async () => {
      const r = await emu.call(op, { StorefrontNames: [] }, { headers: { 'X-ReportErrorAsSuccess': 'true' } });
      assert.equal(r.status, 200);
      assert.equal(r.json.code, 400);
      assert.equal(r.json.error, 'InvalidParams');
      const auth = await emu.call(op, body, { headers: { 'X-ReportErrorAsSuccess': 'true', 'X-SecretKey': 'nope' } });
      assert.equal(auth.status, 200);
      assert.equal(auth.json.code, 401);
      const ok = await emu.call(op, body, { headers: { 'X-ReportErrorAsSuccess': 'true' } });
      assert.equal(ok.json.code, 200);
      const off = await emu.call(op, { StorefrontNames: [] }, { headers: { 'X-ReportErrorAsSuccess': 'false' } });
      assert.equal(off.status, 400);
    });
  });
});
