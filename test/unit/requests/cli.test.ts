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

  it('runs a request through to verified evidence; a tampered evidence line then fails verify-evidence', async () => {
    const all = await players(f.emu);
    const ana = all.find((p) => p.email !== null && p.storefrontNames.length > 0 && p.titlesPlayed.length === 2)!;
    const store = join(f.dir, 'store');
    const ids = join(f.dir, 'ids.txt');
    writeFileSync(ids, `# ticket text: "my e-mail is ${ana.email}, my Storefront name is ${ana.storefrontNames[0]}"\nemail:${ana.email}\nstorefront:${ana.storefrontNames[0]}\ndisplayname:No Such Racer\n`);
    const made = await req(['new', '--store', store, '--reference', 'TICKET-18', '--asks', 'access,erasure', '--identifiers', ids, '--titles', 'F71AC,A248', '--endpoint', f.counter.endpoint, '--received', '2026-11-01', '--json']);
    assert.equal(made.code, 0, made.stderr);
    const id = json(made).id as string;
    assert.match(id, /^dr-20261101-[0-9a-f]{6}$/);

    const dry = await req(['run', '--store', store, '--id', id, '--dry-run', '--json']);
    assert.equal(dry.code, 0, dry.stderr);
    const plan = json(dry);
    assert.deepEqual(plan.accounts.map((a: { platformId: string }) => a.platformId), [ana.PlatformId], 'one master account for both identifiers and both titles');
    assert.equal(plan.due, '2026-12-01');
    assert.equal((await servedPer(f.emu)).get('ExportMasterPlayerData') ?? 0, 0, 'the dry run sends no action');

    const wrong = await req(['run', '--store', store, '--id', id, '--confirm', String(plan.accounts.length + 1)]);
    assert.equal(wrong.code, 2, 'a wrong --confirm is bad usage');
    assert.match(wrong.stderr, /does not match: request .* acts on 1 account\(s\)\. Nothing was sent/);

    const run1 = await req(['run', '--store', store, '--id', id, '--confirm', String(plan.accounts.length), '--json']);
    assert.equal(run1.code, 0, run1.stderr);
    const exp = json(run1).actions.find((a: { kind: string }) => a.kind === 'export');
    assert.equal(exp.status, 'queued');

    // The emulator completes the export; verify reads its event where the emulator has one, else the link is pasted.
    await f.emu.control('clock/advance', { ms: 700_000 });
    const v1 = await req(['verify', '--store', store, '--id', id, '--json']);
    assert.equal(v1.code, 1, 'not complete: the erasure is not sent yet');
    const still = json(v1).actions.find((a: { kind: string }) => a.kind === 'export');
    if (still.status !== 'completed') {
      const rec = await req(['record-export', '--store', store, '--id', id, '--receipt', exp.jobReceiptId, '--url', 'https://downloads.example/e/1']);
      assert.equal(rec.code, 0, rec.stderr);
    }
    const run2 = await req(['run', '--store', store, '--id', id, '--confirm', '1', '--json']);
    assert.equal(run2.code, 0, run2.stderr);
    assert.equal(json(run2).sent.erasure, 1);
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

    const served = await servedPer(f.emu);
    assert.equal(served.get(`ExportMasterPlayerData ${ana.PlatformId}`), 1, 'one export for the account, not one per title');
    assert.equal(served.get(`DeleteMasterPlayerAccount ${ana.PlatformId}`), 1, 'one erasure for the account, not one per title');
    for (const r of [made, dry, run1, v1, run2, v2, closed, ok, shown]) noKey(r);
    for (const n of readdirSync(join(store, id))) {
      const text = readFileSync(join(store, id, n), 'utf8');
      for (const key of Object.values(KEYS)) assert.ok(!text.includes(key), `${n} holds no key`);
    }

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
    const early = await req(['run', '--store', store, '--id', json(made).id, '--confirm', '1'], { PLATFORM_SECRET_KEY: KEYS.F71AC });
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
