// Issue 29 (request state, confirmation, withdraw, hold, anchors), in process on the emulator (real
// HTTP on 127.0.0.1): request.json changed by anything but the tool is refused before any send,
// a --confirm value made for another request or before a re-resolution sends nothing, a state file or
// journal with no anchor here is used only when the user says so, a withdrawn request sends nothing
// more, and a held erasure is not sent before its hold ends. Each counts the sends at the emulator.
import * as assert from 'node:assert/strict';
import { copyFileSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  closeRequest, ConfirmMismatch, createRequest, dryRun, NoAnchorError, recordExportLink, RequestError, RequestStore, runActions, verifyEvidence,
  withdrawRequest, type Identifier, type RequestAuth,
} from '../../../src/core/requests';
import { FolderAnchorStore, JournalNoAnchor } from '../../../src/core/deletion';
import { useCountingEmulator } from '../deletion/support';
import { AUTH, authWith, KEYS, players, servedPer, servicesOn } from './support';

const TITLES = ['F71AC', 'A248'];

describe('requests: the state file sealed and anchored, the bound confirmation, withdraw and hold', function () {
  this.timeout(60_000);
  const f = useCountingEmulator('pe-seal-');
  beforeEach(async () => { await f.emu.control('requests/clear', {}); });

  async function start(o: { asks?: ('access' | 'erasure' | 'events')[]; holdDays?: number; auth?: RequestAuth; now?: Date } = {}) {
    const all = await players(f.emu);
    const ana = all.find((p) => p.email !== null && p.titlesPlayed.length === 2)!;
    const store = await RequestStore.open(join(f.dir, 'store'), { auth: o.auth ?? AUTH });
    const identifiers: Identifier[] = [{ kind: 'email', value: ana.email! }];
    const r = await createRequest(store, { reference: 'SEAL-1', asks: o.asks ?? ['erasure'], identifiers, titles: TITLES, endpoint: f.counter.endpoint, holdDays: o.holdDays, now: o.now });
    return { store, id: r.id, services: servicesOn(f.emu), ana, all, file: join(store.folder(r.id), 'request.json') };
  }
  const sent = async (op: string): Promise<number> => (await servedPer(f.emu)).get(op) ?? 0;

  it('a PlatformId edited in request.json between the dry run and the run is refused before any send, naming the file', async () => {
    const { store, id, services, ana, all, file } = await start();
    try {
      const d = await dryRun(store, id, services);
      assert.deepEqual(d.accounts.map((a) => a.platformId), [ana.PlatformId]);
      // The attack of issue 29: another player's PlatformId put in the state file by hand.
      const victim = all.find((p) => p.PlatformId !== ana.PlatformId && p.publisherId === ana.publisherId)!;
      writeFileSync(file, readFileSync(file, 'utf8').split(ana.PlatformId).join(victim.PlatformId));
      await assert.rejects(runActions(store, id, services, { confirm: d.confirm }), (e: unknown) => e instanceof RequestError
        && e.message === `Request ${id}: its state file ${file} was changed by something other than Platform Explorer (an edit, a planted or replaced file): its seal does not match its content. Nothing was sent. Restore the file from your backup (or the copy this tool last wrote), and check who changed it.`);
      // A dry run reads it through the same check.
      await assert.rejects(dryRun(store, id, services), /was changed by something other than Platform Explorer/);
      assert.equal(await sent('DeleteMasterPlayerAccount'), 0, 'nothing was sent');
    } finally {
      await services.close();
    }
  });

  it('a planted state file (another request\'s, or one with no seal), an older copy and a symlink are refused, nothing sent', async () => {
    const a = await start();
    const b = await start();
    try {
      const da = await dryRun(a.store, a.id, a.services);
      await dryRun(b.store, b.id, b.services);
      const older = `${a.file}.older`;
      copyFileSync(a.file, older);
      // Another request's sealed state planted over this one: its id is not this one's.
      copyFileSync(b.file, a.file);
      await assert.rejects(runActions(a.store, a.id, a.services, { confirm: da.confirm }), /names another request/);
      // A hand-made state file without a seal.
      const plain = JSON.parse(readFileSync(older, 'utf8')) as Record<string, unknown>;
      delete plain.seal;
      writeFileSync(a.file, JSON.stringify(plain));
      await assert.rejects(runActions(a.store, a.id, a.services, { confirm: da.confirm }), new RegExp(`^Error: Request ${a.id}: its state file ${a.file} carries no seal`));
      // The tool's own copy, then one more save (a withdraw-free step: a second dry run saves), then the older copy back.
      copyFileSync(older, a.file);
      await dryRun(a.store, a.id, a.services);
      copyFileSync(older, a.file);
      await assert.rejects(runActions(a.store, a.id, a.services, { confirm: da.confirm }), /is an older copy: it holds save 2, but this request reached save 3 here/);
      rmSync(a.file);
      symlinkSync(older, a.file);
      await assert.rejects(runActions(a.store, a.id, a.services, { confirm: da.confirm }), /symbolic link/);
      assert.equal(await sent('DeleteMasterPlayerAccount'), 0);
    } finally {
      await a.services.close();
      await b.services.close();
    }
  });

  it('a confirm value is bound to its request and resolution: reused across requests or after a re-resolution it is refused, never echoing the right one', async () => {
    const a = await start();
    const b = await start();
    try {
      const da = await dryRun(a.store, a.id, a.services);
      const db = await dryRun(b.store, b.id, b.services);
      assert.match(da.confirm, /^1:[0-9a-f]{12}$/);
      assert.notEqual(da.confirm, db.confirm, 'the same person and account in two requests: two values');
      await assert.rejects(runActions(b.store, b.id, b.services, { confirm: da.confirm }), (e: unknown) => e instanceof ConfirmMismatch && !e.message.includes(db.confirm) && !e.message.includes(db.confirm.slice(2)));
      // Re-resolved by the tool (its resolution dropped and looked up again): the old value no longer sends.
      const r = await a.store.loadChecked(a.id);
      delete r.resolution;
      r.actions = [];
      await a.store.save(r);
      const again = await dryRun(a.store, a.id, a.services);
      assert.notEqual(again.confirm, da.confirm);
      await assert.rejects(runActions(a.store, a.id, a.services, { confirm: da.confirm }), ConfirmMismatch);
      assert.equal(await sent('DeleteMasterPlayerAccount'), 0);
      const run = await runActions(a.store, a.id, a.services, { confirm: again.confirm });
      assert.equal(run.sent.erasure, 1);
      assert.equal(await sent('DeleteMasterPlayerAccount'), 1);
    } finally {
      await a.services.close();
      await b.services.close();
    }
  });

  it('a state file or journal with no anchor here (another state folder) is refused unless the user accepts it, saying why', async () => {
    const { store, id, services, ana } = await start({ asks: ['access', 'erasure'] });
    try {
      const d = await dryRun(store, id, services);
      const run1 = await runActions(store, id, services, { confirm: d.confirm });
      assert.equal(run1.sent.export, 1);
      const exp = run1.request.actions.find((x) => x.kind === 'export')!;
      await recordExportLink(store, id, exp.jobReceiptId!, 'https://downloads.example/export/1');
      // Another HOME or XDG_STATE_HOME: the same keys, other anchors.
      const elsewhere = new FolderAnchorStore(join(f.dir, `other-state-${id}`, 'anchors'));
      const other = await RequestStore.open(store.dir, { auth: authWith(KEYS, { anchors: elsewhere }) });
      const otherServices = { ...services, anchors: elsewhere };
      await assert.rejects(runActions(other, id, otherServices, { confirm: d.confirm }), (e: unknown) => e instanceof NoAnchorError
        && e.message.includes(`has no anchor here (it was last written with its anchors in ${AUTH.anchors.where}, and this run keeps them in ${elsewhere.where}: another state folder`)
        && /Nothing was sent\. If this is the newest copy, run again with --no-anchor/.test(e.message));
      assert.equal(await sent(`DeleteMasterPlayerAccount ${ana.PlatformId}`), 0);
      // Accepted for the state file only: the export's journal has no anchor there either.
      const notices: string[] = [];
      const accepting = await RequestStore.open(store.dir, { auth: authWith(KEYS, { anchors: elsewhere, noAnchor: true, onNotice: (m) => notices.push(m) }) });
      await assert.rejects(runActions(accepting, id, otherServices, { confirm: d.confirm }), JournalNoAnchor);
      assert.equal(await sent(`DeleteMasterPlayerAccount ${ana.PlatformId}`), 0);
      assert.match(notices[0] ?? '', /has no anchor here .*used as it is \(--no-anchor\)/);
      const run2 = await runActions(accepting, id, { ...otherServices, noAnchor: true }, { confirm: d.confirm });
      assert.equal(run2.sent.erasure, 1);
      assert.equal(await sent(`ExportMasterPlayerData ${ana.PlatformId}`), 1, 'the export was not sent again');
    } finally {
      await services.close();
    }
  });

  it('withdraw: nothing more is sent; the evidence records it and still verifies', async () => {
    const { store, id, services } = await start({ asks: ['access', 'erasure'] });
    try {
      const d = await dryRun(store, id, services);
      await assert.rejects(withdrawRequest(store, id, '  '), /reason for withdrawing must be 1 to 500 characters/);
      const w = await withdrawRequest(store, id, 'the person called it off (ticket SEAL-1, reply 3)');
      assert.equal(w.withdrawn?.reason, 'the person called it off (ticket SEAL-1, reply 3)');
      await assert.rejects(runActions(store, id, services, { confirm: d.confirm }), /was withdrawn .*nothing more is sent/);
      await assert.rejects(dryRun(store, id, services), /was withdrawn/);
      await assert.rejects(withdrawRequest(store, id, 'again'), /already withdrawn/);
      assert.equal(await sent('ExportMasterPlayerData'), 0);
      assert.equal(await sent('DeleteMasterPlayerAccount'), 0);
      const closed = await closeRequest(store, id, services);
      const entry = closed.evidence.entries.find((e) => e.type === 'withdrawn');
      assert.equal(entry?.reason, 'the person called it off (ticket SEAL-1, reply 3)');
      assert.match(readFileSync(store.evidencePath(id, 'md'), 'utf8'), /withdrawn: the person called it off \(ticket SEAL-1, reply 3\); nothing more was sent/);
      assert.deepEqual((await verifyEvidence(store, id)).problems, []);
    } finally {
      await services.close();
    }
  });

  it('hold: an erasure stays planned until the hold ends (the dry run says until when); the export goes at once', async () => {
    const made = new Date('2026-11-02T10:00:00.000Z');
    const { store, id, services, ana } = await start({ asks: ['access', 'erasure'], holdDays: 7, now: made });
    try {
      const at = (iso: string) => ({ ...services, now: () => new Date(iso) });
      const d = await dryRun(store, id, at('2026-11-03T00:00:00.000Z'));
      assert.deepEqual([d.heldUntil, d.holdDays], ['2026-11-09T10:00:00.000Z', 7]);
      const run1 = await runActions(store, id, at('2026-11-03T00:00:00.000Z'), { confirm: d.confirm });
      assert.equal(run1.sent.export, 1);
      assert.equal(run1.heldUntil, '2026-11-09T10:00:00.000Z');
      await recordExportLink(store, id, run1.request.actions.find((x) => x.kind === 'export')!.jobReceiptId!, 'https://downloads.example/export/2');
      const run2 = await runActions(store, id, at('2026-11-09T09:59:59.000Z'), { confirm: d.confirm });
      assert.equal(run2.sent.erasure, 0);
      assert.equal(run2.request.actions.find((x) => x.kind === 'erasure')!.status, 'planned');
      assert.equal(await sent('DeleteMasterPlayerAccount'), 0, 'no erasure before the hold ends');
      const run3 = await runActions(store, id, at('2026-11-09T10:00:00.000Z'), { confirm: d.confirm });
      assert.equal(run3.sent.erasure, 1);
      assert.equal(run3.heldUntil, undefined);
      assert.equal(await sent(`DeleteMasterPlayerAccount ${ana.PlatformId}`), 1);
    } finally {
      await services.close();
    }
  });
});
