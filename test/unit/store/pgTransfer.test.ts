// store import / store export on a real PostgreSQL: a folder of journals written by the CLI moved
// into the store (each checked before by the journal's MAC and anchor checks, read back after), a
// batch already there or a journal changed by one byte refused (nothing imported), the imported
// batch continued with --store postgres (nothing sent again), and the store's batches exported by
// the auditor as journals that the journal check and verify-deletions accept.
import * as assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { confirmValue, Journal, replay, type AnchorStore } from '../../../src/core/deletion';
import { canonical } from '../../../src/core/store/rows';
import { confirmOf, PLAYERS, runCli, TITLE, useCountingEmulator } from '../deletion/support';
import { asUser, runStoreCli, storeArgs, useStore } from './support';

const NO_ANCHORS: AnchorStore = {
  where: 'none', get: () => Promise.resolve(undefined), set: () => Promise.resolve(), list: () => Promise.resolve([]), hold: () => Promise.resolve(() => Promise.resolve()),
};

describe('team store (PostgreSQL): store import and store export', function () {
  this.timeout(120_000);
  const store = useStore('pe_transfer');
  const f = useCountingEmulator('pe-store-transfer-');

  /** Sends batch `journal` (a file journal in `dir`) of `ids` through the CLI; the journal's path. */
  async function fileBatch(dir: string, name: string, ids: string[]): Promise<string> {
    const input = join(f.dir, `${name}.txt`);
    writeFileSync(input, ids.join('\n'));
    const journal = join(dir, `${name}.jsonl`);
    const args = ['delete-players', '--title', TITLE.titleId, '--endpoint', f.counter.endpoint, '--kind', 'platform-id', '--input', input, '--journal', journal, '--json'];
    const r = await runCli([...args, '--confirm', await confirmOf(args)]);
    assert.equal(r.code, 0, r.stderr);
    return journal;
  }

  const batchIdOf = (path: string): string => (JSON.parse(readFileSync(path, 'utf8').split('\n')[0]) as { batchId: string }).batchId;
  const inStore = async (batchId: string): Promise<number> => (await asUser<{ n: string }>(store.auditorUrl, 'SELECT count(*) AS n FROM platform_explorer.batches WHERE batch_id = $1', [batchId]))[0].n === '1' ? 1 : 0;

  it('imports a folder of journals (checked before and after), refuses one already there and one changed, continues it from the store, exports it back', async () => {
    const dir = join(f.dir, 'journals');
    mkdirSync(dir, { mode: 0o700 });
    const a = await fileBatch(dir, 'a', PLAYERS.slice(0, 4).map((p) => p.platformId));
    const b = await fileBatch(dir, 'b', PLAYERS.slice(4, 7).map((p) => p.platformId));
    writeFileSync(join(dir, 'notes.txt'), 'not a journal\n');
    const verify = await runCli(['verify-deletions', '--title', TITLE.titleId, '--endpoint', f.counter.endpoint, '--journal', b, '--json']);
    assert.ok(verify.code === 0 || verify.code === 1, verify.stderr);
    await f.emu.control('clock/advance', { ms: 600_000 });
    assert.equal((await runCli(['verify-deletions', '--title', TITLE.titleId, '--endpoint', f.counter.endpoint, '--journal', b, '--json'])).code, 0);
    const original = new Map<string, string>();
    for (const p of [a, b]) original.set(batchIdOf(p), readFileSync(p, 'utf8'));
    const sentBefore = new Map(f.counter.sends);

    // A journal changed by one byte is refused by name; nothing is imported, no file renamed.
    const bad = join(f.dir, 'bad');
    mkdirSync(bad, { mode: 0o700 });
    const text = readFileSync(a, 'utf8');
    writeFileSync(join(bad, 'a.jsonl'), text.replace(/"at":"(\d)/, (_m, d: string) => `"at":"${(Number(d) + 1) % 10}`), { mode: 0o600 });
    copyFileSync(b, join(bad, 'b-copy.jsonl'));
    const refused = await runStoreCli(['store', 'import', '--from', bad], store.operatorUrl);
    assert.equal(refused.code, 1, refused.stdout);
    assert.match(refused.stderr, /Not imported: .*a\.jsonl.*(no valid MAC|not a valid record)/s);
    for (const id of original.keys()) assert.equal(await inStore(id), 0, `${id} was not imported`);

    const r = await runStoreCli(['store', 'import', '--from', dir], store.operatorUrl);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Imported 2 batches into the team store 127\.0\.0\.1:\d+\/pe_transfer_[0-9a-f]+, each journal checked before \(its MAC chain and anchor\) and read back after/);
    assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.jsonl')), [], 'the journals were moved (renamed *.imported)');
    assert.ok(existsSync(`${a}.imported`) && existsSync(`${b}.imported`) && existsSync(join(dir, 'notes.txt')));
    const rows = await asUser<{ batch_id: string; kind: string; n: string; op: string }>(store.auditorUrl, `
      SELECT batch_id, 'intent' AS kind, count(*)::text AS n, min(operator_name) AS op FROM platform_explorer.intents GROUP BY batch_id
      UNION ALL SELECT batch_id, 'outcome', count(*)::text, min(operator_name) FROM platform_explorer.outcomes GROUP BY batch_id
      UNION ALL SELECT batch_id, 'verified', count(*)::text, min(operator_name) FROM platform_explorer.verifications GROUP BY batch_id ORDER BY 1, 2`);
    const idA = batchIdOf(`${a}.imported`);
    const idB = batchIdOf(`${b}.imported`);
    const count = (id: string, kind: string): number => Number(rows.find((x) => x.batch_id === id && x.kind === kind)?.n ?? 0);
    assert.deepEqual([count(idA, 'intent'), count(idA, 'outcome'), count(idA, 'verified')], [4, 4, 0]);
    assert.deepEqual([count(idB, 'intent'), count(idB, 'outcome'), count(idB, 'verified')], [3, 3, 3]);
    for (const x of rows) assert.ok(x.op !== '', 'each row names the operator who imported it');

    // The same batch again (a copy of its journal, another name): refused, nothing imported.
    const again = join(f.dir, 'again');
    mkdirSync(again, { mode: 0o700 });
    copyFileSync(`${a}.imported`, join(again, 'a-copy.jsonl'));
    const twice = await runStoreCli(['store', 'import', '--from', again], store.operatorUrl);
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, new RegExp(`Batch ${idA} \\(the journal .*a-copy\\.jsonl\\) is already in the team store: it is not imported a second time.*Nothing was imported`, 's'));
    assert.ok(existsSync(join(again, 'a-copy.jsonl')), 'the refused journal is left as it was');

    // Continued from the store: every player is queued already, so nothing is sent again.
    const input = join(f.dir, 'a.txt');
    const args = storeArgs(f.counter.endpoint, input, idA);
    const batchA = (await Journal.read(`${a}.imported`, TITLE.secretKey, NO_ANCHORS))!.batch;
    const cont = await runStoreCli([...args, '--resume', '--confirm', confirmValue(batchA)], store.operatorUrl);
    assert.equal(cont.code, 0, cont.stderr);
    assert.deepEqual(f.counter.sends, sentBefore, 'nothing was sent again');

    // Exported by the auditor (read only): journals the journal check reads with the title's key, holding the same records.
    const out = join(mkdtempSync(join(tmpdir(), 'pe-export-')), 'copy');
    const ex = await runStoreCli(['store', 'export', '--to', out], store.auditorUrl);
    assert.equal(ex.code, 0, ex.stderr);
    assert.match(ex.stdout, /Exported 2 batches from the team store/);
    for (const [id, text] of original) {
      const back = await Journal.read(join(out, `${id}.jsonl`), TITLE.secretKey, NO_ANCHORS);
      const orig = await Journal.read(join(dir, `${id === idA ? 'a' : 'b'}.jsonl.imported`), TITLE.secretKey, NO_ANCHORS);
      assert.ok(back !== undefined && orig !== undefined && text !== '');
      assert.equal(canonical(back.records), canonical(orig.records), `batch ${id}: the exported journal holds the journal's records`);
      assert.deepEqual(replay(back.batch, back.records), replay(orig.batch, orig.records));
    }
    const again2 = await runStoreCli(['store', 'export', '--to', out], store.auditorUrl);
    assert.equal(again2.code, 2);
    assert.match(again2.stderr, /already exists; export into a new folder/);
    // verify-deletions on the exported copy (an auditor's machine: no anchor there, so --no-anchor).
    const v = await runCli(['verify-deletions', '--title', TITLE.titleId, '--endpoint', f.counter.endpoint, '--journal', join(out, `${idB}.jsonl`), '--no-anchor', '--json'],
      { PLATFORM_SECRET_KEY: TITLE.secretKey, XDG_STATE_HOME: mkdtempSync(join(tmpdir(), 'pe-auditor-')) });
    assert.equal(v.code, 0, v.stderr);
  });

  it('connection from PLATFORM_STORE_URL only; a title without its key is not exported', async () => {
    const none = await runStoreCli(['store', 'import', '--from', f.dir], '');
    assert.match(none.stderr, /PLATFORM_STORE_URL is not set/);
    const nokey = await runStoreCli(['store', 'export', '--to', join(f.dir, 'x')], store.auditorUrl, { PLATFORM_SECRET_KEY: '' });
    assert.match(nokey.stderr, /No key for title .*Nothing was exported/);
    assert.equal(existsSync(join(f.dir, 'x')), false);
  });
});
