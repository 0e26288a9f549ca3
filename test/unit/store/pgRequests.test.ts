// Data requests in the team store (issue 33) through the CLI with --store postgres: every step
// (new, dry run, run, verify, record-export, withdraw, show, close, verify-evidence) on rows; each
// send claimed and each row naming its operator; the state sealed as the file's is (a save forged
// by the database's admin is refused); the evidence pack exported from the store verifies alone.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, useCountingEmulator } from '../deletion/support';
import { servedPer } from '../requests/support';
import { accounts, newStoreRequest, reqEnv, requestIntents } from './pgReqSupport';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../src/core/store/schema';
import { asUser, useStore } from './support';

describe('team store: data requests through the CLI (--store postgres)', function () {
  this.timeout(120_000);
  const store = useStore('pe_reqs');
  const f = useCountingEmulator('pe-store-req-');
  beforeEach(() => f.emu.control('requests/clear', {}));
  const cli = (args: string[], url = store.operatorUrl, more: Record<string, string> = {}): ReturnType<typeof runCli> => runCli(['request', ...args], reqEnv(url, more));

  it('events-only erasure then erasure of 3 accounts: each sent once, each intent naming the operator; run again sends nothing; verify completes the erasures', async () => {
    const pids = accounts(3);
    const { id, confirm } = await newStoreRequest(store.operatorUrl, f.dir, f.emu.endpoint, pids, 'events,erasure');
    const run = await cli(['run', '--store', 'postgres', '--id', id, '--confirm', confirm, '--json']);
    assert.equal(run.code, 0, run.stderr + run.stdout);
    const served = await servedPer(f.emu);
    for (const p of pids) {
      assert.equal(served.get(`DeleteMasterPlayerEventData ${p}`), 1);
      assert.equal(served.get(`DeleteMasterPlayerAccount ${p}`), 1);
    }
    const rows = await requestIntents(store.auditorUrl, id);
    assert.equal(rows.length, 6);
    for (const r of rows) {
      assert.equal(r.state, 'queued');
      assert.equal(r.operator_name, 'Test Operator');
      assert.match(r.operator_fingerprint, /^SHA256:[A-Za-z0-9_-]{43}$/);
    }
    const again = await cli(['run', '--store', 'postgres', '--id', id, '--confirm', confirm, '--json']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal((await servedPer(f.emu)).get('DeleteMasterPlayerAccount'), 3, 'nothing sent again');
    await f.emu.control('clock/advance', { ms: 600_000 });
    const v = await cli(['verify', '--store', 'postgres', '--id', id, '--json']);
    assert.equal(v.code, 0, v.stderr);
    assert.equal((JSON.parse(v.stdout) as { erased: string[] }).erased.length, 3);
    const saves = await asUser<{ generation: number; operator_name: string }>(store.auditorUrl, 'SELECT generation, operator_name FROM platform_explorer.request_saves WHERE request_id = $1 ORDER BY generation', [id]);
    assert.deepEqual(saves.map((s) => s.generation), saves.map((_, i) => i + 1));
    assert.ok(saves.every((s) => s.operator_name === 'Test Operator'));
  });

  it('show --store postgres lists the queue: each request, who did each step (name and fingerprint), nobody holding it', async () => {
    const { id } = await newStoreRequest(store.operatorUrl, f.dir, f.emu.endpoint, accounts(1), 'erasure', 'TEAM-SHOW');
    const shown = await cli(['show', '--store', 'postgres']);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, new RegExp(`${id} +resolved .*TEAM-SHOW`));
    assert.match(shown.stdout, /held by: nobody now/);
    assert.match(shown.stdout, /new +by Test Operator \(SHA256:[A-Za-z0-9_-]{43}\)/);
    assert.match(shown.stdout, /dry-run +by Test Operator \(SHA256:/);
    const json = JSON.parse((await cli(['show', '--store', 'postgres', '--json'])).stdout) as { requests: { id: string; heldBy: unknown[]; steps: { step: string }[] }[] };
    const mine = json.requests.find((r) => r.id === id)!;
    assert.deepEqual(mine.steps.map((s) => s.step), ['new', 'dry-run']);
    assert.deepEqual(mine.heldBy, []);
  });

  it('a save forged by the admin (a newer generation, content changed) is refused before any send, naming the store', async () => {
    const pids = accounts(2);
    const { id, confirm } = await newStoreRequest(store.operatorUrl, f.dir, f.emu.endpoint, pids, 'erasure', 'TEAM-FORGE');
    const [last] = await asUser<{ generation: number; state: string; mac: string }>(store.adminUrl, 'SELECT generation, state, mac FROM platform_explorer.request_saves WHERE request_id = $1 ORDER BY generation DESC LIMIT 1', [id]);
    const forged = last.state.replace(pids[1], pids[0] === pids[1] ? pids[1] : accounts(3)[2]);
    await asUser(store.adminUrl, `INSERT INTO platform_explorer.request_saves (request_id, generation, state, mac, operator_fingerprint, operator_name, machine) VALUES ($1, $2, $3, $4, 'fp', 'admin', 'm')`, [id, last.generation + 1, forged, last.mac]);
    const r = await cli(['run', '--store', 'postgres', '--id', id, '--confirm', confirm]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`Request ${id}: its state file the team store 127\\.0\\.0\\.1:\\d+/pe_reqs_\\w+ \\(request ${id}\\) was changed by something other than Platform Explorer`));
    assert.equal((await servedPer(f.emu)).get('DeleteMasterPlayerAccount') ?? 0, 0);
    await assert.rejects(asUser(store.operatorUrl, 'UPDATE platform_explorer.request_saves SET state = $1', ['x']), /permission denied/);
    await assert.rejects(asUser(store.adminUrl, 'DELETE FROM platform_explorer.request_saves'), /append-only/);
  });

  it('withdraw, then close: the evidence is a row; exported from the store, the pack verifies with the operator\'s public key alone', async () => {
    const { id } = await newStoreRequest(store.operatorUrl, f.dir, f.emu.endpoint, accounts(1), 'erasure', 'TEAM-CLOSE');
    const w = await cli(['withdraw', '--store', 'postgres', '--id', id, '--reason', 'asked by mistake']);
    assert.equal(w.code, 0, w.stderr);
    const c = await cli(['close', '--store', 'postgres', '--id', id, '--json']);
    assert.equal(c.code, 0, c.stderr);
    const v = await cli(['verify-evidence', '--store', 'postgres', '--id', id]);
    assert.equal(v.code, 0, v.stdout + v.stderr);
    const [row] = await asUser<{ body: { json: string; markdown: string }; operator_name: string }>(store.auditorUrl, `SELECT body, operator_name FROM platform_explorer.evidence WHERE subject = $1`, [id]);
    assert.equal(row.operator_name, 'Test Operator');
    writeFileSync(join(f.dir, 'evidence.json'), row.body.json);
    writeFileSync(join(f.dir, 'evidence.md'), row.body.markdown);
    const pub = await runCli(['operator', 'show', '--public-key']);
    writeFileSync(join(f.dir, 'signer.pem'), pub.stdout);
    const alone = await runCli(['request', 'verify-evidence', '--evidence', join(f.dir, 'evidence.json'), '--signer', join(f.dir, 'signer.pem')]);
    assert.equal(alone.code, 0, alone.stdout + alone.stderr);
    // Tampered in the export: refused.
    writeFileSync(join(f.dir, 'evidence.json'), row.body.json.replace('asked by mistake', 'asked by mistakE'));
    const bad = await runCli(['request', 'verify-evidence', '--evidence', join(f.dir, 'evidence.json'), '--signer', join(f.dir, 'signer.pem')]);
    assert.equal(bad.code, 1);
    await assert.rejects(asUser(store.operatorUrl, 'DELETE FROM platform_explorer.evidence WHERE subject = $1', [id]), /permission denied/);
  });

  it('a store of schema version 1 (batches only) is updated by store init to the requests\' version in one step; its batches stay', async () => {
    const url = await store.pg.freshDatabase('pe_v1');
    await asUser(url, `CREATE SCHEMA platform_explorer; CREATE TABLE platform_explorer.schema_version (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL, applied_at timestamptz NOT NULL DEFAULT now()); ${MIGRATIONS[0]}
      INSERT INTO platform_explorer.schema_version (id, version) VALUES (1, 1);
      INSERT INTO platform_explorer.batches VALUES ('old-batch', 'F71AC', 'DeleteMasterPlayerAccount', '{}', 'c', 'fp', 'op', 'm')`);
    const file = join(f.dir, 'admin-v1');
    writeFileSync(file, url, { mode: 0o600 });
    const r = await runCli(['store', 'init', '--admin-url-file', file]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`now has schema version ${SCHEMA_VERSION} \\(it had 1\\)`));
    assert.deepEqual((await asUser<{ t: string | null }>(url, `SELECT to_regclass('platform_explorer.request_saves')::text AS t`))[0].t, 'platform_explorer.request_saves');
    assert.equal((await asUser(url, 'SELECT 1 FROM platform_explorer.batches WHERE batch_id = $1', ['old-batch'])).length, 1);
  });

  it('no PLATFORM_STORE_URL, or a store refusing connections: the message says what to do, never the password', async () => {
    const none = await cli(['show', '--store', 'postgres'], '');
    assert.equal(none.code, 1);
    assert.match(none.stderr, /PLATFORM_STORE_URL is not set/);
    const dead = await cli(['show', '--store', 'postgres'], 'postgres://someone:Sup3rSecretPw@127.0.0.1:1/nowhere');
    assert.equal(dead.code, 1);
    assert.match(dead.stderr, /Cannot connect to the team store 127\.0\.0\.1:1\/nowhere/);
    assert.doesNotMatch(dead.stderr, /Sup3rSecretPw/);
  });
});
