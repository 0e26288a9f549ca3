import * as assert from 'node:assert/strict';
import { INFO_REQUEST_FLAGS, PROFILE_CONSTRAINT_FLAGS } from '../../../src/core/api/operations';
import { DEMO_PLAYERS, DEMO_UNLINKED, LAUNCHER_ISSUER } from '../../../src/emulator/seed';
import { ARENA, Emu, MAIN } from './harness';

const NO_ZONE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/;
const player = DEMO_PLAYERS.find((p) => p.launcherSubject && !p.banned && p.playedTitles.includes(MAIN.titleId) && p.displayName)!;
const banned = DEMO_PLAYERS.find((p) => p.banned)!;

/** InfoRequestParameters as the published contract wants them: every flag present. */
function info(asked: Record<string, unknown>): Record<string, unknown> {
  return { ...Object.fromEntries(INFO_REQUEST_FLAGS.map((f) => [f, false])), ...asked };
}
function constraints(...shown: string[]): Record<string, boolean> {
  return Object.fromEntries(PROFILE_CONSTRAINT_FLAGS.map((f) => [f, shown.includes(f)]));
}

describe('emulator: LoginWithLauncher', () => {
  let emu: Emu;
  before(async () => { emu = await Emu.start(); });
  after(async () => { await emu.close(); });
  beforeEach(async () => { await emu.control('reset', {}); });

  const login = async (body: Record<string, unknown>, titleId = MAIN.titleId) => emu.call('Server/LoginWithLauncher', body, { titleId });

  it('signs a linked player in with the full result shape', async () => {
    const IdentityToken = await emu.launcherToken({ subject: player.launcherSubject });
    const r = await login({ IdentityToken, CustomTags: { build: '42' }, LoginTitlePlayerAccountEntity: true });
    assert.equal(r.status, 200, r.text);
    const d = r.json.data;
    assert.equal(d.NewlyCreated, false);
    assert.equal(d.PlatformId, player.platformId);
    assert.equal(typeof d.SessionTicket, 'string');
    assert.ok(d.SessionTicket.length > 20);
    assert.equal(d.EntityToken.Entity.Type, 'title_player_account');
    assert.equal(d.EntityToken.Entity.TypeString, 'title_player_account');
    assert.match(d.EntityToken.TokenExpiration, /Z$/);
    assert.match(d.LastLoginTime, NO_ZONE);
    assert.deepEqual(Object.keys(d.SettingsForUser).sort(), ['GatherDeviceInfo', 'GatherFocusInfo', 'NeedsAttribution']);
    assert.deepEqual(d.TreatmentAssignment, { Variables: [], Variants: [] });
    assert.equal(d.InfoResultPayload, undefined, 'no info parts without InfoRequestParameters');
    // The flag is obsolete ("now automatic, and always-on"): the token comes back whether it is true, false or absent.
    for (const flag of [{}, { LoginTitlePlayerAccountEntity: false }]) {
      const plain = await login({ IdentityToken, ...flag });
      assert.equal(plain.status, 200, plain.text);
      assert.equal(plain.json.data.EntityToken?.Entity?.Type, 'title_player_account', `EntityToken with ${JSON.stringify(flag)}`);
    }
  });

  it('accepts partial InfoRequestParameters and ProfileConstraints: an absent flag reads as false', async () => {
    const IdentityToken = await emu.launcherToken({ subject: player.launcherSubject });
    const r = await login({ IdentityToken, InfoRequestParameters: { GetPlayerProfile: true, ProfileConstraints: { ShowDisplayName: true } } });
    assert.equal(r.status, 200, r.text);
    const p = r.json.data.InfoResultPayload;
    assert.deepEqual(Object.keys(p).sort(), ['PlayerProfile', 'UserDataVersion', 'UserReadOnlyDataVersion'], 'only the part asked for');
    assert.equal(p.PlayerProfile.DisplayName, player.displayName);
    assert.equal(p.PlayerProfile.Created, undefined, 'ShowCreated absent reads as false');
    const empty = await login({ IdentityToken, InfoRequestParameters: {} });
    assert.equal(empty.status, 200, empty.text);
    assert.deepEqual(Object.keys(empty.json.data.InfoResultPayload).sort(), ['UserDataVersion', 'UserReadOnlyDataVersion']);
  });

  it('returns the InfoResultPayload parts the flags ask for, user data filtered by UserDataKeys', async () => {
    const IdentityToken = await emu.launcherToken({ subject: player.launcherSubject });
    const r = await login({
      IdentityToken,
      LoginTitlePlayerAccountEntity: true,
      InfoRequestParameters: info({ GetUserAccountInfo: true, GetUserVirtualCurrency: true, GetUserData: true, UserDataKeys: ['Garage', 'Missing'], GetPlayerProfile: true }),
    });
    assert.equal(r.status, 200, r.text);
    const p = r.json.data.InfoResultPayload;
    assert.equal(p.AccountInfo.PlatformId, player.platformId);
    assert.match(p.AccountInfo.Created, NO_ZONE);
    assert.equal(p.AccountInfo.TitleInfo.TitlePlayerAccount.Type, 'title_player_account');
    assert.equal(p.AccountInfo.TitleInfo.TitlePlayerAccount.Id, r.json.data.EntityToken.Entity.Id);
    for (const k of ['Created', 'LastLogin', 'FirstLogin']) assert.match(p.AccountInfo.TitleInfo[k], NO_ZONE);
    assert.deepEqual(Object.keys(p.UserVirtualCurrency).sort(), ['EN', 'GC']);
    assert.ok(Number.isInteger(p.UserVirtualCurrency.GC));
    assert.equal(p.UserVirtualCurrencyRechargeTimes.EN.RechargeMax, 10);
    assert.ok(Number.isInteger(p.UserVirtualCurrencyRechargeTimes.EN.SecondsToRecharge));
    assert.deepEqual(Object.keys(p.UserData), ['Garage']);
    assert.equal(p.UserData.Garage.Permission, 'Public');
    assert.match(p.UserData.Garage.LastUpdated, NO_ZONE);
    assert.ok(Number.isInteger(p.UserDataVersion));
    assert.equal(p.PlayerProfile.PlayerId, player.platformId);
    assert.equal(p.PlayerProfile.TitleId, MAIN.titleId);
    assert.equal(p.PlayerProfile.DisplayName, player.displayName);
    assert.deepEqual(p.AccountInfo.LauncherAccountInfo, { LauncherAccountId: player.launcherSubject });

    const onlyData = await login({ IdentityToken, InfoRequestParameters: info({ GetUserData: true }) });
    const q = onlyData.json.data.InfoResultPayload;
    assert.deepEqual(Object.keys(q).sort(), ['UserData', 'UserDataVersion', 'UserReadOnlyDataVersion'], 'both versions always');
    assert.ok(Object.keys(q.UserData).length >= 2, 'all keys without UserDataKeys');
  });

  it('ProfileConstraints the title allows shape the profile; others fail with 1303', async () => {
    const IdentityToken = await emu.launcherToken({ subject: player.launcherSubject });
    const allowed = await login({ IdentityToken, InfoRequestParameters: info({ GetPlayerProfile: true, ProfileConstraints: constraints('ShowCreated', 'ShowLastLogin') }) });
    assert.equal(allowed.status, 200, allowed.text);
    const prof = allowed.json.data.InfoResultPayload.PlayerProfile;
    assert.match(prof.Created, NO_ZONE);
    assert.match(prof.LastLogin, NO_ZONE);
    assert.equal(prof.DisplayName, undefined, 'ShowDisplayName not asked');
    const refused = await login({ IdentityToken, InfoRequestParameters: info({ GetPlayerProfile: true, ProfileConstraints: constraints('ShowMemberships') }) });
    assert.equal(refused.status, 400);
    assert.equal(refused.json.error, 'RequestViewConstraintParamsNotAllowed');
    assert.equal(refused.json.errorCode, 1303);
    const arena = await emu.launcherToken({ subject: player.launcherSubject, titleId: ARENA.titleId, audience: 'platform-title-A248' });
    const arenaRefused = await login({ IdentityToken: arena, InfoRequestParameters: info({ GetPlayerProfile: true, ProfileConstraints: constraints('ShowTags') }) }, ARENA.titleId);
    assert.equal(arenaRefused.json.errorCode, 1303, 'a flag that exists but the title does not allow');
  });

  it('every one of the 17 ProfileConstraints flags exists; each allowed one returns its member', async () => {
    const rich = DEMO_PLAYERS.find((p, i) => p.launcherSubject && !p.banned && p.playedTitles.includes(MAIN.titleId) && i % 12 === 0 && i > 0)!;
    const IdentityToken = await emu.launcherToken({ subject: rich.launcherSubject });
    const allAllowed = PROFILE_CONSTRAINT_FLAGS.filter((f) => f !== 'ShowMemberships');
    const r = await login({ IdentityToken, InfoRequestParameters: info({ GetPlayerProfile: true, ProfileConstraints: constraints(...allAllowed) }) });
    assert.equal(r.status, 200, r.text);
    const prof = r.json.data.InfoResultPayload.PlayerProfile;
    for (const member of ['DisplayName', 'Created', 'LastLogin', 'Origination', 'AvatarUrl', 'TotalValueToDateInUSD', 'ValuesToDate', 'Tags', 'LinkedAccounts', 'Locations', 'Statistics', 'ExperimentVariants', 'ContactEmailAddresses', 'AdCampaignAttributions', 'PushNotificationRegistrations']) {
      assert.ok(prof[member] !== undefined, `${member} returned: ${r.text}`);
    }
    assert.ok(Number.isInteger(prof.TotalValueToDateInUSD), 'whole US cents');
    assert.ok(prof.Tags.every((t: { TagValue: string }) => typeof t.TagValue === 'string'));
    assert.ok(prof.LinkedAccounts.some((l: { Platform: string }) => l.Platform === 'Launcher'));
    assert.ok(prof.ContactEmailAddresses.length === 1 && prof.ContactEmailAddresses[0].VerificationStatus === 'Confirmed', 'seeded e-mail with its status');
  });

  it('returns the six other info parts with seeded data', async () => {
    const IdentityToken = await emu.launcherToken({ subject: player.launcherSubject });
    const r = await login({
      IdentityToken,
      InfoRequestParameters: info({ GetUserInventory: true, GetUserReadOnlyData: true, GetCharacterList: true, GetCharacterInventories: true, GetTitleData: true, GetPlayerStatistics: true, TitleDataKeys: ['Season'] }),
    });
    assert.equal(r.status, 200, r.text);
    const p = r.json.data.InfoResultPayload;
    assert.ok(p.UserInventory.length >= 1 && p.UserInventory.every((i: { UnitPrice: number }) => Number.isInteger(i.UnitPrice)));
    assert.ok(Object.keys(p.UserReadOnlyData).includes('Rank'));
    assert.ok(Array.isArray(p.CharacterList) && Array.isArray(p.CharacterInventories));
    assert.deepEqual(p.TitleData, { Season: '3' }, 'TitleDataKeys filter the title data');
    assert.deepEqual(p.PlayerStatistics.map((s: { StatisticName: string }) => s.StatisticName).sort(), ['BestLapMs', 'Wins']);
  });

  it('GetEntityToken with a session ticket (X-Authorization) returns that player\'s title_player_account token', async () => {
    const IdentityToken = await emu.launcherToken({ subject: player.launcherSubject });
    const l = await login({ IdentityToken, InfoRequestParameters: info({ GetUserAccountInfo: true }) });
    const ticket = l.json.data.SessionTicket;
    const t = await emu.call('Authentication/GetEntityToken', {}, { headers: { 'X-SecretKey': '', 'x-authorization': ticket } });
    assert.equal(t.status, 200, t.text);
    assert.equal(t.json.data.Entity.Type, 'title_player_account');
    assert.equal(t.json.data.Entity.Id, l.json.data.InfoResultPayload.AccountInfo.TitleInfo.TitlePlayerAccount.Id);
    const forged = await emu.call('Authentication/GetEntityToken', {}, { headers: { 'X-SecretKey': '', 'x-authorization': `${ticket.slice(0, -2)}xx` } });
    assert.equal(forged.json.errorCode, 1074, 'a forged ticket is NotAuthenticated');
    const entityAsTicket = await emu.call('Authentication/GetEntityToken', {}, { headers: { 'X-SecretKey': '', 'x-authorization': `${player.platformId}-${t.json.data.EntityToken}` } });
    assert.equal(entityAsTicket.json.errorCode, 1074, 'an entity token does not pass as a session ticket');
  });

  it('GetEntityToken honours an Entity that names the caller\'s own entity and refuses any other', async () => {
    const own = await emu.call('Authentication/GetEntityToken', { Entity: { Id: MAIN.titleId, Type: 'title' } });
    assert.equal(own.status, 200, own.text);
    assert.deepEqual([own.json.data.Entity.Type, own.json.data.Entity.Id], ['title', MAIN.titleId]);
    for (const Entity of [{ Id: ARENA.titleId, Type: 'title' }, { Id: MAIN.titleId, Type: 'title_player_account' }, { Id: player.platformId, Type: 'master_player_account' }]) {
      const r = await emu.call('Authentication/GetEntityToken', { Entity });
      assert.equal(r.status, 400, `${JSON.stringify(Entity)}: ${r.text}`);
      assert.equal(r.json.error, 'InvalidParams');
      assert.match(r.json.errorDetails.Entity[0], /own entity only \(title [0-9A-F]+\)/);
    }
  });

  it('maps each token failure to its code', async () => {
    const subject = player.launcherSubject;
    const cases: [string, Record<string, unknown> | string, string, number][] = [
      ['bad signature', { subject, wrongKey: true }, 'InvalidSignature', 1273],
      ['expired', { subject, expiresInSeconds: -60 }, 'InvalidSignatureTime', 1324],
      ['not yet valid', { subject, notBefore: 600 }, 'InvalidSignatureTime', 1324],
      ['wrong issuer', { subject, issuer: 'https://someone-else.example' }, 'InvalidAuthToken', 1326],
      ['wrong audience', { subject, audience: 'platform-title-OTHER' }, 'InvalidAuthToken', 1326],
      ['another title\'s audience', { subject, titleId: ARENA.titleId, audience: 'platform-title-A248' }, 'InvalidSignature', 1273],
      ['garbage', 'not.a.jwt', 'InvalidAuthToken', 1326],
      ['not even dotted', 'garbage', 'InvalidAuthToken', 1326],
    ];
    for (const [name, mint, error, code] of cases) {
      const IdentityToken = typeof mint === 'string' ? mint : await emu.launcherToken(mint);
      const r = await login({ IdentityToken });
      assert.equal(r.status, 400, name);
      assert.equal(r.json.error, error, `${name}: ${r.text}`);
      assert.equal(r.json.errorCode, code, name);
      assert.ok(!r.text.includes(IdentityToken), `${name}: the token is not echoed`);
    }
    const explicit = await emu.launcherToken({ subject, issuer: LAUNCHER_ISSUER, audience: `platform-title-${MAIN.titleId}` });
    assert.equal((await login({ IdentityToken: explicit })).status, 200, 'the same claims with the right values pass');
  });

  it('a token that is valid after clock/advance passes nbf, and one that expires fails after it', async () => {
    const IdentityToken = await emu.launcherToken({ subject: player.launcherSubject, notBefore: 30, expiresInSeconds: 120 });
    assert.equal((await login({ IdentityToken })).json.errorCode, 1324);
    await emu.control('clock/advance', { ms: 31_000 });
    assert.equal((await login({ IdentityToken })).status, 200);
    await emu.control('clock/advance', { ms: 120_000 });
    assert.equal((await login({ IdentityToken })).json.errorCode, 1324);
  });

  it('launcher off: LauncherNotEnabledForTitle 1602', async () => {
    const IdentityToken = await emu.launcherToken({ subject: player.launcherSubject });
    assert.equal((await emu.control(`titles/${MAIN.titleId}/launcher`, { enabled: false })).status, 200);
    const r = await login({ IdentityToken });
    assert.equal(r.status, 400);
    assert.equal(r.json.error, 'LauncherNotEnabledForTitle');
    assert.equal(r.json.errorCode, 1602);
    await emu.control(`titles/${MAIN.titleId}/launcher`, { enabled: true });
    assert.equal((await login({ IdentityToken })).status, 200);
  });

  it('unlinked identity: AccountNotFound without CreateAccount; CreateAccount creates the player once', async () => {
    const IdentityToken = await emu.launcherToken({ subject: DEMO_UNLINKED.launcherSubject });
    const missing = await login({ IdentityToken });
    assert.equal(missing.status, 400);
    assert.equal(missing.json.error, 'AccountNotFound');
    assert.equal(missing.json.errorCode, 1001);
    const created = await login({ IdentityToken, CreateAccount: true, InfoRequestParameters: info({ GetUserVirtualCurrency: true }) });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.json.data.NewlyCreated, true);
    assert.match(created.json.data.PlatformId, /^[0-9A-F]{16}$/);
    assert.deepEqual(created.json.data.InfoResultPayload.UserVirtualCurrency, { GC: 100, EN: 5 });
    const again = await login({ IdentityToken, CreateAccount: true });
    assert.equal(again.json.data.NewlyCreated, false);
    assert.equal(again.json.data.PlatformId, created.json.data.PlatformId);
    const played = await emu.call('Admin/GetPlayedTitleList', { PlatformId: created.json.data.PlatformId });
    assert.deepEqual(played.json.data.TitleIds, [MAIN.titleId]);
  });

  it('a banned player gets AccountBanned', async () => {
    const IdentityToken = await emu.launcherToken({ subject: banned.launcherSubject });
    const r = await login({ IdentityToken });
    assert.equal(r.json.error, 'AccountBanned');
    assert.equal(r.json.errorCode, 1002);
  });

  it('wrongly typed members fail with InvalidParams naming each field', async () => {
    const r = await login({ IdentityToken: 5, CreateAccount: 'yes', CustomTags: { a: 1 }, InfoRequestParameters: { GetUserData: 'true', UserDataKeys: 'Garage', ProfileConstraints: { ShowEverything: true } } });
    assert.equal(r.status, 400);
    assert.equal(r.json.error, 'InvalidParams');
    for (const f of ['IdentityToken', 'CreateAccount', 'CustomTags.a', 'InfoRequestParameters.GetUserData', 'InfoRequestParameters.UserDataKeys']) {
      assert.ok(r.json.errorDetails[f]?.length > 0, `${f} in ${r.text}`);
    }
    // Absent flags are not errors: they read as false.
    for (const f of ['InfoRequestParameters.GetUserAccountInfo', 'InfoRequestParameters.ProfileConstraints.ShowAvatarUrl']) {
      assert.equal(r.json.errorDetails[f], undefined, `${f} is not required: ${r.text}`);
    }
    const missing = await login({});
    assert.ok(missing.json.errorDetails.IdentityToken);
  });
});
