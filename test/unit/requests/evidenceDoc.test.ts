// The evidence's readable document line by line (each kind of entry as a person reads it, every
// value inert for Markdown), and what verify-evidence says of an evidence.json that is not one.
import * as assert from 'node:assert/strict';
import { checkEvidence } from '../../../src/core/requests';
import { evidenceJson, pii } from '../../../src/core/requests/evidence';
import { chain, OPERATOR, REQUEST_KEY } from './operatorSupport';
import { md, evidenceMarkdown } from '../../../src/core/requests/evidenceMarkdown';

const RID = 'dr-20260105-abcdef';
const P = (v: string): ReturnType<typeof pii> => pii(REQUEST_KEY, v);
const AT = '2026-01-05T10:00:00.000Z';

/** The entry column of the document's table, one line per entry. */
function entryColumn(doc: string): string[] {
  return doc.split('\n').filter((l) => /^\| \d+ \|/.test(l)).map((l) => l.replace(/^\| \d+ \| [^|]+ \| [^|]+ \| /, '').replace(/ \| `[0-9a-f]{64}` \|$/, ''));
}

describe('requests: the evidence document', () => {
  it('md(): one inert line, Markdown characters backslashed, control characters escaped, clipped', () => {
    assert.equal(md('a*b_c`d[e]f<g>h|i~j\\k'), 'a\\*b\\_c\\`d\\[e\\]f\\<g\\>h\\|i\\~j\\\\k');
    assert.equal(md('x\ny\u202e'), 'x\\\\u000ay\\\\u202e', 'escaped, then the escape\'s backslash too');
    assert.equal(md(undefined), '');
    assert.equal(md(null), '');
    assert.equal(md(0), '0');
    assert.equal(md('a'.repeat(300)), 'a'.repeat(300));
    assert.equal(md('a'.repeat(301)), `${'a'.repeat(300)}…`);
    assert.equal(md('abcd', 2), 'ab…');
  });

  it('writes each kind of entry as a sentence; personal values in code spans, or hashed once dropped', () => {
    const ev = chain(RID, [
      { type: 'request', at: AT, requestId: RID, reference: 'T-7 | *x*', received: '2026-01-05', dueDays: 30, due: '2026-02-04', asks: ['access', 'erasure'], titles: ['F71AC', 'A248'],
        identifiers: [{ kind: 'email', id: P('ana@example.com') }, { kind: 'username', id: { pii: 'f'.repeat(64) } }] },
      { type: 'title-skipped', at: AT, titleId: 'A248', reason: 'no key' },
      { type: 'call', at: AT, titleId: 'F71AC', operation: 'GetUserAccountInfo', identifiers: [{ kind: 'email', id: P('ana@example.com') }], outcome: 'found' },
      { type: 'call', at: AT, titleId: 'F71AC', operation: 'GetPlayedTitleList', platformId: P('9437A5ADDAE3012D'), outcome: 'played 1' },
      { type: 'call', at: AT, titleId: 'F71AC', operation: 'X', outcome: 'o' },
      { type: 'finding', at: AT, identifier: { kind: 'email', id: P('ana@example.com') }, titleId: 'F71AC', platformId: P('9437A5ADDAE3012D') },
      { type: 'finding', at: AT, identifier: { kind: 'username', id: P('a`n|a') }, titleId: 'F71AC', platformId: null },
      { type: 'finding', at: AT, identifier: { kind: 'username', id: P('b') }, titleId: 'F71AC', platformId: null, error: 'HTTP 500' },
      { type: 'account', at: AT, platformId: P('9437A5ADDAE3012D'), titleIds: ['F71AC', 'A248'], foundIn: ['F71AC'], sentWith: 'F71AC' },
      { type: 'account', at: AT, platformId: P('1111A5ADDAE3012D'), titleIds: [], foundIn: ['F71AC'], sentWith: 'F71AC', error: 'refused' },
      { type: 'account-gone', at: AT, platformId: P('2222A5ADDAE3012D'), outcome: 'AccountNotFound' },
      { type: 'sent', at: AT, titleId: 'F71AC', platformId: P('9437A5ADDAE3012D'), operation: 'ExportMasterPlayerData' },
      { type: 'outcome', at: AT, titleId: 'F71AC', platformId: P('9437A5ADDAE3012D'), operation: 'ExportMasterPlayerData', outcome: 'queued', jobReceiptId: 'R1' },
      { type: 'outcome', at: AT, titleId: 'F71AC', platformId: P('9437A5ADDAE3012D'), operation: 'DeleteMasterPlayerAccount', outcome: 'failed', error: 'HTTP 503' },
      { type: 'verified', at: AT, titleId: 'F71AC', platformId: P('9437A5ADDAE3012D'), operation: 'GetPlayedTitleList', outcome: 'AccountNotFound: the erasure is complete' },
      { type: 'export-link', at: AT, platformId: P('9437A5ADDAE3012D'), jobReceiptId: 'R1', by: 'event', linkOrigin: 'https://dl.example', linkSha256: 'ab12' },
      { type: 'export-link', at: AT, platformId: P('9437A5ADDAE3012D'), jobReceiptId: 'R1', by: 'recorded', linkOrigin: 'https://dl.example', linkSha256: 'ab12' },
      { type: 'closed', at: AT, actions: [{ kind: 'export', platformId: P('9437A5ADDAE3012D'), status: 'completed', completedBy: 'event' }, { kind: 'erasure', platformId: P('9437A5ADDAE3012D'), status: 'completed', completedBy: null }] },
      { type: 'closed', at: AT, actions: [] },
      { type: 'something*new', at: AT },
    ]);
    const doc = evidenceMarkdown(ev);
    const pid = '`9437A5ADDAE3012D`';
    assert.deepEqual(entryColumn(doc), [
      `request ${RID}, ticket T-7 \\| \\*x\\*: received 2026-01-05, due 2026-02-04 (30 days); asked: access, erasure; titles F71AC, A248; identifiers: email \`ana@example.com\`; username \\[hashed ffffffffffff\\]`,
      'title A248 not asked: no key',
      'GetUserAccountInfo with title F71AC for email `ana@example.com`: found',
      `GetPlayedTitleList with title F71AC for ${pid}: played 1`,
      'X with title F71AC: o',
      `email \`ana@example.com\` in title F71AC: found ${pid}`,
      "username `a'n\\|a` in title F71AC: found nothing",
      'username `b` in title F71AC: not resolved (HTTP 500)',
      `account ${pid}: plays F71AC, A248; found in F71AC; actions sent with title F71AC`,
      'account `1111A5ADDAE3012D`: plays (no titles reported); found in F71AC; actions sent with title F71AC (refused)',
      'account `2222A5ADDAE3012D`: AccountNotFound (already gone, nothing to do)',
      `sent ExportMasterPlayerData for ${pid} with title F71AC`,
      `ExportMasterPlayerData for ${pid}: queued, JobReceiptId R1`,
      `DeleteMasterPlayerAccount for ${pid}: failed (HTTP 503)`,
      `verified with GetPlayedTitleList for ${pid}: AccountNotFound: the erasure is complete`,
      `export of ${pid} (JobReceiptId R1) completed: download link from the player\\_data\\_exported event, at https://dl.example, SHA-256 ab12 (the link itself is not kept)`,
      `export of ${pid} (JobReceiptId R1) completed: download link recorded from the e-mail, at https://dl.example, SHA-256 ab12 (the link itself is not kept)`,
      `closed: export of ${pid} completed (event); erasure of ${pid} completed`,
      'closed: no account was found, nothing to act on',
      'something\\*new',
    ]);
    const lines = doc.split('\n');
    assert.equal(lines[0], `# Data request ${RID}: evidence`);
    assert.equal(lines[2], 'Ticket T-7 \\| \\*x\\*. Every entry below names the operator who caused it and carries the SHA-256 of the entry before it; the chain head is signed by the operator who closed the request. `platform-explorer request verify-evidence` checks the chain and the signature in evidence.json and that this document matches it.');
    assert.deepEqual(lines.slice(4, 6), ['| # | time (UTC) | operator | entry | SHA-256 |', '|---|---|---|---|---|']);
    const who = `Test Operator (${md(OPERATOR.fingerprint, 100)})`;
    assert.equal(lines[6], `| 1 | ${AT.replace(/_/g, '\\_')} | ${who} | ${entryColumn(doc)[0]} | \`${ev.entries[0].hash}\` |`);
    assert.ok(doc.includes(`Chain head: \`${ev.head}\`\n\nSigned by ${who} with Ed25519; public key:\n\n\`\`\`\n${OPERATOR.publicKeyPem}\`\`\`\n`), doc.slice(-400));
    // A document of no entries still names the request.
    assert.match(evidenceMarkdown(chain(RID, [])), /^# Data request dr-20260105-abcdef: evidence\n\nTicket \. Every entry/);
  });

  it('verify-evidence: not JSON, not an evidence pack, another request\'s, an entry that is no entry, a head that does not match', () => {
    const ev = chain(RID, [{ type: 'request', at: AT, requestId: RID, reference: 'T', asks: ['access'], titles: ['F71AC'], identifiers: [] }, { type: 'closed', at: AT, actions: [] }]);
    const json = evidenceJson(ev);
    const good = checkEvidence(json, { requestId: RID, anchor: ev.head, markdown: evidenceMarkdown(ev) });
    assert.deepEqual({ ...good, checked: [] }, { ok: true, entries: 2, head: ev.head, signer: { name: OPERATOR.name, fingerprint: OPERATOR.fingerprint }, problems: [], checked: [] });
    const notJson = checkEvidence(json.slice(0, -5));
    assert.equal(notJson.ok, false);
    assert.equal(notJson.entries, 0);
    assert.match(notJson.problems[0], /^evidence\.json is not JSON \(.+\): a line was removed, cut or edited$/);
    const parsed = JSON.parse(json) as Record<string, unknown>;
    const notPack = 'evidence.json is not an evidence pack of version 2 (signed)';
    for (const change of [{ format: 'x' }, { version: 1 }, { entries: {} }, { requestId: 7 }]) {
      assert.deepEqual(checkEvidence(JSON.stringify({ ...parsed, ...change })), { ok: false, entries: 0, problems: [notPack], checked: [] }, JSON.stringify(change));
    }
    assert.deepEqual(checkEvidence('null').problems, [notPack]);
    assert.deepEqual(checkEvidence(json, { requestId: 'dr-20260105-000000' }).problems, [`evidence.json is the evidence of request ${RID}, not dr-20260105-000000`]);
    const withNull = checkEvidence(JSON.stringify({ ...parsed, entries: [null, ...ev.entries] }));
    assert.ok(withNull.problems.includes('entry 1 is not an entry'), withNull.problems.join('; '));
    assert.ok(withNull.problems.some((p) => p.startsWith('entry 2 is numbered 1: entries were removed, added or reordered')), withNull.problems.join('; '));
    const badHead = checkEvidence(JSON.stringify({ ...parsed, head: 'x' })).problems;
    assert.equal(badHead[0], 'the chain head does not match the last entry: entries were added or cut off at the end');
    assert.match(badHead[1], /^the signature over the chain head does not verify/);
    // The document is compared only when the chain holds (a broken chain is the finding).
    assert.deepEqual(checkEvidence(JSON.stringify({ ...parsed, head: 'x' }), { markdown: 'edited' }).problems.length, 2);
    assert.deepEqual(checkEvidence(json, { markdown: 'edited' }).problems, ['evidence.md does not match evidence.json: the readable document was edited']);
  });
});
