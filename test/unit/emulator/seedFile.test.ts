import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INFO_REQUEST_FLAGS } from '../../../src/core/api/operations';
import { seedSource } from '../../../src/emulator/seed';
import { SEED_SCHEMA } from '../../../src/emulator/seedfile/seedSchema';
import { Emu } from './harness';

const KEY = 'SEEDFILEKEY0123456789ABCDEFGH';

/** A user's seed file: a literal key and a generated one, explicit and generated players, templates, add-ons. */
const VALID = {
  $schema: 'https://platform-emulator.invalid/seed.schema.json',
  publisherId: 'ABC1',
  titles: [
    {
      titleId: 'BEEF1', name: 'My Game', secretKey: KEY, allowedProfileConstraints: ['ShowDisplayName'],
      currencies: [{ code: 'GO', initial: 7 }], addons: { HandheldStore: null, MobileStore: { PackageName: 'com.mine.game' } },
      titleData: { Motd: 'hello' },
    },
    { titleId: 'BEEF2', name: 'My Other Game' },
  ],
  players: [
    {
      platformId: '1234567890ABCDEF', displayName: 'Alice', contactEmail: 'alice@example.test',
      storefrontNames: ['alice_sf'], consoleLive: [{ sandbox: 'RETAIL', id: '111' }], launcherSubjects: ['alice-sub'],
      titles: { BEEF1: { userData: { Level: '3', Secret: { Value: 'x', Permission: 'Private' } }, virtualCurrency: { GO: 42 } }, BEEF2: {} },
    },
    { storefrontNames: ['generated_one'], titles: { BEEF2: {} } },
  ],
  playerTemplates: [{ count: 30, start: 10, step: 5, player: { displayName: 'Bot {n}', storefrontNames: ['bot_{n:4}'], titles: { BEEF1: {} } } }],
};

describe('emulator: seed files', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'emu-seed-')); });
  afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

  const write = (content: unknown, name = 'seed.json'): string => {
    const file = join(dir, name);
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    return file;
  };

  /** The error seedSource throws for `content`; fails when it loads. */
  const errorOf = (content: unknown): string => {
    try {
      seedSource(write(content));
    } catch (e) {
      return (e as Error).message;
    }
    assert.fail('the seed file was accepted');
  };

  it('a valid file starts the emulator with its titles, keys, players, identities, currencies, user data and add-ons', async () => {
    const emu = await Emu.start({ seed: seedSource(write(VALID)), fixedKeys: false });
    try {
      assert.deepEqual(emu.handle.titles.map((t) => t.titleId), ['BEEF1', 'BEEF2']);
      assert.equal(emu.handle.titles[0].secretKey, KEY, 'a literal key is kept');
      assert.match(emu.handle.titles[1].secretKey, /^EMUBEEF2[A-Z0-9]{32}$/, '"generate" (the default) makes one');
      const headers = { 'X-SecretKey': KEY };
      const names = await emu.call('Server/GetPlatformIDsFromStorefrontNames', { StorefrontNames: ['alice_sf', 'bot_0010', 'bot_0155', 'bot_0011', 'generated_one'] }, { titleId: 'BEEF1', headers });
      assert.equal(names.status, 200, names.text);
      const ids = names.json.data.Data.map((d: { PlatformId: string | null }) => d.PlatformId);
      assert.equal(ids[0], '1234567890ABCDEF');
      assert.match(ids[1], /^[0-9A-F]{16}$/, 'template players get generated PlatformIds');
      assert.match(ids[2], /^[0-9A-F]{16}$/, 'the last of 30 (n = 10 + 29 x 5)');
      assert.equal(ids[3], null, 'n steps by 5');
      assert.match(ids[4], /^[0-9A-F]{16}$/);
      const played = await emu.call('Admin/GetPlayedTitleList', { PlatformId: ids[0] }, { titleId: 'BEEF1', headers });
      assert.deepEqual(played.json.data.TitleIds.sort(), ['BEEF1', 'BEEF2']);
      const IdentityToken = await emu.launcherToken({ titleId: 'BEEF1', subject: 'alice-sub' });
      const login = await emu.call('Server/LoginWithLauncher', {
        IdentityToken,
        InfoRequestParameters: Object.fromEntries(INFO_REQUEST_FLAGS.map((f) => [f, f === 'GetUserData' || f === 'GetUserVirtualCurrency' || f === 'GetTitleData'])),
      }, { titleId: 'BEEF1', headers });
      assert.equal(login.status, 200, login.text);
      const info = login.json.data.InfoResultPayload;
      assert.equal(login.json.data.PlatformId, ids[0]);
      assert.equal(info.UserData.Level.Value, '3');
      assert.equal(info.UserData.Secret.Permission, 'Private');
      assert.deepEqual(info.UserVirtualCurrency, { GO: 42 });
      assert.deepEqual(info.TitleData, { Motd: 'hello' });
      const token = (await emu.call('Authentication/GetEntityToken', {}, { titleId: 'BEEF1', headers })).json.data.EntityToken;
      assert.equal((await emu.callWithToken('Addon/GetHandheldStore', token, {}, 'BEEF1')).json.data.Created, false, 'null: no add-on');
      assert.equal((await emu.callWithToken('Addon/DeleteMobileStore', token, {}, 'BEEF1')).status, 200, 'configured: present');
      assert.equal((await emu.callWithToken('Addon/DeleteMobileStore', token, {}, 'BEEF1')).json.error, 'AddonDoesntExist');
      const token2 = (await emu.call('Authentication/GetEntityToken', {}, { titleId: 'BEEF2', headers: { 'X-SecretKey': emu.handle.titles[1].secretKey } })).json.data.EntityToken;
      const hs = await emu.callWithToken('Addon/GetHandheldStore', token2, {}, 'BEEF2');
      assert.equal(hs.json.data.Created, true, 'absent from the file: the default add-on');
      // Reset goes back to this file, not to the demo; the keys stay.
      assert.equal((await emu.control('reset', {})).status, 200);
      assert.equal((await emu.call('Admin/GetPlayedTitleList', { PlatformId: ids[0] }, { titleId: 'BEEF1', headers })).status, 200);
    } finally {
      await emu.close();
    }
  });

  it('a seeded state saved with --data loads again (seed bounds within the loaded-state bounds)', async () => {
    const data = join(dir, 'data');
    const seed = { ...VALID, players: [{ ...VALID.players[0], created: '1970-01-01T00:00:00Z', bannedUntil: '8999-12-31T23:59:59Z' }] };
    const first = await Emu.start({ seed: seedSource(write(seed)), dataDir: data });
    await first.close();
    const again = await Emu.start({ seed: seedSource(write(seed)), dataDir: data });
    try {
      assert.equal((await again.call('Admin/GetPlayedTitleList', { PlatformId: '1234567890ABCDEF' }, { titleId: 'BEEF1', headers: { 'X-SecretKey': KEY } })).status, 200);
    } finally {
      await again.close();
    }
  });

  it('the same file gives the same generated PlatformIds on every start, wherever it lies', async () => {
    const ids: string[] = [];
    for (const name of ['seed.json', 'elsewhere.json']) {
      const emu = await Emu.start({ seed: seedSource(write(VALID, name)) });
      const r = await emu.call('Server/GetPlatformIDsFromStorefrontNames', { StorefrontNames: ['bot_0100'] }, { titleId: 'BEEF1', headers: { 'X-SecretKey': KEY } });
      ids.push(r.json.data.Data[0].PlatformId);
      await emu.close();
    }
    assert.equal(ids[0], ids[1]);
  });

  const cases: [string, (v: typeof VALID) => unknown, RegExp][] = [
    ['a missing required member', (v) => ({ ...v, titles: [{ titleId: 'BEEF1' }] }), /:5: titles\[0\]: is missing the required member "name"/],
    ['an unknown member', (v) => ({ ...v, titles: [{ ...v.titles[0], colour: 'red' }] }), /:\d+: titles\[0\]\.colour: is not a known member \(known: titleId, name/],
    ['a wrong type', (v) => ({ ...v, titles: [{ ...v.titles[0], name: 5 }] }), /:\d+: titles\[0\]\.name: must be a string, not 5/],
    ['a bad title ID', (v) => ({ ...v, titles: [{ ...v.titles[0], titleId: 'XYZ' }] }), /titles\[0\]\.titleId: the string "XYZ" does not match the format: a title ID: 4 to 16 hexadecimal characters/],
    ['a bad key', (v) => ({ ...v, titles: [{ ...v.titles[0], secretKey: 'short' }] }), /titles\[0\]\.secretKey: must be "generate" or a key of 16 to 128 letters and digits/],
    ['a bad PlatformId', (v) => ({ ...v, players: [{ platformId: 'nothex!' }] }), /players\[0\]\.platformId: must be "generate" or a PlatformId/],
    ['an unknown ProfileConstraints flag', (v) => ({ ...v, titles: [{ ...v.titles[0], allowedProfileConstraints: ['ShowEverything'] }] }), /allowedProfileConstraints\[0\]: must be one of "ShowAvatarUrl"/],
    ['a negative currency', (v) => ({ ...v, players: [{ titles: { BEEF1: { virtualCurrency: { GO: -1 } } } }] }), /players\[0\]\.titles\.BEEF1\.virtualCurrency\.GO: must be at least 0, not -1/],
    ['a time that is no time', (v) => ({ ...v, players: [{ created: '2025-02-30T10:00:00Z' }] }), /players\[0\]\.created: "2025-02-30T10:00:00Z" is not a time from 1970 to 8999/],
    ['a time past 8999', (v) => ({ ...v, players: [{ bannedUntil: '9500-01-01T00:00:00Z' }] }), /players\[0\]\.bannedUntil: "9500-01-01T00:00:00Z" is not a time from 1970 to 8999/],
    ['a time in another format', (v) => ({ ...v, players: [{ created: 'yesterday' }] }), /players\[0\]\.created: the string "yesterday" does not match the format: a UTC time/],
    ['a duplicate title', (v) => ({ ...v, titles: [v.titles[0], { ...v.titles[1], titleId: 'beef1' }] }), /titles\[1\]\.titleId: title BEEF1 is already defined by titles\[0\]/],
    ['a played title not in the file', (v) => ({ ...v, players: [{ titles: { ABCD: {} } }] }), /players\[0\]\.titles\.ABCD: title ABCD is not among the file's titles/],
    ['no titles', (v) => ({ ...v, titles: [] }), /titles: must have at least 1 entry/],
    ['too many players', (v) => ({ ...v, playerTemplates: [{ count: 150_000, player: {} }, { count: 60_000, player: {} }] }), /the seed makes 210\d+ players; the limit is 200000/],
    ['a template count out of range', (v) => ({ ...v, playerTemplates: [{ count: 0, player: {} }] }), /playerTemplates\[0\]\.count: must be at least 1, not 0/],
    ['not an object', () => [], /\(the file\): must be an object, not an array/],
  ];
  for (const [what, make, expected] of cases) {
    it(`refuses ${what}, naming the line and the member`, () => {
      const message = errorOf(make(JSON.parse(JSON.stringify(VALID)) as typeof VALID));
      assert.match(message, /^The seed file .*seed\.json is not valid \(\d+ problems?\):/);
      assert.match(message, expected);
      assert.match(message, /--print-seed-schema/, 'says where the format is');
    });
  }

  it('the line named is the member\'s own line in the file', () => {
    const text = JSON.stringify({ ...VALID, players: [VALID.players[0], { displayName: 'Bob', country: 'Germany' }] }, null, 2);
    const line = text.split('\n').findIndex((l) => l.includes('"Germany"')) + 1;
    const message = errorOf(text);
    assert.match(message, new RegExp(`seed\\.json:${line}: players\\[1\\]\\.country: the string "Germany" does not match the format: an ISO 3166 country code`));
  });

  it('a JSON syntax error names its line', () => {
    const message = errorOf('{\n  "titles": [\n    { "titleId": "BEEF1", }\n  ]\n}\n');
    assert.match(message, /seed\.json:3: not valid JSON/);
  });

  it('duplicate PlatformIds and identities linked twice are refused when the file is read, naming the line and the player', async () => {
    const dupId = errorOf({ ...VALID, players: [VALID.players[0], { platformId: '1234567890abcdef' }] });
    assert.match(dupId, /seed\.json:\d+: players\[1\]\.platformId: PlatformId 1234567890ABCDEF is already used by players\[0\]/);
    const dupName = errorOf({ ...VALID, players: [VALID.players[0], { storefrontNames: ['alice_sf'] }] });
    assert.match(dupName, /seed\.json:\d+: players\[1\]\.storefrontNames\[0\]: the Storefront name alice_sf is already linked to players\[0\]/);
    // Both at once: every problem listed, not one per try.
    const both = errorOf({ ...VALID, players: [VALID.players[0], { platformId: '1234567890ABCDEF', launcherSubjects: ['alice-sub'] }] });
    assert.match(both, /players\[1\]\.platformId/);
    assert.match(both, /players\[1\]\.launcherSubjects\[0\]: the launcher subject alice-sub/);
    await assert.rejects(Emu.start({ seed: seedSource(write({ ...VALID, playerTemplates: [{ count: 3, player: { storefrontNames: ['same'] } }] })) }),
      /playerTemplates\[0\] \(n=1\): the Storefront name same is already linked/);
  });

  it('e-mails and usernames are unique in a publisher, display names in a title; events name a played title', async () => {
    const alice = VALID.players[0];
    const dupMail = errorOf({ ...VALID, players: [alice, { contactEmail: 'ALICE@example.test', titles: { BEEF2: {} } }] });
    assert.match(dupMail, /seed\.json:\d+: players\[1\]\.contactEmail: the e-mail alice@example\.test is already linked to players\[0\]/);
    const dupUser = errorOf({ ...VALID, players: [{ ...alice, username: 'al' }, { username: 'al' }] });
    assert.match(dupUser, /players\[1\]\.username: the username al is already linked to players\[0\]/);
    const dupName = errorOf({ ...VALID, players: [alice, { titles: { BEEF2: { displayName: 'Alice' } } }] });
    assert.match(dupName, /players\[1\]\.titles\.BEEF2\.displayName: the display name Alice in title BEEF2 is already linked/);
    const otherPublisher = { ...VALID, titles: [...VALID.titles, { titleId: 'BEEF3', name: 'Elsewhere', publisherId: 'F00D' }], players: [alice, { publisherId: 'F00D', contactEmail: 'alice@example.test', username: 'alice', titles: { BEEF3: {} } }] };
    assert.doesNotThrow(() => seedSource(write(otherPublisher)), 'another publisher may have the same e-mail');
    const notPlayed = errorOf({ ...VALID, players: [{ ...alice, events: [{ name: 'race', titleId: 'BEEF1', time: '2025-01-01T00:00:00Z' }, { name: 'x', titleId: 'BEEF3', time: '2025-01-01T00:00:00Z' }] }] });
    assert.match(notPlayed, /players\[0\]\.events\[1\]\.titleId: title BEEF3 is not among this player's titles/);
    const emu = await Emu.start({ seed: seedSource(write({ ...VALID, players: [{ ...alice, titles: { BEEF1: {}, BEEF2: { displayName: 'Al in Two' } }, events: [{ name: 'race', titleId: 'beef1', time: '2025-01-01T00:00:00Z', data: { lap: '3' } }] }] })), fixedKeys: false });
    try {
      const key = emu.handle.titles.find((t) => t.titleId === 'BEEF2')!.secretKey;
      const r = await emu.call('Admin/GetUserAccountInfo', { TitleDisplayName: 'Al in Two' }, { titleId: 'BEEF2', headers: { 'X-SecretKey': key } });
      assert.equal(r.json.data?.UserInfo?.PlatformId, alice.platformId, r.text);
      const p = (await emu.control('players')).json.players[0];
      assert.deepEqual(p.displayNames, { BEEF1: 'Alice', BEEF2: 'Al in Two' });
      assert.equal(p.eventCount, 1);
    } finally {
      await emu.close();
    }
  });

  it('a missing file says so and names the built-in seeds', () => {
    assert.throws(() => seedSource(join(dir, 'nope.json')), /The seed file .*nope\.json does not exist; give the path of a seed JSON file, or demo, empty or bench/);
  });

  it('the committed seed.schema.json is the schema the emulator enforces and prints', () => {
    const committed = JSON.parse(readFileSync(join(process.cwd(), 'packages', 'emulator', 'seed.schema.json'), 'utf8'));
    assert.deepEqual(committed, JSON.parse(JSON.stringify(SEED_SCHEMA)));
  });

  it('the CLI exits 2 on a bad seed file with the line and member on stderr, and prints the schema', async () => {
    const file = write({ ...VALID, titles: [{ ...VALID.titles[0], name: 5 }] });
    const bundle = join(process.cwd(), 'dist', 'emulator.js');
    const run = (args: string[]) => new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(process.execPath, [bundle, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
      child.stderr.on('data', (c: Buffer) => { err += c.toString(); });
      child.on('exit', (code) => resolve({ code, out, err }));
    });
    const bad = await run(['--seed', file, '--port', '0', '--json']);
    assert.equal(bad.code, 2);
    assert.equal(bad.out, '', 'no JSON line: it never started');
    assert.match(bad.err, /seed\.json:\d+: titles\[0\]\.name: must be a string, not 5/);
    const schema = await run(['--print-seed-schema']);
    assert.equal(schema.code, 0);
    assert.deepEqual(JSON.parse(schema.out), JSON.parse(JSON.stringify(SEED_SCHEMA)));
  });

  it('the built-in seeds are seed files that pass the schema', () => {
    for (const name of ['demo', 'empty', 'bench']) {
      const file = join(process.cwd(), 'src', 'emulator', 'seeds', `${name}.json`);
      assert.doesNotThrow(() => seedSource(file), name);
    }
  });

  it('a seed path that leads to a device or a pipe is refused at once, not read forever', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pe-seed-dev-'));
    try {
      symlinkSync('/dev/zero', join(dir, 'zero.json'));
      assert.throws(() => seedSource(join(dir, 'zero.json')), /is not a regular file; give the path of a seed JSON file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
