// The team store on a real PostgreSQL: its schema and roles (enforced by the database, not the
// client), refusals at start (no server, a newer schema), and a batch sent through the CLI with
// --store postgres, each send's intent and outcome rows naming the operator.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { confirmOf, PLAYERS, TITLE, useCountingEmulator } from '../deletion/support';
import { SCHEMA_VERSION } from '../../../src/core/store/schema';
import { asUser, runStoreCli, storeArgs, useStore } from './support';

describe('team store (PostgreSQL): schema, roles and a batch through the CLI', function () {
  this.timeout(60_000);
  const store = useStore('pe_store');
  const f = useCountingEmulator('pe-store-cli-');
  const ids = PLAYERS.slice(0, 6).map((p) => p.platformId);

  /** The dry run's --confirm value for `args` (a --store postgres command), from the same plan made for a journal. */
  const confirmFor = (args: string[], journal: string): Promise<string> =>
    confirmOf(args.filter((a, i) => !['--store', '--batch'].includes(a) && !['--store', '--batch'].includes(args[i - 1])).concat(['--journal', journal]));

  async function sendBatch(batch: string, players = ids): Promise<void> {
    const input = join(f.dir, 'ids.txt');
    writeFileSync(input, players.join('\n'));
    const args = storeArgs(f.counter.endpoint, input, batch);
    const r = await runStoreCli([...args, '--confirm', await confirmFor(args, join(f.dir, 'j.jsonl'))], store.operatorUrl);
    assert.equal(r.code, 0, r.stderr);
  }

  it('a batch sent with --store postgres: every player sent once, each intent and outcome row names the operator and machine', async () => {
    await sendBatch('cli-batch-1');
    assert.deepEqual([...f.counter.sends.keys()].sort(), [...ids].sort());
    assert.deepEqual(f.counter.twice(), []);
    const rows = await asUser<{ platform_id: string; attempt: number; operator_name: string; operator_fingerprint: string; machine: string; state: string }>(store.auditorUrl,
      `SELECT i.platform_id, i.attempt, i.operator_name, i.operator_fingerprint, i.machine, o.state FROM platform_explorer.intents i
         JOIN platform_explorer.outcomes o ON o.intent_id = i.id WHERE i.batch_id = 'cli-batch-1'`);
    assert.equal(rows.length, ids.length);
    for (const r of rows) {
      assert.equal(r.state, 'queued');
      assert.equal(r.attempt, 1);
      assert.match(r.operator_fingerprint, /^SHA256:[A-Za-z0-9_-]{43}$/, "the operator key's fingerprint");
      assert.ok(r.operator_name !== '' && r.machine !== '');
    }
    // verify-deletions against the same batch: each verification a row of its own.
    const verify = ['verify-deletions', '--title', TITLE.titleId, '--endpoint', f.counter.endpoint, '--store', 'postgres', '--batch', 'cli-batch-1', '--json'];
    const early = await runStoreCli(verify, store.operatorUrl);
    assert.equal(early.code, 1, 'still queued: not all verified');
    await f.emu.control('clock/advance', { ms: 600_000 });
    const v = await runStoreCli(verify, store.operatorUrl);
    assert.equal(v.code, 0, v.stderr);
    const verified = await asUser<{ platform_id: string; operator_name: string }>(store.auditorUrl, `SELECT platform_id, operator_name FROM platform_explorer.verifications WHERE batch_id = 'cli-batch-1'`);
    assert.deepEqual(verified.map((x) => x.platform_id).sort(), [...ids].sort());
  });

  it('the same batch run again sends nothing; another batch of the same players sends nothing either', async () => {
    const others = PLAYERS.slice(6, 10).map((p) => p.platformId);
    await sendBatch('cli-batch-2', others);
    assert.equal(f.counter.sends.size, others.length);
    f.counter.sends.clear();
    await sendBatch('cli-batch-2', others);
    assert.equal(f.counter.sends.size, 0, 'a batch already sent is not sent again');
    const input = join(f.dir, 'ids.txt');
    const args = storeArgs(f.counter.endpoint, input, 'cli-batch-3');
    const r = await runStoreCli([...args, '--confirm', await confirmFor(args, join(f.dir, 'j3.jsonl'))], store.operatorUrl);
    assert.equal(f.counter.sends.size, 0, `players another batch queued are not sent: ${r.stderr}`);
    assert.equal(r.code, 1);
  });

  it('roles: the operator cannot UPDATE or DELETE an evidence row (the database refuses), the auditor cannot INSERT', async () => {
    await asUser(store.operatorUrl, `INSERT INTO platform_explorer.evidence (subject, body, operator_fingerprint, operator_name, machine) VALUES ('r1', '{}', 'fp', 'op', 'm')`);
    await assert.rejects(asUser(store.operatorUrl, `UPDATE platform_explorer.evidence SET subject = 'changed'`), /permission denied/);
    await assert.rejects(asUser(store.operatorUrl, 'DELETE FROM platform_explorer.evidence'), /permission denied/);
    await assert.rejects(asUser(store.operatorUrl, 'UPDATE platform_explorer.outcomes SET state = \'failed\''), /permission denied/);
    await assert.rejects(asUser(store.auditorUrl, `INSERT INTO platform_explorer.evidence (subject, body, operator_fingerprint, operator_name, machine) VALUES ('r2', '{}', 'fp', 'au', 'm')`), /permission denied/);
    // Not by grants alone: even the admin (owner) cannot change or remove a recorded row.
    await assert.rejects(asUser(store.adminUrl, 'UPDATE platform_explorer.evidence SET subject = \'x\''), /append-only/);
    await assert.rejects(asUser(store.adminUrl, 'TRUNCATE platform_explorer.evidence'), /append-only/);
    const rows = await asUser<{ subject: string }>(store.auditorUrl, 'SELECT subject FROM platform_explorer.evidence');
    assert.deepEqual(rows.map((r) => r.subject), ['r1']);
  });

  it('a connection refused at start: exit 1, the message names the store (never its password) and says what to check; nothing sent', async () => {
    const input = join(f.dir, 'ids.txt');
    writeFileSync(input, ids.join('\n'));
    const args = storeArgs(f.counter.endpoint, input, 'refused-1');
    const dead = 'postgres://someone:Sup3rSecretPw@127.0.0.1:1/nowhere';
    const r = await runStoreCli([...args, '--resume', '--confirm', '6:000000000000'], dead);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Cannot connect to the team store 127\.0\.0\.1:1\/nowhere: .*ECONNREFUSED.*Nothing was sent/);
    assert.doesNotMatch(r.stderr + r.stdout, /Sup3rSecretPw/);
    assert.equal(f.counter.sends.size, 0);
    const none = await runStoreCli([...args, '--resume', '--confirm', '6:000000000000'], '');
    assert.match(none.stderr, /PLATFORM_STORE_URL is not set/);
  });

  it('a schema of another version: newer is refused at start and by store init (nothing changed); no schema at all says to run store init', async () => {
    const input = join(f.dir, 'ids.txt');
    writeFileSync(input, ids.join('\n'));
    const args = [...storeArgs(f.counter.endpoint, input, 'cli-batch-1'), '--resume', '--confirm', '6:000000000000'];
    await asUser(store.adminUrl, 'UPDATE platform_explorer.schema_version SET version = 99');
    try {
      const r = await runStoreCli(args, store.operatorUrl);
      assert.equal(r.code, 1);
      assert.match(r.stderr, new RegExp(`schema version 99, newer than this Platform Explorer reads \\(version ${SCHEMA_VERSION}\\)\\. Nothing was sent .*Update Platform Explorer`, 's'));
      const init = await runStoreCli(['store', 'init', '--admin-url-file', store.adminFile], '');
      assert.equal(init.code, 1);
      assert.match(init.stderr, /schema version 99, newer .* nothing was changed/);
      assert.equal((await asUser<{ version: number }>(store.adminUrl, 'SELECT version FROM platform_explorer.schema_version'))[0].version, 99);
    } finally {
      await asUser(store.adminUrl, 'UPDATE platform_explorer.schema_version SET version = $1', [SCHEMA_VERSION]);
    }
    const empty = await store.pg.freshDatabase('pe_empty');
    const r = await runStoreCli(args, empty);
    assert.match(r.stderr, /has no Platform Explorer schema yet\. Nothing was sent\. An admin creates it with: platform-explorer store init/);
    assert.equal(f.counter.sends.size, 0);
  });
});
