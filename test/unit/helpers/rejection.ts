// The PlatformError a call fails with; fails the test when it succeeds or throws anything else.
import * as assert from 'node:assert/strict';
import { PlatformError } from '../../../src/core/api/errors';

export async function rejection(p: Promise<unknown>): Promise<PlatformError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof PlatformError, `not a PlatformError: ${e instanceof Error ? e.stack : String(e)}`);
    return e;
  }
  assert.fail('expected the call to fail');
}
