// Progress reports at the start, every tenth of the work, at most every few seconds otherwise, at
// the end and when its state changes: 40 answers arriving quickly are not 40 announcements.
import * as assert from 'node:assert/strict';
import { ProgressGate } from '../../../src/core/progressGate';

describe('core/progressGate: how often progress is announced', () => {
  it('40 quick answers: the start, every tenth, the end (11 reports, not 41)', () => {
    const gate = new ProgressGate(() => 0);
    const reported = Array.from({ length: 41 }, (_, done) => done).filter((done) => gate.due(done, 40));
    assert.deepEqual(reported, [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40]);
  });

  it('slow answers are reported every few seconds, and a change of state at once', () => {
    let now = 0;
    const gate = new ProgressGate(() => now, 3000);
    assert.equal(gate.due(0, 400), true);
    now = 1000;
    assert.equal(gate.due(1, 400), false);
    assert.equal(gate.due(1, 400, 'waiting'), true, 'a change of state is reported at once');
    now = 2000;
    assert.equal(gate.due(2, 400, 'waiting'), false);
    now = 4100;
    assert.equal(gate.due(3, 400, 'waiting'), true, 'three seconds after the last report');
    now = 9000;
    assert.equal(gate.due(3, 400, 'waiting'), false, 'nothing changed: nothing to say');
  });
});
