// Times and durations as a person reads them (issue 17 item 10): local time with the zone said,
// never raw ISO; milliseconds only under one second.
import * as assert from 'node:assert/strict';
import { readableDuration, readableLocal } from '../../../src/core/time';

describe('readable times', () => {
  it('says a service time in the given zone, with the zone', () => {
    assert.equal(readableLocal('2026-11-02T10:15:00.000Z', 'Asia/Tokyo'), '2026-11-02 19:15 GMT+9');
    assert.equal(readableLocal('2026-11-02T10:15:00Z', 'America/Los_Angeles'), '2026-11-02 02:15 PST');
    assert.equal(readableLocal('2026-11-02T10:15:00Z', 'UTC'), '2026-11-02 10:15 UTC');
    // A service time without an offset is UTC (core/time), also here.
    assert.equal(readableLocal('2026-11-02T23:30:00', 'Asia/Tokyo'), '2026-11-03 08:30 GMT+9');
    assert.equal(readableLocal('not a time', 'UTC'), 'an unknown time');
  });

  it('says durations in seconds over one second', () => {
    assert.equal(readableDuration(0), '0 ms');
    assert.equal(readableDuration(999), '999 ms');
    assert.equal(readableDuration(1000), '1.0 s');
    assert.equal(readableDuration(3240), '3.2 s');
    assert.equal(readableDuration(118_000), '118 s');
  });
});
