// Checking a request's actions when something is missing, in process on the emulator (real HTTP on
// 127.0.0.1): the service's events cannot be read (said, nothing completed), an event for the export
// whose link is not a download link or is absent (skipped, the export stays queued), an event for the
// right JobReceiptId with a good link (completed by 'event'), and the erasure's title with no key
// here for a client while its journal's key is set (said, the erasure stays queued).
import * as assert from 'node:assert/strict';
import { dryRun, runActions, verifyRequest, type ServiceEvent } from '../../../src/core/requests';
import { useCountingEmulator } from '../deletion/support';
import { KEYS, requestForOnePlayer, servicesOn } from './support';


describe('requests: verify when the events or a key are missing', function () {
  this.timeout(60_000);
  const f = useCountingEmulator('pe-ver-');
  beforeEach(async () => { await f.emu.control('requests/clear', {}); });

  it('unreadable events, a bad or missing link, then a good one; an erasure whose title has no key here', async () => {
    const { store, id, ana } = await requestForOnePlayer(f, 'VER-1');
    const services = servicesOn(f.emu);
    try {
      const d = await dryRun(store, id, services);
      const run1 = await runActions(store, id, services, { confirm: d.confirm });
      const exp = run1.request.actions.find((a) => a.kind === 'export')!;
      assert.equal(exp.status, 'queued');
      const receipt = exp.jobReceiptId!;

      const failing = { ...services, events: () => Promise.reject(new Error('HTTP 503 from the events endpoint')) };
      const v1 = await verifyRequest(store, id, failing);
      assert.deepEqual(v1.errors, ['the service\'s events could not be read: HTTP 503 from the events endpoint']);
      assert.deepEqual(v1.exported, []);

      const bad: ServiceEvent[] = [
        { type: 'player_data_exported', JobReceiptId: receipt, ExportDownloadUrl: 'ftp://downloads.example/x' },
        { type: 'player_data_exported', JobReceiptId: receipt },
        { type: 'player_data_exported', JobReceiptId: 'OTHER', ExportDownloadUrl: 'https://downloads.example/other' },
      ];
      const v2 = await verifyRequest(store, id, { ...services, events: () => Promise.resolve(bad) });
      assert.deepEqual([v2.exported, v2.errors], [[], []]);
      assert.equal(v2.request.actions.find((a) => a.kind === 'export')!.status, 'queued', 'no good link for its receipt');
      assert.equal(v2.request.actions.find((a) => a.kind === 'erasure')!.status, 'waiting');

      // The event with no link and another receipt's come first: skipped for the one with a link.
      const good: ServiceEvent[] = [bad[1], bad[2], { type: 'player_data_exported', JobReceiptId: receipt, ExportDownloadUrl: 'https://downloads.example/export/ana' }];
      const v3 = await verifyRequest(store, id, { ...services, events: () => Promise.resolve(good) });
      assert.deepEqual(v3.exported, [ana.PlatformId]);
      const done = v3.request.actions.find((a) => a.kind === 'export')!;
      assert.deepEqual([done.status, done.downloadUrl, done.completedBy], ['completed', 'https://downloads.example/export/ana', 'event']);
      assert.equal(v3.request.actions.find((a) => a.kind === 'erasure')!.status, 'planned', 'the erasure no longer waits');

      const run2 = await runActions(store, id, services, { confirm: d.confirm });
      const erasure = run2.request.actions.find((a) => a.kind === 'erasure')!;
      assert.equal(erasure.status, 'queued');
      await f.emu.control('clock/advance', { ms: 700_000 });
      const keyless = servicesOn(f.emu, Object.fromEntries(Object.entries(KEYS).filter(([t]) => t !== erasure.titleId)));
      try {
        // The journal is still authenticated with the key (services.key); no client sends with that title.
        const v4 = await verifyRequest(store, id, { ...keyless, key: services.key });
        assert.deepEqual(v4.errors, [`erasures sent with title ${erasure.titleId}: no secret key for that title`]);
        assert.deepEqual(v4.erased, []);
        assert.equal(v4.request.actions.find((a) => a.kind === 'erasure')!.status, 'queued');
      } finally {
        await keyless.close();
      }
      const v5 = await verifyRequest(store, id, services);
      assert.deepEqual([v5.erased, v5.errors], [[ana.PlatformId], []]);
      // Each step names its operator in the evidence: recorded under its own name.
      assert.deepEqual([...new Set(v5.request.steps?.map((x) => x.step))], ['dry-run', 'run', 'verify']);
    } finally {
      await services.close();
    }
  });
});
