// The `request` commands end to end with the built CLI on the emulator (real HTTP on 127.0.0.1):
// new -> run --dry-run -> run --confirm N -> the emulator completes -> verify -> the export's link
// (event or record-export) -> run (erasures) -> verify -> close -> verify-evidence; exit codes 0/1/2.
import * as assert from 'node:assert/strict';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, useCountingEmulator, type CliRun } from '../deletion/support';
import { KEY_ENV, KEYS, players, servedPer } from './support';

describe('requests: the command line', function () {
  this.timeout(90_000);
  const f = useCountingEmulator('pe-reqcli-');
  beforeEach(async () => { await f.emu.control('requests/clear', {}); });

  const req = (args: string[], env: Record<string, string | undefined> = KEY_ENV): Promise<CliRun> => runCli(['request', ...args], env);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const json = (r: CliRun): any => {
    try {
      return JSON.parse(r.stdout);
    } catch {
      throw new Error(`not JSON (exit ${r.code}): ${r.stdout} ${r.stderr}`);
    }
  };
  const noKey = (r: CliRun): void => {
    for (const key of Object.values(KEYS)) assert.ok(!r.stdout.includes(key) && !r.stderr.includes(key), 'no key is printed');
  };

  it('runs a request through to verified evidence (one export link from the e-mail, one from the event); a tampered evidence line then fails verify-evidence', async () => {
    const all = await players(f.emu);
    // A person with an account in each of two publishers: the same e-mail in both.
    const ana = all.find((p) => p.email !== null && p.storefrontNames.length > 0 && all.some((q) => q.publisherId !== p.publisherId && q.email === p.email))!;
    const accounts = all.filter((p) => p.email === ana.email);
    const titles = [...new Set(['F71AC', 'A248', ...accounts.flatMap((p) => p.titlesPlayed)])];
    const store = join(f.dir, 'store');
    const ids = join(f.dir, 'ids.txt');
    writeFileSync(ids, `# ticket text: "my e-mail is ${ana.email}, my Storefront name is ${ana.storefrontNames[0]}"\nemail:${ana.email}\nstorefront:${ana.storefrontNames[0]}\ndisplayname:No Such Racer\n`);
    const made = await req(['new', '--store', store, '--reference', 'TICKET-18', '--asks', 'access,erasure', '--identifiers', ids, '--titles', titles.join(','), '--endpoint', f.counter.endpoint, '--received', '2026-11-01', '--json']);
    assert.equal(made.code, 0, made.stderr);
    const id = json(made).id as string;
    assert.match(id, /^dr-20261101-[0-9a-f]{6}$/);

    const dry = await req(['run', '--store', store, '--id', id, '--dry-run', '--json']);
    assert.equal(dry.code, 0, dry.stderr);
    const plan = json(dry);
    assert.deepEqual(plan.accounts.map((a: { platformId: string }) => a.platformId).sort(), accounts.map((p) => p.PlatformId).sort(), 'one master account per publisher, whichever identifiers and titles found it');
    assert.equal(plan.due, '2026-12-01');
    assert.deepEqual(plan.notFound, [{ kind: 'displayname', value: 'No Such Racer' }]);
    assert.equal((await servedPer(f.emu)).get('ExportMasterPlayerData') ?? 0, 0, 'the dry run sends no action');
    const n = plan.accounts.length as number;

    assert.match(plan.confirm, new RegExp(`^${n}:[0-9a-f]{12}$`));
    const wrong = await req(['run', '--store', store, '--id', id, '--confirm', `${n}:000000000000`]);
    assert.equal(wrong.code, 2, 'a wrong --confirm is bad usage');
    assert.match(wrong.stderr, /^--confirm: The confirmation does not match what request .* acts on now .*Nothing was sent/);
    assert.ok(!wrong.stderr.includes(plan.confirm.split(':')[1]), 'the right value is never echoed');

    const run1 = await req(['run', '--store', store, '--id', id, '--confirm', plan.confirm, '--json']);
    assert.equal(run1.code, 0, run1.stderr);
    const exports = json(run1).actions.filter((a: { kind: string }) => a.kind === 'export') as { platformId: string; status: string; jobReceiptId: string }[];
    assert.deepEqual(exports.map((a) => a.status), exports.map(() => 'queued'));

    // The emulator completes the exports: the first link is pasted from the e-mail, the other comes from the event.
    await f.emu.control('clock/advance', { ms: 700_000 });
    const mail = ((await f.emu.control('outbox')) as { messages: { subject?: string; body?: string }[] }).messages
      .find((m) => JSON.stringify(m).includes(exports[0].jobReceiptId))!;
    const url = /https?:\/\/\S+/.exec(JSON.stringify(mail).replace(/\\n/g, ' '))![0].replace(/["\\]+$/, '');
    const linkFile = join(f.dir, 'link.txt');
    writeFileSync(linkFile, `${url}\n`, { mode: 0o600 });
    const rec = await req(['record-export', '--store', store, '--id', id, '--receipt', exports[0].jobReceiptId, '--url-file', linkFile]);
    assert.equal(rec.code, 0, rec.stderr);
    const v1 = await req(['verify', '--store', store, '--id', id, '--json']);
    assert.equal(v1.code, 1, 'not complete: the erasures are not sent yet');
    const by = Object.fromEntries(json(v1).actions.filter((a: { kind: string }) => a.kind === 'export').map((a: { platformId: string; completedBy: string }) => [a.platformId, a.completedBy]));
    assert.equal(by[exports[0].platformId], 'recorded');
    for (const e of exports.slice(1)) assert.equal(by[e.platformId], 'event', 'completed from the player_data_exported event');

    const run2 = await req(['run', '--store', store, '--id', id, '--confirm', plan.confirm, '--json']);
    assert.equal(run2.code, 0, run2.stderr);
    assert.equal(json(run2).sent.erasure, n);
    await f.emu.control('clock/advance', { ms: 700_000 });
    const v2 = await req(['verify', '--store', store, '--id', id, '--json']);
    assert.equal(v2.code, 0, v2.stderr);
    assert.equal(json(v2).state, 'completed');

    const closed = await req(['close', '--store', store, '--id', id, '--json']);
    assert.equal(closed.code, 0, closed.stderr);
    const ok = await req(['verify-evidence', '--store', store, '--id', id, '--json']);
    assert.equal(ok.code, 0, ok.stdout);
    assert.equal(json(ok).ok, true);

    const shown = await req(['show', '--store', store, '--json']);
    assert.equal(shown.code, 0);
    assert.deepEqual(json(shown).requests.map((r: { id: string; state: string }) => [r.id, r.state]), [[id, 'closed']]);

    const served = await servedPer(f.emu, { accepted: true });
    for (const p of accounts) {
      assert.equal(served.get(`ExportMasterPlayerData ${p.PlatformId}`), 1, 'one export per account, not one per title');
      assert.equal(served.get(`DeleteMasterPlayerAccount ${p.PlatformId}`), 1, 'one erasure per account, not one per title');
    }
    for (const r of [made, dry, run1, rec, v1, run2, v2, closed, ok, shown]) noKey(r);
    for (const name of readdirSync(join(store, id))) {
      const text = readFileSync(join(store, id, name), 'utf8');
      for (const key of Object.values(KEYS)) assert.ok(!text.includes(key), `${name} holds no key`);
    }
    assert.ok(!readFileSync(join(store, id, 'evidence.json'), 'utf8').includes(url), 'the evidence keeps no download link');

    const path = join(store, id, 'evidence.json');
    const lines = readFileSync(path, 'utf8').split('\n');
    const i = lines.findIndex((l) => l.includes('"type":"outcome"'));
    lines[i] = lines[i].replace('"outcome":"queued"', '"outcome":"failed"');
    writeFileSync(path, lines.join('\n'));
    const bad = await req(['verify-evidence', '--store', store, '--id', id]);
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /does NOT hold:\n {2}entry \d+ was changed/);
  });

  it('bad usage exits 2 naming the fix: a key as an argument, a missing flag, a bad identifiers line, --confirm before a dry run', async () => {
    const store = join(f.dir, 'store');
    const ids = join(f.dir, 'ids.txt');
    writeFileSync(ids, 'email:ana@example.com\nphone:555\n');
    const base = ['new', '--store', store, '--reference', 'T', '--asks', 'erasure', '--identifiers', ids, '--titles', 'F71AC', '--endpoint', f.counter.endpoint];
    const key = await req([...base, '--secret-key', 'x']);
    assert.equal(key.code, 2);
    assert.match(key.stderr, /--secret-key is not accepted: .* Set PLATFORM_SECRET_KEY_<TITLEID>/);
    const missing = await req(['run', '--store', store, '--dry-run']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--id is required for request run/);
    const badLine = await req(base);
    assert.equal(badLine.code, 2);
    assert.match(badLine.stderr, /line 2: "phone:555" does not start with a kind; write kind:value/);
    writeFileSync(ids, 'email:ana@example.com\n');
    const made = await req([...base, '--json'], { PLATFORM_SECRET_KEY: KEYS.F71AC });
    assert.equal(made.code, 0, made.stderr);
    const early = await req(['run', '--store', store, '--id', json(made).id, '--confirm', '1:0123456789ab'], { PLATFORM_SECRET_KEY: KEYS.F71AC });
    assert.equal(early.code, 2);
    assert.match(early.stderr, /has had no dry run: run request run --dry-run first/);
    const nosuch = await req(['show', '--store', store, '--id', 'dr-20260101-abcdef']);
    assert.equal(nosuch.code, 1);
    assert.match(nosuch.stderr, /no such request/);
    // The store is refused when others could write it (a planted request or evidence would be obeyed).
    chmodSync(store, 0o777);
    const open = await req(['show', '--store', store]);
    assert.equal(open.code, 2);
    assert.match(open.stderr, /--store .*: the folder .* is writable by group or others \(mode 777\); run chmod go-w on it/);
    chmodSync(store, 0o700);
  });
});
