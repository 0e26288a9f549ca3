// The Disposable base: what a class registers is released newest first, exactly once, even
// when one of them throws; what is registered after dispose() is released at once.
import * as assert from 'node:assert/strict';
import { Disposable } from '../../../src/extension/lifecycle';

class Owner extends Disposable {
  register<T extends { dispose(): void }>(d: T): T {
    return this._register(d);
  }
}

describe('Disposable (src/extension/lifecycle.ts)', () => {
  it('disposes what it registered in reverse order, once, past one that throws', () => {
    const calls: string[] = [];
    const o = new Owner();
    o.register({ dispose: () => calls.push('first') });
    o.register({ dispose: () => { calls.push('throws'); throw new Error('boom'); } });
    o.register({ dispose: () => calls.push('last') });
    o.dispose();
    o.dispose();
    assert.deepEqual(calls, ['last', 'throws', 'first']);
  });

  it('disposes at once what is registered after dispose()', () => {
    let disposed = 0;
    const o = new Owner();
    o.dispose();
    const d = o.register({ dispose: () => disposed++ });
    assert.equal(disposed, 1);
    assert.ok(d);
  });
});
