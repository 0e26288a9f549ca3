// What the evidence records of a request, entry by entry, from its state file and journals: every
// kind of entry with each of its optional fields, sends in time order, the export link kept only as
// its origin and hash, identifiers typed in the reference replaced, and personal values as {pii}.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { BatchRecord, JournalRecord } from '../../../src/core/deletion';
import { newRequest, type DataRequest } from '../../../src/core/requests';
import { evidenceBodies, isPii, personalValues, pii, referenceParts, withoutValues, type Pii } from '../../../src/core/requests/evidence';
import { OP_REF, REQUEST_KEY } from './operatorSupport';

const P = (v: string): Pii => pii(REQUEST_KEY, v);
const AT = '2026-01-05T10:00:00.000Z';
const ANA = '9437A5ADDAE3012D';
const BEN = '1111A5ADDAE3012D';
const GONE = '2222A5ADDAE3012D';

function fullRequest(): DataRequest {
  const r = newRequest({
    reference: 'T-9 from Ana@Example.com', asks: ['access', 'erasure'],
    identifiers: [{ kind: 'email', value: 'ana@example.com' }, { kind: 'consolelive', value: 'CL-77', sandbox: 'RETAIL' }],
    titles: ['F71AC', 'A248'], endpoint: 'http://127.0.0.1:1/{titleId}', received: '2026-01-05', now: new Date('2026-01-05T09:00:00.000Z'),
  });
  r.resolution = {
    at: AT, titlesAsked: ['F71AC'], titlesSkipped: [{ titleId: 'A248', reason: 'no key' }],
    findings: [{ identifier: 0, titleId: 'F71AC', platformId: ANA }, { identifier: 1, titleId: 'F71AC', platformId: null, error: 'HTTP 500' }],
    accounts: [
      { platformId: ANA, titleIds: ['F71AC'], foundIn: ['F71AC'], identifiers: [0], senderTitleId: 'F71AC' },
      { platformId: BEN, titleIds: [], foundIn: ['F71AC'], identifiers: [0], senderTitleId: 'F71AC', error: 'refused' },
    ],
    gone: [GONE],
    calls: [
      { at: AT, titleId: 'F71AC', operation: 'GetUserAccountInfo', identifiers: [0], outcome: 'found' },
      { at: AT, titleId: 'F71AC', operation: 'GetPlayedTitleList', platformId: ANA, outcome: 'played 1' },
    ],
  };
  r.actions = [
    { kind: 'export', platformId: ANA, titleId: 'F71AC', status: 'completed', jobReceiptId: 'R1', completedBy: 'recorded', completedAt: '2026-01-06T12:00:00.000Z', downloadUrl: 'https://dl.example:8443/x?sig=abc' },
    { kind: 'erasure', platformId: ANA, titleId: 'F71AC', status: 'completed', jobReceiptId: 'R2' },
    { kind: 'export', platformId: BEN, titleId: 'F71AC', status: 'queued', jobReceiptId: 'R3', downloadUrl: 'https://dl.example/not-completed' },
  ];
  r.withdrawn = { at: '2026-01-06T06:00:00.000Z', reason: 'the person called it off' };
  return r;
}

const batch = (operation?: BatchRecord['operation']): BatchRecord => ({
  type: 'batch', version: 1, batchId: 'b-1', titleId: 'F71AC', kind: 'platform-id', createdAt: AT, entries: [], ...(operation ? { operation } : {}),
});

describe('requests: what the evidence records of a request', () => {
  it('every kind of entry with its fields; sends in time order; the link only as origin and hash; the close names each action', () => {
    const r = fullRequest();
    const exports: JournalRecord[] = [
      batch('ExportMasterPlayerData'),
      { type: 'intent', platformId: ANA, at: '2026-01-05T11:00:00.000Z' },
      { type: 'outcome', platformId: ANA, state: 'queued', at: '2026-01-05T11:00:01.000Z', jobReceiptId: 'R1' },
    ];
    const erasures: JournalRecord[] = [
      batch(),
      { type: 'outcome', platformId: ANA, state: 'failed', at: '2026-01-05T10:30:00.000Z', error: 'HTTP 503' },
      { type: 'verified', platformId: ANA, at: '2026-01-07T00:00:00.000Z' },
    ];
    const bodies = evidenceBodies(r, [{ batch: batch('ExportMasterPlayerData'), records: exports }, { batch: batch(), records: erasures }], '2026-01-08T00:00:00.000Z', { key: REQUEST_KEY, closer: OP_REF });
    const plain = bodies.map(({ operator, ...b }) => {
      assert.deepEqual(operator, OP_REF, `${b.type} names the operator`);
      return b;
    });
    const id = (i: number): { kind: string; id: Pii } => ({ kind: r.identifiers[i].kind, id: P(r.identifiers[i].value) });
    assert.deepEqual(plain, [
      {
        type: 'request', at: r.createdAt, requestId: r.id, reference: ['T-9 from ', P('Ana@Example.com')], received: '2026-01-05', dueDays: 30, due: r.due,
        asks: ['access', 'erasure'], titles: ['F71AC', 'A248'], identifiers: [id(0), { ...id(1), sandbox: 'RETAIL' }],
      },
      { type: 'title-skipped', at: AT, titleId: 'A248', reason: 'no key' },
      { type: 'call', at: AT, titleId: 'F71AC', operation: 'GetUserAccountInfo', outcome: 'found', identifiers: [id(0)] },
      { type: 'call', at: AT, titleId: 'F71AC', operation: 'GetPlayedTitleList', outcome: 'played 1', platformId: P(ANA) },
      { type: 'finding', at: AT, identifier: id(0), titleId: 'F71AC', platformId: P(ANA) },
      { type: 'finding', at: AT, identifier: id(1), titleId: 'F71AC', platformId: null, error: 'HTTP 500' },
      { type: 'account', at: AT, platformId: P(ANA), titleIds: ['F71AC'], foundIn: ['F71AC'], sentWith: 'F71AC' },
      { type: 'account', at: AT, platformId: P(BEN), titleIds: [], foundIn: ['F71AC'], sentWith: 'F71AC', error: 'refused' },
      { type: 'account-gone', at: AT, platformId: P(GONE), outcome: 'AccountNotFound' },
      // The journals' records and the completions, in time order (the erasure's failure before the export).
      { type: 'outcome', at: '2026-01-05T10:30:00.000Z', titleId: 'F71AC', platformId: P(ANA), operation: 'DeleteMasterPlayerAccount', outcome: 'failed', error: 'HTTP 503' },
      { type: 'sent', at: '2026-01-05T11:00:00.000Z', titleId: 'F71AC', platformId: P(ANA), operation: 'ExportMasterPlayerData' },
      { type: 'outcome', at: '2026-01-05T11:00:01.000Z', titleId: 'F71AC', platformId: P(ANA), operation: 'ExportMasterPlayerData', outcome: 'queued', jobReceiptId: 'R1' },
      { type: 'withdrawn', at: '2026-01-06T06:00:00.000Z', reason: 'the person called it off' },
      {
        type: 'export-link', at: '2026-01-06T12:00:00.000Z', platformId: P(ANA), jobReceiptId: 'R1', by: 'recorded',
        linkOrigin: 'https://dl.example:8443', linkSha256: createHash('sha256').update('https://dl.example:8443/x?sig=abc').digest('hex'),
      },
      { type: 'verified', at: '2026-01-07T00:00:00.000Z', titleId: 'F71AC', platformId: P(ANA), operation: 'GetPlayedTitleList', outcome: 'AccountNotFound: the erasure is complete' },
      {
        type: 'closed', at: '2026-01-08T00:00:00.000Z', actions: [
          { kind: 'export', platformId: P(ANA), titleId: 'F71AC', status: 'completed', completedBy: 'recorded' },
          { kind: 'erasure', platformId: P(ANA), titleId: 'F71AC', status: 'completed', completedBy: null },
          { kind: 'export', platformId: P(BEN), titleId: 'F71AC', status: 'queued', completedBy: null },
        ],
      },
    ]);
  });

  it('each entry names the operator whose step ran then; the close, the operator who closed; an identifier index the request lacks is "unknown"', () => {
    const r = fullRequest();
    const first = { fingerprint: 'SHA256:first', name: 'First' };
    r.steps = [{ at: '2026-01-05T09:00:00.000Z', step: 'new', operator: first }];
    r.resolution!.findings = [{ identifier: 7, titleId: 'F71AC', platformId: null }];
    const bodies = evidenceBodies(r, [], '2026-01-08T00:00:00.000Z', { key: REQUEST_KEY, closer: OP_REF });
    assert.deepEqual(bodies[0].operator, first);
    assert.deepEqual(bodies.at(-1)?.operator, OP_REF, 'the close is named to the closer, not to the last step');
    assert.deepEqual(bodies.find((b) => b.type === 'finding')?.identifier, { kind: 'unknown', id: P('') });
  });

  it('an export completed with no time recorded is dated at the close; its receipt and who completed it default', () => {
    const r = fullRequest();
    r.withdrawn = undefined;
    r.actions = [{ kind: 'export', platformId: ANA, titleId: 'F71AC', status: 'completed', downloadUrl: 'https://dl.example/y' }];
    const link = evidenceBodies(r, [], '2026-01-08T00:00:00.000Z', { key: REQUEST_KEY, closer: OP_REF }).find((b) => b.type === 'export-link');
    assert.deepEqual({ ...link, operator: undefined, linkSha256: undefined }, {
      type: 'export-link', at: '2026-01-08T00:00:00.000Z', platformId: P(ANA), jobReceiptId: '', by: 'recorded', linkOrigin: 'https://dl.example', operator: undefined, linkSha256: undefined,
    });
  });

  it('service text in the evidence is clipped (through serviceText): a reason, an outcome, an error, a receipt', () => {
    const r = fullRequest();
    const long = 'x'.repeat(600);
    r.resolution!.titlesSkipped = [{ titleId: 'A248', reason: long }];
    r.resolution!.calls = [{ at: AT, titleId: 'F71AC', operation: 'GetUserAccountInfo', outcome: long }];
    r.resolution!.findings = [{ identifier: 0, titleId: 'F71AC', platformId: null, error: long }];
    r.resolution!.accounts = [{ platformId: ANA, titleIds: [], foundIn: ['F71AC'], identifiers: [0], senderTitleId: 'F71AC', error: long }];
    r.actions = [{ kind: 'export', platformId: ANA, titleId: 'F71AC', status: 'completed', jobReceiptId: long, downloadUrl: 'https://dl.example/y' }];
    r.withdrawn = { at: AT, reason: long };
    const journal: JournalRecord[] = [{ type: 'outcome', platformId: ANA, state: 'failed', at: AT, jobReceiptId: long, error: long }];
    const bodies = evidenceBodies(r, [{ batch: batch(), records: journal }], '2026-01-08T00:00:00.000Z', { key: REQUEST_KEY, closer: OP_REF });
    const texts = bodies.flatMap((b) => [b.reason, b.outcome, b.error].filter((x): x is string => typeof x === 'string' && x.startsWith('x')));
    // Reason, call outcome, finding error, account error, journal error, withdrawal reason: 500 characters kept.
    assert.deepEqual(texts, Array(6).fill(`${'x'.repeat(500)}… (600 characters in all)`));
    const receipts = bodies.flatMap((b) => (typeof b.jobReceiptId === 'string' ? [b.jobReceiptId] : []));
    assert.deepEqual(receipts, Array(2).fill(`${'x'.repeat(200)}… (600 characters in all)`), 'a receipt: 200');
  });

  it('the reference: every identifier of the request and any e-mail or PlatformId typed in it, in any case; short ones and the rest kept as text', () => {
    const parts = referenceParts('Ticket 12: Ana@EXAMPLE.com and 9437a5addae3012d, also bob@example.org; ab said ok to Zed', ['ana@example.com', 'ab', 'zed', '9437A5ADDAE3012D'], P);
    // A name of 3 characters is replaced; one of 2 would replace common words, so it is left.
    assert.deepEqual(parts, ['Ticket 12: ', P('Ana@EXAMPLE.com'), ' and ', P('9437a5addae3012d'), ', also ', P('bob@example.org'), '; ab said ok to ', P('Zed')]);
    // A known identifier inside a longer one is replaced once, by the longer; one at the very start and end leaves no empty text.
    assert.deepEqual(referenceParts('ana@example.com', ['ana@example.com', 'example'], P), [P('ana@example.com')]);
    assert.deepEqual(referenceParts('CL-77 x CL-77', ['CL-77'], P), [P('CL-77'), ' x ', P('CL-77')]);
    assert.deepEqual(referenceParts('nothing personal', ['ana@example.com'], P), ['nothing personal']);
    assert.deepEqual(referenceParts('', ['ana@example.com'], P), []);
  });

  it('a personal value is {pii, value} only: anything else is data; dropping values keeps hashes, arrays and other fields', () => {
    const h = P('ana@example.com');
    assert.equal(isPii(h), true);
    assert.equal(isPii({ pii: h.pii }), true);
    for (const not of [null, 'x', [h.pii], { pii: 1 }, { pii: h.pii, value: 'v', other: 1 }, { value: 'v' }]) assert.equal(isPii(not), false, JSON.stringify(not));
    const v = { a: [h, { pii: 'p', value: 'v', other: 1 }], b: { c: h, d: 2 }, e: null };
    assert.deepEqual(withoutValues(v), { a: [{ pii: h.pii }, { pii: 'p', value: 'v', other: 1 }], b: { c: { pii: h.pii }, d: 2 }, e: null });
    assert.deepEqual(personalValues(v), [[h.pii, 'ana@example.com'], [h.pii, 'ana@example.com']]);
    assert.deepEqual(personalValues(withoutValues(v)), []);
  });
});
