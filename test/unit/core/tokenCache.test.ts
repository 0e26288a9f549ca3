// The title entity token cache on a clock the test moves: reused until its refresh time and
// fetched again exactly then; invalidating another token keeps the cached one.
import * as assert from 'node:assert/strict';
import { TitleTokenCache } from '../../../src/core/api/tokenCache';

const T0 = Date.parse('2030-01-01T00:00:00Z');
const HOUR = 3600_000;

describe('core: the title token cache', () => {
  let now = T0;
  let fetched = 0;
  const cache = (): TitleTokenCache => new TitleTokenCache(async () => {
    fetched++;
    return { EntityToken: `token-${fetched}`, TokenExpiration: new Date(now + 24 * HOUR).toISOString(), Entity: { Id: 'F71AC', Type: 'title', TypeString: 'title' } };
  }, () => now);
  beforeEach(() => { now = T0; fetched = 0; });

  it('reuses a token until an hour before it expires, and fetches again exactly then', async () => {
    const c = cache();
    assert.equal((await c.get()).EntityToken, 'token-1');
    now = T0 + 23 * HOUR - 1;
    assert.equal((await c.get()).EntityToken, 'token-1');
    now = T0 + 23 * HOUR;
    assert.equal((await c.get()).EntityToken, 'token-2');
    assert.equal(fetched, 2);
  });

  it('invalidating a token that is not the cached one keeps the cached one; the cached one, or any, is dropped', async () => {
    const c = cache();
    await c.get();
    c.invalidate('token-0');
    assert.equal((await c.get()).EntityToken, 'token-1', 'another token: kept');
    c.invalidate('token-1');
    assert.equal((await c.get()).EntityToken, 'token-2');
    c.invalidate();
    assert.equal((await c.get()).EntityToken, 'token-3');
  });

  it('concurrent callers share one fetch', async () => {
    const c = cache();
    const all = await Promise.all([c.get(), c.get(), c.get()]);
    assert.deepEqual(all.map((t) => t.EntityToken), ['token-1', 'token-1', 'token-1']);
    assert.equal(fetched, 1);
  });
});
