// The evidence chain: a changed, a removed and a reordered line of evidence.json each fail the
// check, and so do an edited evidence.md and entries cut off the end (the state file's anchor);
// dropping the personal values (retention) keeps the chain.
import * as assert from 'node:assert/strict';
import { checkEvidence, newRequest, type DataRequest } from '../../../src/core/requests';
import { evidenceBodies, evidenceJson } from '../../../src/core/requests/evidence';
import { chain, OP_REF, REQUEST_KEY } from './operatorSupport';
import { dropPersonalValues } from '../../../src/core/requests/evidenceCheck';
import { evidenceMarkdown } from '../../../src/core/requests/evidenceMarkdown';

function closedRequest(): DataRequest {
  const r = newRequest({
    reference: 'TICKET-7 | *urgent*', asks: ['access', 'erasure'], identifiers: [{ kind: 'email', value: 'ana@example.com' }, { kind: 'storefront', value: 'ana_k' }],
    titles: ['F71AC'], endpoint: 'http://127.0.0.1:1/{titleId}', received: '2026-01-05',
  });
  r.resolution = {
    at: '2026-01-05T10:00:00.000Z', titlesAsked: ['F71AC'], titlesSkipped: [],
    findings: [{ identifier: 0, titleId: 'F71AC', platformId: '9437A5ADDAE3012D' }, { identifier: 1, titleId: 'F71AC', platformId: null }],
    accounts: [{ platformId: '9437A5ADDAE3012D', titleIds: ['F71AC'], foundIn: ['F71AC'], identifiers: [0], senderTitleId: 'F71AC' }],
    gone: [], calls: [{ at: '2026-01-05T10:00:00.000Z', titleId: 'F71AC', operation: 'GetUserAccountInfo', identifiers: [0], outcome: 'found' }],
  };
  r.actions = [
    { kind: 'export', platformId: '9437A5ADDAE3012D', titleId: 'F71AC', status: 'completed', jobReceiptId: 'R1', completedBy: 'recorded', completedAt: '2026-01-06T00:00:00.000Z', downloadUrl: 'https://dl.example/x?sig=abc' },
    { kind: 'erasure', platformId: '9437A5ADDAE3012D', titleId: 'F71AC', status: 'completed', jobReceiptId: 'R2', completedBy: 'AccountNotFound' },
  ];
  return r;
}

function evidenceOf(r: DataRequest): { json: string; md: string; head: string } {
  const ev = chain(r.id, evidenceBodies(r, [], '2026-01-08T00:00:00.000Z', { key: REQUEST_KEY, closer: OP_REF }));
  return { json: evidenceJson(ev), md: evidenceMarkdown(ev), head: ev.head };
}

/** The lines of evidence.json that are entries (between the envelope's first and last line). */
const entryLines = (json: string): number[] => json.split('\n').map((l, i) => (l.startsWith('{"seq"') ? i : -1)).filter((i) => i >= 0);

describe('requests: the evidence chain', () => {
  it('holds as written; the download link itself is not in it, only its origin and hash', () => {
    const r = closedRequest();
    const e = evidenceOf(r);
    const c = checkEvidence(e.json, { markdown: e.md, anchor: e.head, requestId: r.id });
    assert.deepEqual(c.problems, []);
    assert.equal(c.ok, true);
    assert.ok(c.entries >= 6);
    assert.doesNotMatch(e.json + e.md, /sig=abc/);
    assert.match(e.json, /"linkOrigin":"https:\/\/dl\.example"/);
    // Service and user text is inert in the Markdown: the ticket's pipe and asterisks cannot break the table.
    assert.match(e.md, /ticket TICKET-7 \\\| \\\*urgent\\\*/);
  });

  it('a changed line, a removed line and a reordered line of evidence.json each fail the check', () => {
    const r = closedRequest();
    const e = evidenceOf(r);
    const lines = e.json.split('\n');
    const at = entryLines(e.json);
    const check = (json: string): ReturnType<typeof checkEvidence> => checkEvidence(json, { anchor: e.head, requestId: r.id });

    const changed = [...lines];
    changed[at[2]] = changed[at[2]].replace('"at":"2026-01-05T10:00:00.000Z"', '"at":"2026-01-04T10:00:00.000Z"');
    assert.notEqual(changed[at[2]], lines[at[2]], 'the test changed something');
    const c1 = check(changed.join('\n'));
    assert.equal(c1.ok, false);
    assert.ok(c1.problems.some((p) => /entry 3 was changed/.test(p)), c1.problems.join('; '));

    const removed = lines.filter((_, i) => i !== at[1]);
    const c2 = check(removed.join('\n'));
    assert.equal(c2.ok, false);
    assert.ok(c2.problems.some((p) => /entry 2 .*(numbered 3|does not follow)/.test(p)), c2.problems.join('; '));

    const reordered = [...lines];
    [reordered[at[1]], reordered[at[2]]] = [reordered[at[2]], reordered[at[1]]];
    const c3 = check(reordered.join('\n'));
    assert.equal(c3.ok, false);
    assert.ok(c3.problems.some((p) => /reordered|does not follow/.test(p)), c3.problems.join('; '));

    // Removing the last entry (and mending the JSON around it) is seen against the head the state file kept.
    const cut = lines.filter((_, i) => i !== at[at.length - 1]);
    cut[at[at.length - 2]] = cut[at[at.length - 2]].replace(/,$/, '');
    const tail = JSON.parse(cut.join('\n')) as { entries: { hash: string }[]; head: string };
    tail.head = tail.entries[tail.entries.length - 1].hash;
    const c4 = checkEvidence(JSON.stringify(tail), { anchor: e.head, requestId: r.id });
    assert.equal(c4.ok, false);
    assert.ok(c4.problems.some((p) => /state file recorded on closing/.test(p)), c4.problems.join('; '));
  });

  it('a changed personal value is caught though the chain hashes only its hash; an edited evidence.md is caught', () => {
    const r = closedRequest();
    const e = evidenceOf(r);
    const c1 = checkEvidence(e.json.replace('ana@example.com', 'bob@example.com'), { anchor: e.head, requestKey: REQUEST_KEY });
    assert.ok(c1.problems.some((p) => /do not match their hash under the request's key/.test(p)), c1.problems.join('; '));
    assert.ok(c1.problems.some((p) => /differ from those the pack was signed with/.test(p)), c1.problems.join('; '));
    const c2 = checkEvidence(e.json, { markdown: e.md.replace('completed', 'complete'), anchor: e.head });
    assert.deepEqual(c2.problems, ['evidence.md does not match evidence.json: the readable document was edited']);
  });

  it('retention drops every personal value and the chain still holds', () => {
    const r = closedRequest();
    const ev = chain(r.id, evidenceBodies(r, [], '2026-01-08T00:00:00.000Z', { key: REQUEST_KEY, closer: OP_REF }));
    const kept = dropPersonalValues(ev);
    const json = evidenceJson(kept);
    assert.doesNotMatch(json, /ana@example\.com|ana_k|9437A5ADDAE3012D/);
    const c = checkEvidence(json, { markdown: evidenceMarkdown(kept), anchor: ev.head, requestId: r.id });
    assert.deepEqual(c.problems, []);
    assert.match(evidenceMarkdown(kept), /\\\[hashed [0-9a-f]{12}\\\]/);
  });
});
