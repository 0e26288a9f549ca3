// Resolution against clients that answer as the service can, in this process: every title with a
// key asked, lookups grouped (Storefront names; ConsoleLive IDs per sandbox), one GetUserAccountInfo
// per other identifier, throttles retried, a refused key stopping its title, accounts merged by
// PlatformId and sent with the first title that found them, gone accounts set apart.
import * as assert from 'node:assert/strict';
import { PlatformError, type PlatformErrorInit } from '../../../src/core/api/errors';
import { FolderAnchorStore } from '../../../src/core/deletion';
import { newRequest, type DataRequest, type Identifier, type RequestClient, type RequestServices } from '../../../src/core/requests';
import { resolveRequest } from '../../../src/core/requests/resolve';

const P1 = '9437A5ADDAE3012D';
const P2 = '9437A5ADDAE3012E';
const P3 = '9437A5ADDAE3012F';
const fail = (o: Partial<PlatformErrorInit>): PlatformError => new PlatformError({ kind: 'service', message: `refused ${o.errorCode ?? o.httpStatus}`, hint: '', ...o });

interface Title {
  info?: Record<string, () => unknown>;
  storefront?: (names: readonly string[]) => Record<string, string | null>;
  consolelive?: (ids: readonly string[], sandbox?: string) => Record<string, string | null>;
  played?: Record<string, () => unknown>;
}

/** A client per title; every call is logged as "TITLE Operation argument". */
function services(titles: Record<string, Title>, log: string[]): RequestServices {
  const client = (t: string, def: Title): RequestClient => {
    const bulk = async (op: string, values: readonly string[], answer: Record<string, string | null>, o?: { onResolved?: (m: ReadonlyMap<string, string | null>) => void }) => {
      log.push(`${t} ${op} ${values.join('|')}`);
      o?.onResolved?.(new Map(Object.entries(answer)));
      return [];
    };
    return {
      getUserAccountInfo: async (r) => {
        const [field, value] = Object.entries(r)[0];
        log.push(`${t} GetUserAccountInfo ${field}=${value}`);
        return def.info![value as string]() as never;
      },
      getPlatformIdsFromStorefrontNames: async (names, o) => bulk('Storefront', names, def.storefront!(names), o) as never,
      getPlatformIdsFromConsoleLiveIds: async (ids, sandbox, o) => bulk(`ConsoleLive@${sandbox}`, ids, def.consolelive!(ids, sandbox), o) as never,
      getPlayedTitleList: async (pid) => {
        log.push(`${t} GetPlayedTitleList ${pid}`);
        return (def.played?.[pid] ?? (() => ({ TitleIds: [t] })))() as never;
      },
      deleteMasterPlayerAccount: async () => { throw new Error('not sent by resolution'); },
      mutate: async () => { throw new Error('not sent by resolution'); },
    };
  };
  const clients = new Map(Object.entries(titles).map(([t, def]) => [t, client(t, def)]));
  let n = 0;
  return {
    client: (t) => clients.get(t), key: async () => 'k', anchors: new FolderAnchorStore('/nonexistent'),
    now: () => new Date(Date.UTC(2026, 0, 5, 10, 0, n++)),
  };
}

const request = (identifiers: Identifier[], titles: string[]): DataRequest => newRequest({
  reference: 'T', asks: ['erasure'], identifiers, titles, endpoint: 'http://127.0.0.1:1/{titleId}', received: '2026-01-05',
});

describe('requests: resolution', () => {
  it('asks every title with a key; merges accounts by PlatformId; the first configured title that found one sends its actions', async () => {
    const log: string[] = [];
    const r = request([
      { kind: 'email', value: 'ana@example.com' }, { kind: 'storefront', value: 'ana_k' }, { kind: 'consolelive', value: '111', sandbox: 'RETAIL' },
      { kind: 'consolelive', value: '222', sandbox: 'DEV.1' }, { kind: 'platformid', value: P3 }, { kind: 'username', value: 'nobody' },
    ], ['A248', 'F71AC', 'C3A5E']);
    const s = services({
      F71AC: {
        info: { 'ana@example.com': () => ({ UserInfo: { PlatformId: P1.toLowerCase() } }), [P3]: () => ({ UserInfo: {} }), nobody: () => { throw fail({ errorCode: 1001 }); } },
        storefront: () => ({ ana_k: P1, stranger: P2 }),
        consolelive: (_ids, sandbox): Record<string, string | null> => (sandbox === 'RETAIL' ? { 111: P2 } : { 222: 'not-an-id' }),
      },
      A248: {
        info: { 'ana@example.com': () => ({}), [P3]: () => ({ UserInfo: { PlatformId: P3 } }), nobody: () => { throw fail({ errorCode: 1001 }); } },
        storefront: () => ({ ana_k: P1 }),
        consolelive: (_ids, sandbox): Record<string, string | null> => (sandbox === 'RETAIL' ? { 111: null } : {}),
        played: { [P3]: () => { throw fail({ errorCode: 1001 }); } },
      },
    }, log);
    const res = await resolveRequest(r, s);
    assert.deepEqual([res.titlesAsked, res.titlesSkipped], [['A248', 'F71AC'], [{ titleId: 'C3A5E', reason: 'no secret key for this title' }]]);
    assert.deepEqual(res.findings.map((f) => [f.identifier, f.titleId, f.platformId]), [
      [0, 'A248', null], [0, 'F71AC', P1], [1, 'A248', P1], [1, 'F71AC', P1], [2, 'A248', null], [2, 'F71AC', P2], [3, 'F71AC', null],
      [4, 'A248', P3], [4, 'F71AC', null], [5, 'A248', null], [5, 'F71AC', null],
    ], 'sorted by identifier, then by configured title; a malformed PlatformId is no account');
    assert.deepEqual(res.accounts.map((a) => [a.platformId, a.senderTitleId, a.foundIn, a.identifiers, a.titleIds]), [
      [P1, 'A248', ['A248', 'F71AC'], [0, 1], ['A248']],
      [P2, 'F71AC', ['F71AC'], [2], ['F71AC']],
    ]);
    assert.deepEqual(res.gone, [P3], 'AccountNotFound from GetPlayedTitleList: gone, not acted on');
    for (const t of ['A248', 'F71AC']) {
      assert.deepEqual(log.filter((l) => l.startsWith(`${t} `) && !l.includes('GetUserAccountInfo') && !l.includes('GetPlayedTitleList')).sort(), [
        `${t} ConsoleLive@DEV.1 222`, `${t} ConsoleLive@RETAIL 111`, `${t} Storefront ana_k`,
      ], `${t}: one lookup per kind and sandbox`);
    }
    assert.deepEqual(log.filter((l) => l.includes('GetUserAccountInfo')).sort(), [
      'A248 GetUserAccountInfo Email=ana@example.com', 'A248 GetUserAccountInfo PlatformId=9437A5ADDAE3012F', 'A248 GetUserAccountInfo Username=nobody',
      'F71AC GetUserAccountInfo Email=ana@example.com', 'F71AC GetUserAccountInfo PlatformId=9437A5ADDAE3012F', 'F71AC GetUserAccountInfo Username=nobody',
    ]);
    assert.deepEqual(log.filter((l) => l.includes('GetPlayedTitleList')).sort(), [`A248 GetPlayedTitleList ${P1}`, `A248 GetPlayedTitleList ${P3}`, `F71AC GetPlayedTitleList ${P2}`]);
    const outcomes = res.calls.map((c) => `${c.titleId} ${c.operation} ${c.identifiers?.join(',') ?? c.platformId} ${c.outcome}`).sort();
    assert.deepEqual(outcomes, [
      'A248 GetPlatformIDsFromConsoleLiveIDs 2 answered', 'A248 GetPlatformIDsFromConsoleLiveIDs  answered', 'A248 GetPlatformIDsFromStorefrontNames 1 answered',
      `A248 GetPlayedTitleList ${P1} found`, `A248 GetPlayedTitleList ${P3} not-found`,
      'A248 GetUserAccountInfo 0 answered without a PlatformId', 'A248 GetUserAccountInfo 4 found', 'A248 GetUserAccountInfo 5 not-found',
      'F71AC GetPlatformIDsFromConsoleLiveIDs 2 answered', 'F71AC GetPlatformIDsFromConsoleLiveIDs 3 answered', 'F71AC GetPlatformIDsFromStorefrontNames 1 answered',
      `F71AC GetPlayedTitleList ${P2} found`,
      'F71AC GetUserAccountInfo 0 found', 'F71AC GetUserAccountInfo 4 answered without a PlatformId', 'F71AC GetUserAccountInfo 5 not-found',
    ].sort());
    assert.match(res.at, /^2026-01-05T10:00:\d\d\.000Z$/);
  });

  it('a throttled lookup is asked again; a refused key stops its title\'s lookups (each said); a failed lookup is unresolved there, not nothing', async () => {
    const log: string[] = [];
    let throttled = 0;
    const r = request([
      { kind: 'email', value: 'a@example.com' }, { kind: 'email', value: 'b@example.com' }, { kind: 'storefront', value: 'ana_k' }, { kind: 'storefront', value: 'bo' },
    ], ['F71AC', 'A248']);
    const s = services({
      F71AC: {
        info: {
          'a@example.com': () => { if (throttled++ < 2) throw fail({ httpStatus: 429, retryAfterSeconds: 0 }); return { UserInfo: { PlatformId: P1 } }; },
          'b@example.com': () => { if (throttled++ < 2) throw fail({ errorCode: 1199, retryAfterSeconds: 0 }); return { UserInfo: { PlatformId: P1 } }; },
        },
        storefront: () => { throw fail({ httpStatus: 500, message: 'boom' }); },
        played: { [P1]: () => { throw fail({ httpStatus: 503, message: 'unavailable' }); } },
      },
      A248: {
        info: { 'a@example.com': () => { throw fail({ httpStatus: 401, message: 'bad key' }); }, 'b@example.com': () => { throw fail({ httpStatus: 401, message: 'bad key' }); } },
        storefront: () => ({ ana_k: P2 }),
      },
    }, log);
    const res = await resolveRequest(r, s);
    assert.equal(log.filter((l) => l === 'F71AC GetUserAccountInfo Email=a@example.com').length + log.filter((l) => l === 'F71AC GetUserAccountInfo Email=b@example.com').length, 4, 'two throttled answers asked again');
    const a248 = res.calls.filter((c) => c.titleId === 'A248' && c.operation === 'GetUserAccountInfo').map((c) => c.outcome);
    // The pacer spaces the two lookups, so the second finds the title stopped.
    assert.deepEqual(a248, ['failed: bad key', 'not sent: bad key']);
    assert.equal(log.filter((l) => l.startsWith('A248 GetUserAccountInfo')).length, 1);
    assert.deepEqual(res.findings.filter((f) => f.titleId === 'A248' && f.identifier < 2).map((f) => f.error), ['bad key', 'bad key']);
    const sf = res.findings.filter((f) => f.titleId === 'F71AC' && (f.identifier === 2 || f.identifier === 3));
    assert.deepEqual(sf, [{ identifier: 2, titleId: 'F71AC', platformId: null, error: 'boom' }, { identifier: 3, titleId: 'F71AC', platformId: null, error: 'boom' }]);
    assert.deepEqual(res.calls.filter((c) => c.operation === 'GetPlatformIDsFromStorefrontNames' && c.titleId === 'F71AC').map((c) => [c.identifiers, c.outcome]), [[[2, 3], 'failed: boom']]);
    // A248 answered for ana_k only: bo found nothing there (not unresolved).
    assert.deepEqual(res.findings.filter((f) => f.titleId === 'A248' && f.identifier >= 2), [{ identifier: 2, titleId: 'A248', platformId: P2 }]);
    const p1 = res.accounts.find((a) => a.platformId === P1)!;
    assert.deepEqual([p1.error, p1.titleIds], ['unavailable', []]);
  });
});
