// The command line end to end: the built dist/cli.js in a child process, real HTTP to the emulator on 127.0.0.1.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { confirmOf, PLAYERS, runCli, TestEmulator, TITLE } from './support';

describe('cli: platform-explorer delete-players / verify-deletions', () => {
  let emu: TestEmulator;
  let dir: string;
  let input: string;
  let journal: string;
  const ids = PLAYERS.slice(0, 5).map((p) => p.platformId);
  before(async () => { emu = await TestEmulator.start(); });
  after(async () => { await emu.close(); });
  beforeEach(async () => {
    await emu.control('reset', {});
    dir = mkdtempSync(join(tmpdir(), 'pe-cli-'));
    input = join(dir, 'ids.txt');
    journal = join(dir, 'journal.jsonl');
    writeFileSync(input, [...ids, 'not-an-id', ids[0]].join('\n') + '\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const base = (): string[] => ['--title', TITLE.titleId, '--endpoint', emu.endpoint, '--journal', journal];
  const del = (...more: string[]): string[] => ['delete-players', ...base(), '--kind', 'platform-id', '--input', input, ...more];

  it('--help exits 0; bad usage exits 2 with a message naming the option and sends nothing', async () => {
    const help = await runCli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /delete-players --title ID --endpoint TEMPLATE --kind platform-id\|consolelive\|storefront/);
    assert.match(help.stdout, /PLATFORM_SECRET_KEY/);
    const cases: [string[], RegExp][] = [
      [['delete-players', '--title', TITLE.titleId], /--endpoint is required/],
      [del(), /exactly one of --dry-run .* or --confirm N:DIGEST/],
      [del('--confirm', 'all'), /--confirm takes the value on the dry run's last line/],
      [del('--confirm', '5'), /--confirm takes the value on the dry run's last line/],
      [del('--dry-run', '--key', TITLE.secretKey), /--key is not accepted.*PLATFORM_SECRET_KEY/],
      [['delete-players', '--title', 'F7.AC', '--endpoint', emu.endpoint], /--title: Title ID/],
      [['erase'], /Unknown command "erase"/],
      [del('--dry-run', '--kind', 'email'), /given twice/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.ok(!r.stderr.includes(TITLE.secretKey) && !r.stdout.includes(TITLE.secretKey), 'the key is never printed');
    }
    const noKey = await runCli(del('--dry-run'), {});
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /PLATFORM_SECRET_KEY is not set/);
    assert.equal((await emu.control('stats')).total, 0, 'no request was sent');
  });

  it('--dry-run prints the plan (text and JSON) and sends no deletion', async () => {
    const text = await runCli(del('--dry-run'));
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /To delete: 5 · .* Duplicate: 1 · Invalid format: 1/);
    assert.match(text.stdout, /\nTo send: --confirm 5:[0-9a-f]{12}\n$/, 'the dry run ends with the value that sends it');
    const json = await runCli(del('--dry-run', '--json'));
    assert.equal(JSON.parse(json.stdout).counts.delete, 5);
    assert.equal(`To send: --confirm ${JSON.parse(json.stdout).confirm}`, /To send: .*/.exec(text.stdout)![0]);
    assert.equal((await emu.jobs()).length, 0);
  });

  it('--confirm must be the dry run\'s value or nothing is sent; then it deletes, writes receipts, and verify-deletions tracks completion', async () => {
    const confirm = await confirmOf(del());
    for (const value of ['7:0123456789ab', `5:${'0'.repeat(12)}`]) {
      const wrong = await runCli(del('--confirm', value));
      assert.equal(wrong.code, 2);
      assert.match(wrong.stderr, /--confirm does not match this plan/);
      assert.ok(!wrong.stderr.includes(confirm) && !wrong.stdout.includes(confirm.split(':')[1]), 'the refusal never shows the value that would pass');
    }
    assert.equal((await emu.jobs()).length, 0);

    const receipts = join(dir, 'receipts.csv');
    const run = await runCli(del('--confirm', confirm, '--metadata', 'TICKET-9', '--receipts', receipts));
    assert.equal(run.code, 0, run.stderr);
    const jobs = await emu.jobs();
    assert.deepEqual(jobs.map((j) => j.PlatformId).sort(), [...ids].sort());
    assert.ok(jobs.every((j) => j.MetaData === 'TICKET-9'));
    assert.match(run.stdout, /^INPUT\s+PLATFORMID\s+STATE\s+JOBRECEIPTID/);
    for (const j of jobs) assert.match(run.stdout, new RegExp(`${j.PlatformId}\\s+queued\\s+${j.JobReceiptId}`));
    const csv = readFileSync(receipts, 'utf8');
    for (const j of jobs) assert.ok(csv.includes(j.JobReceiptId));

    const again = await runCli(del('--confirm', confirm, '--json', '--resume'));
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /Resuming batch [0-9a-f-]{36} of title F71AC, ticket TICKET-9, started \d{4}-\d\d-\d\d \d\d:\d\d UTC: 5 players, 5 queued, 0 not sent/);
    assert.equal((await emu.jobs()).length, 5, 'rerunning resumes from the journal: nothing sent twice');
    const rows = again.stdout.trim().split('\n').map((l) => JSON.parse(l) as { state: string });
    assert.equal(rows.length, 5);

    const v = ['verify-deletions', ...base()];
    const pending = await runCli(v);
    assert.equal(pending.code, 1, 'not verified while the jobs are queued');
    assert.match(pending.stderr, /0 of 5 verified deleted; 5 still queued/);
    await emu.control('clock/advance', { ms: 600_000 });
    const done = await runCli([...v, '--json']);
    assert.equal(done.code, 0, done.stderr);
    const verified = done.stdout.trim().split('\n').map((l) => JSON.parse(l) as { state: string });
    assert.ok(verified.every((r) => r.state === 'verified-deleted'));
  });

  it('a wrong key exits 1 with the service\'s reason and no key in the output', async () => {
    const r = await runCli(del('--dry-run'), { PLATFORM_SECRET_KEY: 'WRONGKEYWRONGKEYWRONGKEY' });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /secret key/i);
    assert.ok(!r.stderr.includes('WRONGKEYWRONGKEYWRONGKEY'));
  });
});
