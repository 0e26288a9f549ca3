// Error classes are recognised across bundles: two copies of one class (as two bundles hold)
// answer instanceof for each other's instances; a subclass still checks its prototype.
import * as assert from 'node:assert/strict';
import { brand } from '../../../src/core/brand';
import { PlatformError } from '../../../src/core/api/errors';

describe('brand: instanceof across copies of a class', () => {
  it('an instance of another copy of a branded class is an instance; an unrelated error is not', () => {
    class CopyA extends Error {}
    brand(CopyA, 'TestBrand');
    class CopyB extends Error {}
    brand(CopyB, 'TestBrand');
    class Other extends Error {}
    assert.ok(new CopyB() instanceof CopyA);
    assert.ok(new CopyA() instanceof CopyB);
    assert.ok(!(new Other() instanceof CopyA));
    assert.ok(!(new Error('x') instanceof CopyA));
    assert.ok(!((null as unknown as object) instanceof CopyA) && !(({}) instanceof CopyA));
    for (const x of [undefined, 42, 'CopyA', Symbol.for('x'), () => undefined]) assert.equal((x as unknown as object) instanceof CopyA, false, String(typeof x));
  });

  it('a subclass without a brand of its own is checked by its prototype', () => {
    class Base extends Error {}
    brand(Base, 'TestBase');
    class Sub extends Base {}
    assert.ok(new Sub() instanceof Base);
    assert.ok(new Sub() instanceof Sub);
    assert.ok(!(new Base() instanceof Sub));
  });

  it('PlatformError is branded: a copy from another bundle is recognised', () => {
    class PlatformErrorCopy extends Error {}
    brand(PlatformErrorCopy, 'PlatformError');
    assert.ok(new PlatformErrorCopy() instanceof PlatformError);
    assert.ok(new PlatformError({ kind: 'network', message: 'x', hint: '' }) instanceof PlatformErrorCopy);
  });
});
