// A run's edges, in process on the emulator (real HTTP on 127.0.0.1): a run cancelled before it
// starts sends nothing and says so; a run whose sending title has a key but no client here is refused
// naming the title and the operation, nothing sent, and the next run with it sends once; the counts
// per status after a run are the actions' statuses.
import * as assert from 'node:assert/strict';
import { dryRun, runActions } from '../../../src/core/requests';
import { useCountingEmulator } from '../deletion/support';
import { requestForOnePlayer, servedPer, servicesOn } from './support';

const NONE = { planned: 0, waiting: 0, queued: 0, unknown: 0, failed: 0, completed: 0, accepted: 0 };

describe('requests: a run cancelled, or without a client for its title', function () {
  this.timeout(60_000);
  const f = useCountingEmulator('pe-run-');
  beforeEach(async () => { await f.emu.control('requests/clear', {}); });

  it('cancelled before it starts: nothing sent, cancelled said; no client for the sending title: refused naming it; then sent once', async () => {
    const { store, id } = await requestForOnePlayer(f, 'RUN-1');
    const services = servicesOn(f.emu);
    const exports = async (): Promise<number> => (await servedPer(f.emu)).get('ExportMasterPlayerData') ?? 0;
    try {
      const d = await dryRun(store, id, services);
      const sender = d.accounts[0].senderTitleId;
      const stop = new AbortController();
      stop.abort();
      const cancelled = await runActions(store, id, { ...services, signal: stop.signal }, { confirm: d.confirm });
      assert.equal(cancelled.cancelled, true);
      assert.deepEqual(cancelled.sent, { export: 0, events: 0, erasure: 0 });
      assert.deepEqual(cancelled.counts, { ...NONE, planned: 1, waiting: 1 });
      assert.equal(await exports(), 0);

      const noClient = { ...services, client: (t: string) => (t === sender ? undefined : services.client(t)) };
      await assert.rejects(runActions(store, id, noClient, { confirm: d.confirm }), {
        message: `No secret key for title ${sender}, whose key sends ExportMasterPlayerData for this request; set it and run again.`,
      });
      assert.equal(await exports(), 0);

      const run = await runActions(store, id, services, { confirm: d.confirm });
      assert.equal(run.cancelled, false);
      assert.deepEqual(run.sent, { export: 1, events: 0, erasure: 0 });
      assert.deepEqual(run.counts, { ...NONE, queued: 1, waiting: 1 });
      assert.equal(await exports(), 1);
      assert.equal(run.request.actions.filter((a) => a.kind === 'export').length, 1, 'one export, in the journal made by the refused run');
    } finally {
      await services.close();
    }
  });
});
