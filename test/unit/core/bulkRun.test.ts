// Bulk lookups without a service: a failed request stops the others (no new request, the ones in
// flight cancelled) and is what the caller gets; a cancelled run says so; the caller's signal is
// not left holding listeners once the run is over.
import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { runBulk, type BulkRun } from '../../../src/core/api/bulk';

const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => `id-${i}`);
const cancelled = (): Error => new Error('cancelled');

describe('core/api/bulk: running a bulk lookup', () => {
  it('the first failure stops the run: nothing more is sent, the request in flight is cancelled, the failure is thrown', async () => {
    const sent: AbortSignal[] = [];
    let fail!: (e: Error) => void;
    const run: BulkRun = {
      concurrency: 2,
      send: (_chunk, signal) => {
        sent.push(signal);
        // The first request fails once the second is in flight; the second waits for its cancel.
        if (sent.length === 1) return new Promise((_, reject) => { fail = reject; });
        fail(new Error('first failed'));
        return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      },
    };
    await assert.rejects(runBulk(ids(25 * 5), new AbortController().signal, run, cancelled), /^Error: first failed$/);
    assert.equal(sent.length, 2);
    assert.ok(sent[1].aborted, 'the request in flight was cancelled');
  });

  it('a run the caller cancels throws the cancellation, not the request\'s failure', async () => {
    const stop = new AbortController();
    const run: BulkRun = {
      concurrency: 1,
      send: (_chunk, signal) => new Promise((_, reject) => {
        signal.addEventListener('abort', () => reject(new Error('aborted')));
        stop.abort();
      }),
    };
    await assert.rejects(runBulk(ids(30), stop.signal, run, cancelled), /^Error: cancelled$/);
  });

  it('the caller\'s signal holds no listener of the run once it is over, whether it succeeded or failed', async () => {
    const signal = new AbortController().signal;
    const ok: BulkRun = { concurrency: 4, send: (chunk) => Promise.resolve(chunk.map((id) => ({ id, platformId: `P-${id}` }))) };
    const found = await runBulk(ids(60), signal, ok, cancelled);
    assert.equal(found.size, 60);
    assert.equal(found.get('id-59'), 'P-id-59');
    await assert.rejects(runBulk(ids(60), signal, { concurrency: 2, send: () => Promise.reject(new Error('down')) }, cancelled), /down/);
    assert.equal(getEventListeners(signal, 'abort').length, 0);
  });
});
