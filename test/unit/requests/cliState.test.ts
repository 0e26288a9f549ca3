// Issue 29 with the built CLI (child processes) on the emulator (real HTTP on 127.0.0.1): request.json
// edited between the dry run and the run is refused naming the file (nothing sent); the dry run ends
// "To send: --confirm N:DIGEST"; a value of another request is refused without echoing the right one;
// another XDG_STATE_HOME needs --no-anchor (request run and delete-players --resume); withdraw and
// --hold-days send nothing more / nothing early. Sends are counted at the emulator.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { confirmOf, runCli, TITLE, useCountingEmulator, PLAYERS, type CliRun } from '../deletion/support';
import { KEY_ENV, players, servedPer } from './support';

describe('requests: the command line keeps the state file, the confirmation and the anchors honest', function () {
  this.timeout(90_000);
  const f = useCountingEmulator('pe-reqstate-');
  beforeEach(async () => { await f.emu.control('requests/clear', {}); });
  const req = (args: string[], env: Record<string, string | undefined> = KEY_ENV): Promise<CliRun> => runCli(['request', ...args], env);
  const sent = async (op: string): Promise<number> => (await servedPer(f.emu)).get(op) ?? 0;

  async function made(o: { asks?: string; extra?: string[] } = {}): Promise<{ store: string; id: string; email: string; platformId: string }> {
    const ana = (await players(f.emu)).find((p) => p.email !== null && p.titlesPlayed.includes('F71AC'))!;
    const store = join(f.dir, 'store');
    const ids = join(f.dir, 'ids.txt');
    writeFileSync(ids, `email:${ana.email}\n`);
    const r = await req(['new', '--store', store, '--reference', 'STATE-1', '--asks', o.asks ?? 'erasure', '--identifiers', ids, '--titles', 'F71AC', '--endpoint', f.counter.endpoint, '--json', ...(o.extra ?? [])]);
    assert.equal(r.code, 0, r.stderr);
    return { store, id: (JSON.parse(r.stdout) as { id: string }).id, email: ana.email!, platformId: ana.PlatformId };
  }

  it('request.json edited between the dry run and the run: refused naming the file, nothing sent; the dry run ends with "To send: --confirm N:DIGEST"', async () => {
    const { store, id, platformId } = await made();
    const dry = await req(['run', '--store', store, '--id', id, '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    const m = /\nTo send: --confirm (1:[0-9a-f]{12})\n$/.exec(dry.stdout);
    assert.ok(m, `the last line: ${dry.stdout}`);
    const file = join(store, id, 'request.json');
    const victim = (await players(f.emu)).find((p) => p.PlatformId !== platformId && p.titlesPlayed.includes('F71AC'))!;
    writeFileSync(file, readFileSync(file, 'utf8').split(platformId).join(victim.PlatformId));
    const run = await req(['run', '--store', store, '--id', id, '--confirm', m[1]]);
    assert.equal(run.code, 1);
    // (The path is matched loosely: the CLI's output masking may still hide part of a random temp path; issue 29 has that fixed elsewhere.)
    assert.match(run.stderr, new RegExp(`^Request ${id}: its state file \\S*json was changed by something other than Platform Explorer \\(an edit, a planted or replaced file\\): its seal does not match its content\\. Nothing was sent\\. Restore the file from your backup`));
    assert.ok(file.endsWith(join(id, 'request.json')));
    assert.equal(await sent('DeleteMasterPlayerAccount'), 0);
    assert.equal(f.counter.sends.size, 0);
  });

  it('a confirm value of another request is refused (exit 2) and the right one is never echoed; --json carries confirm', async () => {
    const a = await made();
    const b = await made();
    const da = JSON.parse((await req(['run', '--store', a.store, '--id', a.id, '--dry-run', '--json'])).stdout) as { confirm: string };
    const db = JSON.parse((await req(['run', '--store', b.store, '--id', b.id, '--dry-run', '--json'])).stdout) as { confirm: string };
    assert.match(da.confirm, /^1:[0-9a-f]{12}$/);
    const reuse = await req(['run', '--store', b.store, '--id', b.id, '--confirm', da.confirm]);
    assert.equal(reuse.code, 2);
    assert.match(reuse.stderr, /^--confirm: The confirmation does not match what request .* acts on now/);
    assert.ok(!reuse.stderr.includes(db.confirm.split(':')[1]) && !reuse.stdout.includes(db.confirm.split(':')[1]));
    assert.equal(await sent('DeleteMasterPlayerAccount'), 0);
  });

  it('another XDG_STATE_HOME: the run is refused saying why until --no-anchor; withdraw then sends nothing more', async () => {
    const { store, id } = await made({ asks: 'access,erasure' });
    const { confirm } = JSON.parse((await req(['run', '--store', store, '--id', id, '--dry-run', '--json'])).stdout) as { confirm: string };
    const elsewhere = mkdtempSync(join(tmpdir(), 'pe-other-state-'));
    try {
      const env = { ...KEY_ENV, XDG_STATE_HOME: elsewhere };
      const refused = await req(['run', '--store', store, '--id', id, '--confirm', confirm], env);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, new RegExp(`its state file \\S*json has no anchor here \\(it was last written with its anchors in .*, and this run keeps them in \\S+: another state folder .*Nothing was sent\\. If this is the newest copy, run again with --no-anchor`));
      assert.equal(await sent('ExportMasterPlayerData'), 0);
      const accepted = await req(['run', '--store', store, '--id', id, '--confirm', confirm, '--no-anchor', '--json'], env);
      assert.equal(accepted.code, 0, accepted.stderr);
      assert.match(accepted.stderr, /used as it is \(--no-anchor\) and anchored here from now on/);
      assert.equal(await sent('ExportMasterPlayerData'), 1);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
    const w = await req(['withdraw', '--store', store, '--id', id, '--reason', 'called off by the person']);
    assert.equal(w.code, 0, w.stderr);
    assert.match(w.stdout, /withdrawn .*: nothing more is sent for it\. Next: withdrawn: verify what was sent, then close it\./);
    const after = await req(['run', '--store', store, '--id', id, '--confirm', confirm]);
    assert.equal(after.code, 1);
    assert.match(after.stderr, /was withdrawn .*nothing more is sent for it/);
    assert.equal(await sent('DeleteMasterPlayerAccount'), 0);
  });

  it('--hold-days: the dry run says until when; the erasure is not sent before the hold ends', async () => {
    const { store, id } = await made({ extra: ['--hold-days', '7'] });
    const dry = await req(['run', '--store', store, '--id', id, '--dry-run']);
    assert.match(dry.stdout, /\nErasures held until \d{4}-\d{2}-\d{2} \d{2}:\d{2} [^ ]+ \(a hold of 7 days\): they stay planned until then; exports are sent now\.\n/);
    const confirm = /To send: --confirm (\S+)/.exec(dry.stdout)![1];
    const run = await req(['run', '--store', store, '--id', id, '--confirm', confirm, '--json']);
    assert.equal(run.code, 1, 'not done: the erasure is held');
    assert.match((JSON.parse(run.stdout) as { heldUntil: string }).heldUntil, /^\d{4}-/);
    assert.equal(await sent('DeleteMasterPlayerAccount'), 0);
    const bad = await req(['new', '--store', store, '--reference', 'X', '--asks', 'erasure', '--identifiers', join(f.dir, 'ids.txt'), '--titles', 'F71AC', '--endpoint', f.counter.endpoint, '--hold-days', '-1']);
    assert.equal(bad.code, 2);
  });

  it('delete-players --resume of a journal with no anchor here (another XDG_STATE_HOME) is refused until --no-anchor', async () => {
    const input = join(f.dir, 'players.txt');
    writeFileSync(input, `${PLAYERS[0].platformId}\n`);
    const journal = join(f.dir, 'batch.jsonl');
    const args = ['delete-players', '--title', TITLE.titleId, '--endpoint', f.counter.endpoint, '--kind', 'platform-id', '--input', input, '--journal', journal];
    const first = await runCli([...args, '--confirm', await confirmOf(args)]);
    assert.equal(first.code, 0, first.stderr);
    const elsewhere = mkdtempSync(join(tmpdir(), 'pe-other-state-'));
    try {
      const env = { PLATFORM_SECRET_KEY: TITLE.secretKey, XDG_STATE_HOME: elsewhere };
      const resume = ['delete-players', '--title', TITLE.titleId, '--endpoint', f.counter.endpoint, '--kind', 'platform-id', '--journal', journal, '--resume'];
      const dry = await runCli([...resume, '--dry-run'], env);
      assert.equal(dry.code, 1);
      assert.match(dry.stderr, /has no anchor in \S+ \(no batch was ever anchored there: a new machine, another HOME or XDG_STATE_HOME \(sudo\), or its anchors were removed\).*Nothing was sent and the file was not changed\. If it is the newest copy, resume it with --no-anchor/);
      const ok = await runCli([...resume, '--dry-run', '--no-anchor'], env);
      assert.equal(ok.code, 0, ok.stderr);
      assert.equal(f.counter.sends.get(PLAYERS[0].platformId.toUpperCase()), 1, 'sent once, never again');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
