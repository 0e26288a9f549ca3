// Service timestamps are UTC with or without a zone; what a person reads: UTC minutes, local time
// with its zone (issue 17 item 10), durations in seconds over one. And whether a process that left
// a lock still runs.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { isProcessAlive } from '../../../src/core/processAlive';
import { parseServiceTime, readableDuration, readableLocal, readableUtc } from '../../../src/core/time';

describe('core/time: service timestamps', () => {
  it('a time without a zone is UTC, whatever the machine\'s zone; one with a zone keeps it', () => {
    const utc = Date.UTC(2025, 0, 2, 3, 4, 5);
    assert.equal(parseServiceTime('2025-01-02T03:04:05'), utc);
    assert.equal(parseServiceTime(' 2025-01-02T03:04:05.000 '), utc);
    assert.equal(parseServiceTime('2025-01-02T03:04'), utc - 5000);
    assert.equal(parseServiceTime('2025-01-02T03:04:05Z'), utc);
    assert.equal(parseServiceTime('2025-01-02T05:04:05+02:00'), utc);
    assert.ok(Number.isNaN(parseServiceTime('soon')));
  });

  it('shown as "date hh:mm UTC"; anything else as an unknown time', () => {
    assert.equal(readableUtc('2026-11-02T10:15:59.123Z'), '2026-11-02 10:15 UTC');
    assert.equal(readableUtc('yesterday'), 'an unknown time');
    assert.equal(readableUtc('x2026-11-02T10:15'), 'an unknown time');
  });
});

describe('core/processAlive', () => {
  it('this process is alive; one that has exited is not', () => {
    assert.equal(isProcessAlive(process.pid), true);
    const child = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
    assert.equal(child.status, 0);
    assert.equal(isProcessAlive(child.pid!), false);
  });

  it('a process of another user (EPERM) counts as alive', function () {
    // As root every signal is permitted; elsewhere pid 1 belongs to root.
    if (process.platform === 'win32' || process.getuid?.() === 0) this.skip();
    assert.equal(isProcessAlive(1), true);
  });
});

describe('readable times', () => {
  it('says a service time in the given zone, with the zone', () => {
    assert.equal(readableLocal('2026-11-02T10:15:00.000Z', 'Asia/Tokyo'), '2026-11-02 19:15 GMT+9');
    assert.equal(readableLocal('2026-11-02T10:15:00Z', 'America/Los_Angeles'), '2026-11-02 02:15 PST');
    assert.equal(readableLocal('2026-11-02T10:15:00Z', 'UTC'), '2026-11-02 10:15 UTC');
    // A service time without an offset is UTC (core/time), also here.
    assert.equal(readableLocal('2026-11-02T23:30:00', 'Asia/Tokyo'), '2026-11-03 08:30 GMT+9');
    assert.equal(readableLocal('not a time', 'UTC'), 'an unknown time');
    // The service's "no time" (.NET's minimum) is not a date in year 1.
    assert.equal(readableLocal('0001-01-01T00:00:00', 'UTC'), 'not set');
    assert.equal(readableLocal('0001-01-01T00:00:00Z', 'Asia/Tokyo'), 'not set');
  });

  it('says durations in seconds over one second', () => {
    assert.equal(readableDuration(0), '0 ms');
    assert.equal(readableDuration(999), '999 ms');
    assert.equal(readableDuration(1000), '1.0 s');
    assert.equal(readableDuration(3240), '3.2 s');
    assert.equal(readableDuration(118_000), '118 s');
  });
});
