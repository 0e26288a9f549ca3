// The workflow's refusals, in process on the emulator (real HTTP on 127.0.0.1): a run before the dry
// run, a dry run with no title's key, a withdrawal reason that is empty, too long or has control
// characters, and every step of a closed request refused with its own message, nothing sent and the
// state file left as it was.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  closeRequest, dryRun, recordExportLink, runActions, withdrawRequest,
} from '../../../src/core/requests';
import { useCountingEmulator } from '../deletion/support';
import { requestForOnePlayer, servedPer, servicesOn } from './support';

describe('requests: the workflow\'s refusals', function () {
  this.timeout(60_000);
  const f = useCountingEmulator('pe-wfr-');
  beforeEach(async () => { await f.emu.control('requests/clear', {}); });

  async function start(keys?: Record<string, string>) {
    const { store, id } = await requestForOnePlayer(f, 'WFR-1');
    return { store, id, services: servicesOn(f.emu, keys), file: join(store.folder(id), 'request.json') };
  }
  const sends = async (): Promise<number> => {
    const s = await servedPer(f.emu);
    return (s.get('ExportMasterPlayerData') ?? 0) + (s.get('DeleteMasterPlayerAccount') ?? 0) + (s.get('DeleteMasterPlayerEventData') ?? 0);
  };

  it('a run before the dry run, and a dry run with no title\'s key, are refused; nothing is looked up or sent', async () => {
    const { store, id, services } = await start({});
    try {
      await assert.rejects(runActions(store, id, services, { confirm: '0:000000000000' }), { message: `Request ${id} has not been resolved: run its dry run first and check the accounts it acts on.` });
      await assert.rejects(dryRun(store, id, services), { message: `No title of request ${id} has a secret key (F71AC, A248): nothing could be looked up. Set the keys and run again.` });
      assert.equal((await store.load(id)).resolution, undefined, 'nothing resolved was saved');
      assert.equal((await servedPer(f.emu)).size, 0, 'no call at all');
    } finally {
      await services.close();
    }
  });

  it('a withdrawal reason must be 1 to 500 characters without control characters; it is kept trimmed', async () => {
    const { store, id, services } = await start();
    try {
      const refused = { message: 'The reason for withdrawing must be 1 to 500 characters without control characters.' };
      await assert.rejects(withdrawRequest(store, id, ''), refused);
      await assert.rejects(withdrawRequest(store, id, 'x'.repeat(501)), refused);
      await assert.rejects(withdrawRequest(store, id, 'called off\nby the person'), refused);
      await assert.rejects(withdrawRequest(store, id, 'called off\u0085'), refused);
      await assert.rejects(withdrawRequest(store, id, '\u007fcalled off'), refused);
      assert.equal((await store.load(id)).withdrawn, undefined);
      const at = new Date('2026-02-01T08:00:00.000Z');
      const w = await withdrawRequest(store, id, `  ${'y'.repeat(500)}  `, at);
      assert.deepEqual(w.withdrawn, { at: '2026-02-01T08:00:00.000Z', reason: 'y'.repeat(500) });
      assert.deepEqual((await store.load(id)).withdrawn, w.withdrawn, 'saved');
    } finally {
      await services.close();
    }
  });

  it('a closed request: the dry run, the run, a withdrawal and a recorded link are each refused, nothing sent or changed', async () => {
    const { store, id, services, file } = await start();
    try {
      const d = await dryRun(store, id, services);
      await withdrawRequest(store, id, 'mistaken request');
      await closeRequest(store, id, services);
      // Each step saves under its lock, refused or not (withRequest): only the seal's save number moves.
      const content = (): unknown => ({ ...(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>), seal: undefined });
      const before = content();
      await assert.rejects(dryRun(store, id, services), { message: `Request ${id} is closed; nothing is run for it.` });
      await assert.rejects(runActions(store, id, services, { confirm: d.confirm }), { message: `Request ${id} is closed; nothing is sent for it.` });
      await assert.rejects(withdrawRequest(store, id, 'again'), { message: `Request ${id} is closed; it cannot be withdrawn.` });
      await assert.rejects(recordExportLink(store, id, 'AB12', 'https://downloads.example/export/9'), { message: `Request ${id} is closed; nothing was changed.` });
      assert.deepEqual(content(), before, 'the state file holds what it held');
      assert.equal(await sends(), 0);
    } finally {
      await services.close();
    }
  });
});
