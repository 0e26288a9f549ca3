// GetPlayedTitleList for many players (core/playedTitles.ts), as the dry run and Show Played Titles
// run it: against the real emulator over HTTP.
import * as assert from 'node:assert/strict';
import { PlatformClient } from '../../../src/core/api/client';
import { PlatformError } from '../../../src/core/api/errors';
import { checkPlayedTitles, type PlayedTitlesCheck } from '../../../src/core/playedTitles';
import { DEMO_PLAYERS, DEMO_TITLES, DEMO_UNLINKED } from '../../../src/emulator/seed';
import type { EmulatorHandle } from '../../../src/emulator/server';
import { checkedEmulator } from '../helpers/contract';
import { emulatorControl } from '../helpers/controls';

const TITLE = DEMO_TITLES[0];

describe('core/checkPlayedTitles', () => {
  let emu: EmulatorHandle;
  const clients: PlatformClient[] = [];

  function client(key = TITLE.secretKey): PlatformClient {
    const c = new PlatformClient({ titleId: TITLE.titleId, endpoint: emu.endpoint, getSecretKey: async () => key, retryBaseDelayMs: 1 });
    clients.push(c);
    return c;
  }

  async function requests(): Promise<number> {
    const stats = await emulatorControl(emu.origin, 'stats') as { requests: Record<string, number> };
    return stats.requests['Admin/GetPlayedTitleList'] ?? 0;
  }

  before(async () => {
    emu = await checkedEmulator({ seed: 'demo' });
  });
  after(async () => {
    await emu.close();
  });
  beforeEach(async () => {
    await emulatorControl(emu.origin, 'reset', {});
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  it('each distinct player once: the titles played, or not-found; each answer reported as it comes', async () => {
    const ids = [DEMO_PLAYERS[0].platformId, DEMO_UNLINKED.platformId, DEMO_PLAYERS[1].platformId, DEMO_PLAYERS[0].platformId];
    const reported: [string, PlayedTitlesCheck][] = [];
    const progress: number[] = [];
    const found = await checkPlayedTitles(client(), ids, { onChecked: (id, c) => reported.push([id, c]), onProgress: (done) => progress.push(done) });
    assert.equal(await requests(), 3);
    assert.deepEqual([...found.keys()].sort(), [...new Set(ids)].sort());
    assert.deepEqual(found.get(DEMO_UNLINKED.platformId), { status: 'not-found' });
    const first = found.get(DEMO_PLAYERS[0].platformId);
    assert.ok(first?.status === 'found');
    assert.deepEqual([...first.titleIds].sort(), [...DEMO_PLAYERS[0].playedTitles].sort());
    assert.deepEqual(new Map(reported), found);
    assert.deepEqual(progress, [0, 1, 2, 3]);
  });

  it('Cancel throws the caller\'s error after reporting the answers that came; nothing more is sent', async () => {
    await emulatorControl(emu.origin, 'faults', { latencyMs: 100 });
    const ids = DEMO_PLAYERS.slice(0, 20).map((p) => p.platformId);
    const abort = new AbortController();
    const reported = new Map<string, PlayedTitlesCheck>();
    const e = await checkPlayedTitles(client(), ids, {
      signal: abort.signal,
      concurrency: 1,
      onChecked: (id, c) => {
        reported.set(id, c);
        abort.abort();
      },
      cancelled: () => new PlatformError({ kind: 'cancelled', message: 'stopped here', hint: '' }),
    }).then(() => assert.fail('not cancelled'), (err: unknown) => err);
    await emulatorControl(emu.origin, 'faults/clear', {});
    assert.ok(e instanceof PlatformError && e.message === 'stopped here', String(e));
    assert.deepEqual([...reported.keys()], [ids[0]]);
    assert.equal(await requests(), 1);
  });

  it('a refused key stops every player and is thrown', async () => {
    const progress: number[] = [];
    const e = await checkPlayedTitles(client('WRONGKEY0123456789ABCDEFGHIJKLMNOPQRSTUV'), DEMO_PLAYERS.slice(0, 10).map((p) => p.platformId), { concurrency: 1, onProgress: (d) => progress.push(d) })
      .then(() => assert.fail('no failure'), (err: unknown) => err);
    assert.ok(e instanceof PlatformError && (e.httpStatus === 401 || e.httpStatus === 403), String(e));
    assert.equal(await requests(), 1);
    assert.deepEqual(progress, [0], 'a player the run stopped on is not counted as checked');
  });

  it('Cancel while an answer is awaited: the request is abandoned and nothing is reported for that player', async () => {
    await emulatorControl(emu.origin, 'faults', { latencyMs: 3000 });
    const abort = new AbortController();
    const reported: PlayedTitlesCheck[] = [];
    const progress: number[] = [];
    const run = checkPlayedTitles(client(), [DEMO_PLAYERS[0].platformId], { signal: abort.signal, onChecked: (_, c) => reported.push(c), onProgress: (d) => progress.push(d) });
    // Abort once the emulator has the request (it holds the answer 3 s).
    while (await requests() === 0) await new Promise((r) => setImmediate(r));
    abort.abort();
    const e = await run.then(() => assert.fail('not cancelled'), (err: unknown) => err);
    await emulatorControl(emu.origin, 'faults/clear', {});
    assert.ok(e instanceof PlatformError && e.kind === 'cancelled', String(e));
    assert.deepEqual(reported, []);
    assert.deepEqual(progress, [0]);
  });

  it('a player the service keeps failing (HTTP 500, 429) is failed with the reason; the run goes on to the others', async () => {
    for (const kind of ['500', '429']) {
      await emulatorControl(emu.origin, 'faults', { rules: [{ operation: 'Admin/GetPlayedTitleList', times: -1, kind, retryAfterSeconds: 0 }] });
      const ids = DEMO_PLAYERS.slice(0, 3).map((p) => p.platformId);
      const progress: number[] = [];
      const found = await checkPlayedTitles(new PlatformClient({ titleId: TITLE.titleId, endpoint: emu.endpoint, getSecretKey: async () => TITLE.secretKey, retryBaseDelayMs: 1, maxRetries: 0 }), ids,
        { concurrency: 1, onProgress: (done, total) => progress.push(done * 10 + total) });
      await emulatorControl(emu.origin, 'faults/clear', {});
      assert.deepEqual([...found.keys()], ids, kind);
      for (const check of found.values()) assert.ok(check.status === 'failed' && check.reason.length > 0, `${kind}: ${JSON.stringify(check)}`);
      assert.deepEqual(progress, [3, 13, 23, 33], kind);
    }
  });

  it('no players: no request, progress 0 of 0; cancelled before the start: the default cancellation, nothing sent', async () => {
    const progress: [number, number][] = [];
    assert.deepEqual(await checkPlayedTitles(client(), [], { onProgress: (d, t) => progress.push([d, t]) }), new Map());
    assert.deepEqual(progress, [[0, 0]]);
    const e = await checkPlayedTitles(client(), [DEMO_PLAYERS[0].platformId], { signal: AbortSignal.abort() }).then(() => assert.fail('not cancelled'), (err: unknown) => err);
    assert.ok(e instanceof PlatformError && e.kind === 'cancelled' && e.message === 'Cancelled.' && e.hint === 'Run it again when ready.', String(e));
    assert.equal(await requests(), 0);
  });

  it('asks at most 4 players at a time unless told, and as many at once as it may', async () => {
    await emulatorControl(emu.origin, 'faults', { latencyMs: 600 });
    let inFlight = 0;
    let most = 0;
    const c = client();
    const counting = {
      getPlayedTitleList: async (id: string, o?: { signal?: AbortSignal }) => {
        most = Math.max(most, ++inFlight);
        try { return await c.getPlayedTitleList(id, o); } finally { inFlight--; }
      },
    };
    const ids = DEMO_PLAYERS.slice(0, 9).map((p) => p.platformId);
    assert.equal((await checkPlayedTitles(counting, ids)).size, 9);
    assert.equal(most, 4);
    most = 0;
    assert.equal((await checkPlayedTitles(counting, ids, { concurrency: 6 })).size, 9);
    assert.equal(most, 6, 'as many as told, past the default');
    most = 0;
    assert.equal((await checkPlayedTitles(counting, ids.slice(0, 2), { concurrency: 6 })).size, 2);
    assert.equal(most, 2);
    await emulatorControl(emu.origin, 'faults/clear', {});
  });
});

