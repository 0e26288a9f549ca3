// The command line's record of earlier deletions, attacked as a red-team review did: --receipts
// pointed at a journal (it erased the record, and the players were sent again), journals under
// another name than *.jsonl, and a journal of the title that no longer authenticates (a rotated
// key) skipped without a word. Each now keeps the record or stops before any send, saying why.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Journal, JOURNAL_VERSION } from '../../../src/core/deletion';
import { CLI_ANCHORS, confirmOf, PLAYERS, runCli, TITLE, useCountingEmulator } from './support';

describe('cli: earlier batches are never forgotten', () => {
  const f = useCountingEmulator('pe-ledger-');
  const ids = PLAYERS.slice(0, 3).map((p) => p.platformId);
  beforeEach(() => writeFileSync(join(f.dir, 'ids.txt'), ids.join('\n')));

  const del = (journal: string, ...more: string[]): string[] => ['delete-players', '--title', TITLE.titleId, '--endpoint', f.counter.endpoint,
    '--journal', join(f.dir, journal), '--kind', 'platform-id', '--input', join(f.dir, 'ids.txt'), ...more];
  async function send(journal: string, ...more: string[]): Promise<void> {
    const r = await runCli(del(journal, '--confirm', await confirmOf(del(journal)), ...more));
    assert.equal(r.code, 0, r.stderr);
  }

  it('--receipts that is a journal (this batch\'s or an earlier one\'s) is refused and the journal kept', async () => {
    await send('first.jsonl');
    const before = readFileSync(join(f.dir, 'first.jsonl'), 'utf8');
    for (const receipts of ['first.jsonl', 'second.jsonl']) {
      const r = await runCli(del('second.jsonl', '--dry-run', '--receipts', join(f.dir, receipts === 'second.jsonl' ? 'first.jsonl' : receipts)));
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /--receipts .* is a deletion journal; writing receipts there would erase the record/);
    }
    const same = await runCli(del('third.jsonl', '--dry-run', '--receipts', join(f.dir, 'third.jsonl')));
    assert.equal(same.code, 2);
    assert.match(same.stderr, /is the --journal file/);
    assert.equal(readFileSync(join(f.dir, 'first.jsonl'), 'utf8'), before);
  });

  it('a journal under any file name counts: its players are already queued, not planned again', async () => {
    await send('deletion-F71AC.journal');
    const sent = f.counter.sends.size;
    const again = await runCli(del('next.jsonl', '--dry-run'));
    assert.match(again.stdout, /To delete: 0 /, again.stdout);
    assert.match(again.stdout, /Already queued: 3/, again.stdout);
    assert.equal(f.counter.sends.size, sent, 'nothing sent again');
  });

  it('a journal of the title that does not authenticate (a rotated key) stops the batch before any send, naming it; another title\'s journal is left alone', async () => {
    const entries = ids.map((platformId, i) => ({ line: i + 1, input: platformId, platformId, status: 'delete' as const, titleIds: [TITLE.titleId] }));
    const old = await Journal.open(join(f.dir, 'old.jsonl'), {
      key: 'ROTATEDOLDKEY0123456789ABCDEFGHIJKLMNOPQRSTU',
      anchors: CLI_ANCHORS,
      create: { type: 'batch', version: JOURNAL_VERSION, batchId: 'old', titleId: TITLE.titleId, kind: 'platform-id', createdAt: new Date().toISOString(), entries },
    });
    await old.close();
    const other = await Journal.open(join(f.dir, 'other-title.jsonl'), {
      key: 'OTHERTITLEKEY0123456789ABCDEFGHIJKLMNOPQRSTU',
      anchors: CLI_ANCHORS,
      create: { type: 'batch', version: JOURNAL_VERSION, batchId: 'other', titleId: 'A248', kind: 'platform-id', createdAt: new Date().toISOString(), entries: [] },
    });
    await other.close();
    const dry = await runCli(del('new.jsonl', '--dry-run'));
    assert.equal(dry.code, 1, dry.stderr);
    assert.match(dry.stderr, /Earlier journals of title F71AC in .* could not all be read[^]*old\.jsonl/);
    assert.doesNotMatch(dry.stderr, /other-title\.jsonl/, 'another title\'s journal is not this title\'s record');
    const confirm = /To send: --confirm (\S+)/.exec(dry.stdout)![1];
    const r = await runCli(del('new.jsonl', '--confirm', confirm));
    assert.equal(r.code, 1, r.stderr);
    assert.equal(f.counter.sends.size, 0, 'nothing sent while an earlier journal cannot be read');
  });
});
