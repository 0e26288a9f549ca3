// Cancellation helpers on long-lived signals (a command's cancellation, the client's close): they
// leave no listener and no timer behind once done, so a session of many calls does not pile them
// up or keep the process alive; the linked signal takes any number of listeners without a warning.
import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { linkSignals, sleep } from '../../../src/core/api/signals';
import { TitleTokenCache } from '../../../src/core/api/tokenCache';

const listeners = (s: AbortSignal): number => getEventListeners(s, 'abort').length;
const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('core/api signals: nothing left behind', () => {
  it('linkSignals: any source aborts the link; a source that fired keeps no listener, dispose() removes the rest; no listener limit', async () => {
    const a = new AbortController();
    const b = new AbortController();
    const link = linkSignals([a.signal, undefined, b.signal]);
    const warnings: Error[] = [];
    const onWarning = (w: Error): number => warnings.push(w);
    process.on('warning', onWarning);
    try {
      // A bulk call's requests in flight each listen on it: more than Node's default limit of 10.
      for (let i = 0; i < 20; i++) link.signal.addEventListener('abort', () => undefined);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    assert.deepEqual(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message), []);
    assert.deepEqual([listeners(a.signal), listeners(b.signal)], [1, 1]);
    a.abort();
    assert.equal(link.signal.aborted, true);
    assert.equal(listeners(a.signal), 0, 'the fired source still holds our listener');
    link.dispose();
    assert.equal(listeners(b.signal), 0);

    const done = new AbortController();
    done.abort();
    const early = linkSignals([done.signal, b.signal]);
    assert.equal(early.signal.aborted, true, 'a source aborted before linking aborts the link at once');
    assert.equal(listeners(done.signal), 0);
    early.dispose();
    assert.equal(listeners(b.signal), 0);
  });

  it('sleep: after its time it answers true and leaves no listener; cancelled, it answers false and leaves neither listener nor timer', async () => {
    const s = new AbortController();
    assert.equal(await sleep(1, s.signal), true);
    assert.equal(listeners(s.signal), 0);

    const before = timers();
    const waiting = sleep(600_000, s.signal);
    assert.equal(timers(), before + 1);
    assert.equal(listeners(s.signal), 1);
    s.abort();
    assert.equal(await waiting, false);
    assert.equal(listeners(s.signal), 0);
    assert.equal(timers(), before, 'the 10-minute timer still runs: it would keep a command-line run alive');
  });

  it('the token cache: a caller\'s signal keeps no listener after the fetch answers, fails, or the caller gives up', async () => {
    let answer!: (ok: boolean) => void;
    const cache = new TitleTokenCache(() => new Promise((resolve, reject) => {
      answer = (ok) => (ok ? resolve({ EntityToken: 't', Entity: { Id: 'F71AC', Type: 'title', TypeString: 'title' } }) : reject(new Error('refused')));
    }));
    const s = new AbortController();
    const failing = cache.get(s.signal);
    assert.equal(listeners(s.signal), 1);
    answer(false);
    await assert.rejects(failing, /refused/);
    assert.equal(listeners(s.signal), 0, 'after a failed fetch');
    const ok = cache.get(s.signal);
    answer(true);
    assert.equal((await ok).EntityToken, 't');
    assert.equal(listeners(s.signal), 0, 'after a fetched token');

    cache.invalidate();
    const giving = cache.get(s.signal);
    s.abort();
    await assert.rejects(giving, { name: 'AbortError' });
    assert.equal(listeners(s.signal), 0, 'after the caller gave up');
    answer(true);
  });
});
