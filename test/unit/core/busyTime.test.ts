// Activity's duration: the time requests were in flight, overlaps counted once, gaps left out.
import * as assert from 'node:assert/strict';
import { busyTime } from '../../../src/core/busyTime';

describe('busyTime', () => {
  it('is zero with no interval, and the span of one', () => {
    assert.deepEqual(busyTime([]), { start: undefined, ms: 0 });
    assert.deepEqual(busyTime([[100, 160]]), { start: 100, ms: 60 });
  });

  it('leaves out the gaps between requests (a prompt, a confirmation)', () => {
    assert.deepEqual(busyTime([[5000, 5100], [0, 80]]), { start: 0, ms: 180 });
  });

  it('counts overlapping requests (a bulk lookup\'s pool) once, and a contained one not at all', () => {
    assert.deepEqual(busyTime([[0, 100], [50, 150], [60, 70], [150, 200]]), { start: 0, ms: 200 });
  });
});
