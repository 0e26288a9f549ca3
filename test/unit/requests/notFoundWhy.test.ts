// What a miss says, on an emulator seeded with a title that allows non-unique display names and a
// player whose profile has a contact e-mail apart from the account's (real HTTP on 127.0.0.1, the
// built CLI as a child process): the service answers AccountNotFound to both lookups, and the dry
// run says why instead of letting "found in no title" read as "no account". A title the user says
// allows non-unique display names gets no display-name lookup at all: the dry run lists it as not
// looked up, with the reason.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequest, dryRun, NOT_FOUND_WHY, RequestStore } from '../../../src/core/requests';
import { DISPLAY_NAME_SKIPPED } from '../../../src/core/requests/words';
import { parseSeedText } from '../../../src/emulator/seedfile/seedFile';
import { runCli, TestEmulator } from '../deletion/support';
import { authWith, servicesOn } from './support';

const KEYS: Record<string, string> = { D15A: 'SHAREDNAMESKEY0123456789', E2B0: 'UNIQUENAMESKEY0123456789' };
const SEED = {
  titles: [{ titleId: 'D15A', name: 'Shared Names', secretKey: KEYS.D15A, allowNonUniqueDisplayNames: true }, { titleId: 'E2B0', name: 'Unique Names', secretKey: KEYS.E2B0, allowedProfileConstraints: ['ShowContactEmailAddresses'] }],
  players: [
    { contactEmail: 'ace@account.example', titles: { D15A: { displayName: 'Ace' } } },
    { profileContactEmail: 'bo@contact.example', launcherSubjects: ['bo-subject'], titles: { E2B0: { displayName: 'Bo' } } },
  ],
};

describe('requests: what a miss by display name or e-mail says', function () {
  this.timeout(60_000);
  let emu: TestEmulator;
  let dir: string;
  before(async () => { emu = await TestEmulator.start({ seed: { name: 'object', spec: parseSeedText(JSON.stringify(SEED), 'the test seed') } }); });
  after(() => emu.close());
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'pe-notfound-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('the profile shows the contact e-mail, yet a lookup by it answers AccountNotFound (Email matches the account\'s only)', async () => {
    const origin = new URL(emu.endpoint.replace('{titleId}', 'x')).origin;
    const ask = (body: unknown, titleId = 'E2B0') => fetch(`${origin}/${titleId}/Admin/GetUserAccountInfo`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-SecretKey': KEYS[titleId] }, body: JSON.stringify(body) })
      .then(async (r) => ({ status: r.status, json: await r.json() as { error?: string; data?: { UserInfo?: { PlatformId?: string; PrivateInfo?: { Email?: string } } } } }));
    const byName = await ask({ TitleDisplayName: 'Bo' });
    assert.equal(byName.status, 200);
    assert.equal(byName.json.data?.UserInfo?.PrivateInfo?.Email, undefined, 'Bo has no account e-mail');
    const token = ((await emu.control('launcher-token', { titleId: 'E2B0', subject: 'bo-subject' })) as { IdentityToken: string }).IdentityToken;
    const profile = await fetch(`${origin}/E2B0/Server/LoginWithLauncher`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'X-SecretKey': KEYS.E2B0 },
      body: JSON.stringify({ IdentityToken: token, InfoRequestParameters: { GetPlayerProfile: true, ProfileConstraints: { ShowContactEmailAddresses: true } } }),
    }).then((r) => r.json()) as { data?: { InfoResultPayload?: { PlayerProfile?: { ContactEmailAddresses?: { EmailAddress: string }[] } } } };
    assert.deepEqual(profile.data?.InfoResultPayload?.PlayerProfile?.ContactEmailAddresses?.map((c) => c.EmailAddress), ['bo@contact.example']);
    assert.equal((await ask({ Email: 'bo@contact.example' })).json.error, 'AccountNotFound');
    assert.equal((await ask({ Email: 'ACE@account.example' }, 'D15A')).status, 200, 'an account e-mail matches, in any case');
  });

  it('the dry run (core and CLI) reports the display name and the contact e-mail as not found, each with why', async () => {
    const ids = [{ kind: 'displayname' as const, value: 'Ace' }, { kind: 'email' as const, value: 'bo@contact.example' }, { kind: 'email' as const, value: 'ace@account.example' }];
    const store = await RequestStore.open(join(dir, 'store'), { auth: authWith(KEYS) });
    const r = await createRequest(store, { reference: 'TICKET-32', asks: ['access'], identifiers: ids, titles: ['D15A', 'E2B0'], endpoint: emu.endpoint });
    const services = servicesOn(emu, KEYS);
    try {
      const d = await dryRun(store, r.id, services);
      assert.equal(d.accounts.length, 1, 'the account e-mail finds Ace');
      assert.deepEqual(d.notFound, ids.slice(0, 2));
      assert.deepEqual(d.notFoundWhy, [{ kind: 'displayname', why: NOT_FOUND_WHY.displayname }, { kind: 'email', why: NOT_FOUND_WHY.email }]);
    } finally {
      await services.close();
    }

    const file = join(dir, 'ids.txt');
    writeFileSync(file, `${ids.map((x) => `${x.kind}:${x.value}`).join('\n')}\n`);
    const env = Object.fromEntries(Object.entries(KEYS).map(([t, k]) => [`PLATFORM_SECRET_KEY_${t}`, k]));
    const cliStore = join(dir, 'cli-store');
    const made = await runCli(['request', 'new', '--store', cliStore, '--reference', 'TICKET-32', '--asks', 'access', '--identifiers', file, '--titles', 'D15A,E2B0', '--endpoint', emu.endpoint, '--json'], env);
    assert.equal(made.code, 0, made.stderr);
    const dry = await runCli(['request', 'run', '--store', cliStore, '--id', (JSON.parse(made.stdout) as { id: string }).id, '--dry-run'], env);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /Found nothing in any title asked: displayname:Ace, email:bo@contact\.example\n/);
    assert.match(dry.stdout, /^ {2}displayname: not found by display name: a title that allows non-unique display names always answers AccountNotFound/m);
    assert.match(dry.stdout, /^ {2}email: the service matches the account's e-mail, not contact e-mails$/m);
  });

  it('a title said to allow non-unique display names gets no display-name lookup: core and CLI list it as not looked up, with why', async () => {
    type Entry = { operation: string | null; titleId?: string; request: { TitleDisplayName?: string } | null };
    const displayNameLookups = async (): Promise<string[]> => ((await emu.control('requests?since=0')) as { entries: Entry[] }).entries
      .filter((e) => e.operation?.endsWith('/GetUserAccountInfo') === true && e.request?.TitleDisplayName !== undefined).map((e) => e.titleId ?? '?');
    const ids = [{ kind: 'displayname' as const, value: 'Ace' }, { kind: 'email' as const, value: 'ace@account.example' }];
    const store = await RequestStore.open(join(dir, 'store'), { auth: authWith(KEYS) });
    await assert.rejects(createRequest(store, { reference: 'TICKET-33', asks: ['access'], identifiers: ids, titles: ['D15A'], endpoint: emu.endpoint, displayNamesNotUnique: ['E2B0'] }),
      /"E2B0": a title said to allow non-unique display names must be one of the request's titles \(D15A\)/);
    await emu.control('requests/clear', {});
    const both = await createRequest(store, { reference: 'TICKET-33', asks: ['access'], identifiers: ids, titles: ['D15A', 'E2B0'], endpoint: emu.endpoint, displayNamesNotUnique: ['d15a'] });
    const only = await createRequest(store, { reference: 'TICKET-34', asks: ['access'], identifiers: ids, titles: ['D15A'], endpoint: emu.endpoint, displayNamesNotUnique: ['D15A'] });
    const services = servicesOn(emu, KEYS);
    try {
      const d = await dryRun(store, both.id, services);
      assert.deepEqual(d.lookupsSkipped, [{ identifier: ids[0], titleId: 'D15A', reason: DISPLAY_NAME_SKIPPED }]);
      assert.deepEqual(d.notFound, [ids[0]], 'asked in E2B0, where it found nothing');
      const o = await dryRun(store, only.id, services);
      assert.deepEqual(o.lookupsSkipped.map((x) => x.titleId), ['D15A']);
      assert.deepEqual(o.notFound, [], 'asked nowhere: not "found in no title"');
      assert.equal(o.accounts.length, 1, 'the e-mail is still looked up there');
    } finally {
      await services.close();
    }
    assert.deepEqual(await displayNameLookups(), ['E2B0'], 'the only display-name lookup went to the title with unique names');

    const file = join(dir, 'ids.txt');
    writeFileSync(file, `${ids.map((x) => `${x.kind}:${x.value}`).join('\n')}\n`);
    const env = Object.fromEntries(Object.entries(KEYS).map(([t, k]) => [`PLATFORM_SECRET_KEY_${t}`, k]));
    const cliStore = join(dir, 'cli-store');
    const args = ['request', 'new', '--store', cliStore, '--reference', 'TICKET-33', '--asks', 'access', '--identifiers', file, '--titles', 'D15A,E2B0', '--endpoint', emu.endpoint, '--json'];
    const stray = await runCli([...args, '--non-unique-display-names', 'F71AC'], env);
    assert.equal(stray.code, 2);
    assert.match(stray.stderr, /--non-unique-display-names: F71AC is not one of --titles \(D15A, E2B0\)/);
    await emu.control('requests/clear', {});
    const made = await runCli([...args, '--non-unique-display-names', 'd15a'], env);
    assert.equal(made.code, 0, made.stderr);
    const dry = await runCli(['request', 'run', '--store', cliStore, '--id', (JSON.parse(made.stdout) as { id: string }).id, '--dry-run'], env);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^Not looked up in title D15A: displayname:Ace \(not looked up: this title allows non-unique display names, where the service always answers AccountNotFound to a display-name lookup\)$/m);
    assert.deepEqual(await displayNameLookups(), ['E2B0']);
  });
});
