// The command line's files attacked: a file planted at --journal, a forged or changed journal line,
// files of another user, writable by others or reached through a symlink, and a planted receipts
// file read as the ledger. Each is refused with a message naming the file and the fix; nothing is sent.
import * as assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { confirmOf, PLAYERS, runCli, TITLE, useCountingEmulator, type SendCounter } from './support';

describe('cli: the files its paths lead to', () => {
  const f = useCountingEmulator('pe-files-');
  let counter: SendCounter;
  let dir: string;
  let input: string;
  let journal: string;
  const ids = PLAYERS.slice(0, 5).map((p) => p.platformId);
  beforeEach(() => {
    ({ counter, dir } = f);
    input = join(dir, 'ids.txt');
    journal = join(dir, 'journal.jsonl');
    writeFileSync(input, ids.join('\n'));
  });

  const del = (...more: string[]): string[] => ['delete-players', '--title', TITLE.titleId, '--endpoint', counter.endpoint, '--journal', journal, '--kind', 'platform-id', '--input', input, ...more];
  const nothingSent = (): void => assert.equal(counter.sends.size, 0, 'no deletion was sent');

  it('a file already at --journal is refused without --resume (also under --json), naming it and the fix, and is left as it was', async () => {
    const confirm = await confirmOf(del());
    // Another batch's journal (here: a one-line file someone put there).
    writeFileSync(journal, `${JSON.stringify({ type: 'batch', version: 3, batchId: 'x', titleId: TITLE.titleId, kind: 'platform-id', createdAt: 't', entries: [] })}\n`, { mode: 0o600 });
    const before = readFileSync(journal, 'utf8');
    for (const more of [[], ['--json'], ['--dry-run']]) {
      const r = await runCli(del(...(more[0] === '--dry-run' ? more : ['--confirm', confirm, ...more])));
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`--journal ${journal} already exists\\. To resume the batch it holds, add --resume; for a new batch, give a new --journal file`));
    }
    assert.equal(readFileSync(journal, 'utf8'), before, 'the file is not overwritten');
    nothingSent();
    const help = await runCli(['--help']);
    assert.match(help.stdout, /--resume continues the batch in an existing --journal/);
  });

  it('a journal line without a valid MAC (a forged outcome, a planted plan) stops --resume before any send and says so', async () => {
    const confirm = await confirmOf(del());
    const first = await runCli(del('--confirm', confirm));
    assert.equal(first.code, 0, first.stderr);
    const sent = new Map(counter.sends);
    const good = readFileSync(journal, 'utf8');
    const attacks = [
      good.replace(/"state":"queued"/, '"state":"already-deleted"'),
      good + JSON.stringify({ type: 'outcome', platformId: ids[0], state: 'queued', at: 't' }) + '\n',
      `${JSON.stringify({ type: 'batch', version: 3, batchId: 'x', titleId: TITLE.titleId, kind: 'platform-id', createdAt: 't', entries: [{ line: 1, input: PLAYERS[9].platformId, status: 'delete', platformId: PLAYERS[9].platformId }] })}\n`,
    ];
    for (const text of attacks) {
      writeFileSync(journal, text);
      const r = await runCli(del('--confirm', confirm, '--resume'));
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, new RegExp(`Line \\d+ of the journal ${journal} has no valid MAC: it was not written by Platform Explorer with this title's secret key.*Nothing was sent`));
      const v = await runCli(['verify-deletions', '--title', TITLE.titleId, '--endpoint', counter.endpoint, '--journal', journal]);
      assert.match(v.stderr, /has no valid MAC/);
    }
    assert.deepEqual(counter.sends, sent, 'nothing more was sent');
  });

  it('--resume says what it resumes; --confirm must be that batch\'s value', async () => {
    const confirm = await confirmOf(del());
    const first = await runCli(del('--confirm', confirm, '--metadata', 'SUPPORT-7'));
    assert.equal(first.code, 0, first.stderr);
    const dry = await runCli(del('--resume', '--dry-run'));
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stderr, /Resuming batch [0-9a-f-]{36} of title F71AC, ticket SUPPORT-7, started \d{4}-\d\d-\d\d \d\d:\d\d UTC: 5 players, 5 queued, 0 not sent, 0 sent without an answer \(sent again\), 0 failed\. --input is not read when resuming\./);
    assert.ok(dry.stdout.trimEnd().endsWith(`To send: --confirm ${confirm}`));
    const wrong = await runCli(del('--resume', '--confirm', '5:0123456789ab'));
    assert.equal(wrong.code, 2);
    assert.ok(!wrong.stderr.includes(confirm.split(':')[1]), 'the refusal does not show the value that passes');
    const none = await runCli(del('--resume', '--confirm', confirm).map((a) => (a === journal ? join(dir, 'none.jsonl') : a)));
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--resume: there is no journal at .*none\.jsonl/);
  });

  it('journal and receipts (and their folders) of another user, writable by others, or symbolic links are refused, naming the file and the fix', async () => {
    const confirm = await confirmOf(del());
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    const target = join(elsewhere, 'victim.csv');
    writeFileSync(target, 'keep me\n', { mode: 0o600 });
    const shared = join(dir, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const linkedFolder = join(dir, 'linked');
    symlinkSync(elsewhere, linkedFolder);
    const theirs = join(dir, 'theirs.csv');
    writeFileSync(theirs, 'x\n', { mode: 0o600 });
    const cases: [string[], RegExp][] = [
      [['--receipts', join(dir, 'link.csv')], /--receipts .*link\.csv: the file is a symbolic link, which could lead to another user's file; give the real path/],
      [['--receipts', join(shared, 'r.csv')], /--receipts .*r\.csv: the folder .*shared is writable by group or others \(mode 777\); run chmod go-w on it/],
      [['--receipts', join(linkedFolder, 'r.csv')], /--receipts .*r\.csv: the folder .*linked is a symbolic link/],
      [['--receipts', theirs], /--receipts .*theirs\.csv: the file belongs to another user \(uid 4242\)/],
    ];
    symlinkSync(target, join(dir, 'link.csv'));
    if (process.getuid?.() === 0) chownSync(theirs, 4242, 4242);
    else cases.pop();
    for (const [more, message] of cases) {
      const r = await runCli(del('--confirm', confirm, ...more));
      assert.equal(r.code, 2, `${more.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
    // The journal too: a symlink at --journal, a journal writable by others.
    symlinkSync(target, journal);
    const linked = await runCli(del('--confirm', confirm));
    assert.match(linked.stderr, /--journal .*journal\.jsonl: the file is a symbolic link/);
    rmSync(journal);
    const open = join(shared, 'j.jsonl');
    const r = await runCli(del('--confirm', confirm).map((a) => (a === journal ? open : a)));
    assert.match(r.stderr, /--journal .*j\.jsonl: the folder .*shared is writable by group or others/);
    assert.equal(readFileSync(target, 'utf8'), 'keep me\n', 'nothing was written through a link');
    nothingSent();
  });

  it('a planted receipts file is never read as the ledger: its "queued" player is still deleted', async () => {
    const receipts = join(dir, 'receipts.json');
    writeFileSync(receipts, JSON.stringify({ deletions: ids.map((platformId) => ({ platformId, state: 'queued', requestedAt: 't', titleIds: [] })) }), { mode: 0o600 });
    const dry = await runCli(del('--dry-run', '--receipts', receipts));
    assert.match(dry.stdout, /To delete: 5 ·.*Already queued: 0/);
    const r = await runCli(del('--confirm', await confirmOf(del()), '--receipts', receipts));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual([...counter.sends.keys()].sort(), [...ids].sort());
    // The ledger is the journals the tool wrote: a later batch in the same folder skips the queued players.
    const again = await runCli(del('--dry-run').map((a) => (a === journal ? join(dir, 'second.jsonl') : a)));
    assert.match(again.stdout, /To delete: 0 · Already queued: 5/);
  });
});
