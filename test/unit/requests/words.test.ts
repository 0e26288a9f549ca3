// A data request's outcomes in words (issue 30): correct plurals, kinds with none left out, the
// view's overdue count apart from "due this week", a reference made safe for Activity.
import * as assert from 'node:assert/strict';
import { countOf, dueSummary, referenceWords, sentWords } from '../../../src/core/requests';

describe('requests: outcome words', () => {
  it('counts with correct plurals', () => {
    assert.equal(countOf(1, 'export link'), '1 export link');
    assert.equal(countOf(0, 'export link'), '0 export links');
    assert.equal(countOf(2, 'master player account'), '2 master player accounts');
  });

  it('what a run sent: kinds with none left out, "and" before the last, "nothing sent" for none', () => {
    assert.equal(sentWords({ export: 0, events: 0, erasure: 2 }), '2 erasures sent');
    assert.equal(sentWords({ export: 1, erasure: 2 }), '1 export and 2 erasures sent');
    assert.equal(sentWords({ export: 3, events: 1, erasure: 1 }), '3 exports, 1 events-only erasure and 1 erasure sent');
    assert.equal(sentWords({}), 'nothing sent');
  });

  it('the view counts overdue requests apart from those due this week', () => {
    assert.equal(dueSummary(1, 0), '1 overdue');
    assert.equal(dueSummary(0, 2), '2 due this week');
    assert.equal(dueSummary(1, 2), '1 overdue, 2 more due this week');
    assert.equal(dueSummary(0, 0), undefined);
  });

  it('a reference for Activity: markup and control characters become spaces, 60 characters at most', () => {
    assert.equal(referenceWords('PRIV-0412'), 'PRIV-0412');
    assert.equal(referenceWords('<b>PRIV</b>\u0000-1'), 'b PRIV /b -1');
    assert.equal(referenceWords('X'.repeat(100)).length, 60);
  });
});
