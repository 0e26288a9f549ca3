// PlatformClient against a scripted HTTP server on 127.0.0.1: parsing, retry policy, deletes,
// cancellation, bulk lookups and the title token cache. Request counts come from the server.
import * as assert from 'node:assert/strict';
import { INFO_REQUEST_FLAGS } from '../../../src/core/api/operations';
import * as net from 'node:net';
import { PlatformClient, type PlatformClientOptions, type RequestLogEntry } from '../../../src/core/api/client';
import { PlatformError } from '../../../src/core/api/errors';
import { rejection } from '../helpers/rejection';
import { fail, ok, startScriptedServer, type ScriptedRequest, type ScriptedServer } from '../helpers/scriptedServer';

const TITLE = 'F71AC';
const KEY = 'SECRETKEY0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const PID = '9437A5ADDAE3012D';
const T0 = Date.parse('2030-01-01T00:00:00Z');
const HOUR = 3600_000;

const R = {
  delete: 'Admin/DeleteMasterPlayerAccount',
  played: 'Admin/GetPlayedTitleList',
  login: 'Server/LoginWithLauncher',
  live: 'Server/GetPlatformIDsFromConsoleLiveIDs',
  store: 'Server/GetPlatformIDsFromStorefrontNames',
  handheld: 'Addon/GetHandheldStore',
  mobile: 'Addon/DeleteMobileStore',
  netb: 'Addon/DeleteConsoleNetB',
  token: 'Authentication/GetEntityToken',
};

function tokenReply(n: number, expiresAt: number): ReturnType<typeof ok> {
  return ok({ EntityToken: `title-token-${n}-abcdefghijklmnopqrstuvwxyz`, TokenExpiration: new Date(expiresAt).toISOString(), Entity: { Id: TITLE, Type: 'title', TypeString: 'title' } });
}

/** Lookup answers built from the request: names starting with "p" are linked, answered in reverse order. */
function lookupReply(idMember: string, listMember: string) {
  return (req: ScriptedRequest) => {
    const ids = (req.json as Record<string, string[]>)[listMember];
    const data = ids.map((id) => ({ [idMember]: id, PlatformId: id.startsWith('p') ? `ABCDEF${String(id.length).padStart(10, '0')}` : null }));
    return ok({ Data: data.reverse() });
  };
}

describe('core/PlatformClient (scripted server)', () => {
  let server: ScriptedServer;
  const clients: PlatformClient[] = [];
  let log: RequestLogEntry[];
  let clock: number;

  function client(o: Partial<PlatformClientOptions> = {}): PlatformClient {
    const c = new PlatformClient({
      titleId: TITLE, endpoint: server.endpoint, getSecretKey: () => Promise.resolve(KEY),
      timeoutMs: 2000, retryBaseDelayMs: 1, onRequest: (e) => log.push(e), now: () => clock, ...o,
    });
    clients.push(c);
    return c;
  }

  beforeEach(async () => {
    server = await startScriptedServer();
    log = [];
    clock = T0;
    let tokens = 0;
    server.setDefault(R.token, () => tokenReply(++tokens, T0 + 24 * HOUR));
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await server.close();
  });

  describe('requests and results', () => {
    it('deleteMasterPlayerAccount posts JSON with the secret key and returns the receipt', async () => {
      server.queue(R.delete, ok({ JobReceiptId: 'job-1', TitleIds: ['F71AC', 'A248'] }));
      const r = await client().deleteMasterPlayerAccount({ PlatformId: PID, MetaData: 'ticket 7' });
      assert.deepEqual(r, { JobReceiptId: 'job-1', TitleIds: ['F71AC', 'A248'] });
      const req = server.requests[0];
      assert.equal(req.method, 'POST');
      assert.equal(req.url, `/${TITLE}/${R.delete}`);
      assert.equal(req.headers['content-type'], 'application/json');
      assert.equal(req.headers['x-secretkey'], KEY);
      assert.equal(req.headers['x-entitytoken'], undefined);
      assert.equal(req.headers['x-reporterrorassuccess'], undefined);
      assert.deepEqual(req.json, { PlatformId: PID, MetaData: 'ticket 7' });
      assert.deepEqual(log.map((e) => [e.operation, e.titleId, e.httpStatus, e.attempt, e.ok]), [['DeleteMasterPlayerAccount', TITLE, 200, 1, true]]);
    });

    it('getPlayedTitleList and loginWithLauncher send the spec members', async () => {
      server.queue(R.played, ok({ TitleIds: ['F71AC'] }));
      const login = { NewlyCreated: true, PlatformId: PID, SessionTicket: 'ticket', EntityToken: { EntityToken: 'player-token', TokenExpiration: '2030-01-02T00:00:00Z', Entity: { Id: 'P1', Type: 'title_player_account' } }, InfoResultPayload: { UserVirtualCurrency: { GO: 10 }, UserDataVersion: 1, UserReadOnlyDataVersion: 0 } };
      server.queue(R.login, ok(login));
      const c = client();
      assert.deepEqual(await c.getPlayedTitleList(PID), { TitleIds: ['F71AC'] });
      const req = { IdentityToken: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln', CreateAccount: true, CustomTags: { build: '7' }, InfoRequestParameters: { GetUserVirtualCurrency: true } };
      assert.deepEqual(await c.loginWithLauncher(req), login);
      assert.deepEqual(server.requests[0].json, { PlatformId: PID });
      // The published contract wants every info flag present: the ones not asked for go as false.
      const flags = Object.fromEntries(INFO_REQUEST_FLAGS.map((f) => [f, f === 'GetUserVirtualCurrency']));
      assert.deepEqual(server.requests[1].json, { ...req, InfoRequestParameters: flags });
      assert.equal(server.requests[1].headers['x-secretkey'], KEY);
    });

    it('getHandheldStore uses a title entity token and strips ClientSecret', async () => {
      server.queue(R.handheld, ok({ Created: true, ApplicationID: '123', Environments: [{ ClientID: 'c', ClientSecret: 'S3CRET-VALUE', ID: 'prod' }] }));
      const r = await client().getHandheldStore();
      assert.deepEqual(r, { Created: true, ApplicationID: '123', Environments: [{ ClientID: 'c', ID: 'prod' }] });
      assert.equal(server.requests[0].route, R.token);
      assert.equal(server.requests[0].headers['x-secretkey'], KEY);
      const addon = server.requests[1];
      assert.equal(addon.headers['x-entitytoken'], 'title-token-1-abcdefghijklmnopqrstuvwxyz');
      assert.equal(addon.headers['x-secretkey'], undefined);
      assert.deepEqual(addon.json, {});
    });

    it('mutate DeleteMobileStore and DeleteConsoleNetB resolve on an empty data object', async () => {
      server.queue(R.mobile, ok({}));
      server.queue(R.netb, ok({}));
      const c = client();
      assert.deepEqual(await c.mutate('DeleteMobileStore', {}), {});
      assert.deepEqual(await c.mutate('DeleteConsoleNetB', {}), {});
      assert.deepEqual(server.requests.map((r) => r.route), [R.token, R.mobile, R.netb]);
    });

    it('sends X-ReportErrorAsSuccess when asked, and reads the real status from the body', async () => {
      server.queue(R.mobile, { status: 200, body: { code: 400, status: 'BadRequest', error: 'AddonDoesntExist', errorCode: 19009, errorMessage: 'gone' } });
      const e = await rejection(client({ reportErrorAsSuccess: true }).mutate('DeleteMobileStore', {}));
      assert.equal(server.requests[1].headers['x-reporterrorassuccess'], 'true');
      assert.equal(e.kind, 'service');
      assert.equal(e.httpStatus, 200);
      assert.equal(e.code, 400);
      assert.equal(e.error, 'AddonDoesntExist');
      assert.equal(e.outcomeUnknown, false);
      assert.match(e.message, /add-on does not exist/);
      assert.equal(server.count(R.mobile), 1);
    });
  });

  describe('bad input and bad answers', () => {
    it('refuses bad PlatformIds, empty identity tokens and a missing key before sending anything', async () => {
      const c = client();
      assert.equal((await rejection(c.deleteMasterPlayerAccount({ PlatformId: 'not-an-id' }))).kind, 'validation');
      assert.equal((await rejection(c.deleteMasterPlayerAccount(undefined as never))).kind, 'validation');
      assert.equal((await rejection(c.getPlayedTitleList('12'))).kind, 'validation');
      assert.equal((await rejection(c.loginWithLauncher({ IdentityToken: ' ' }))).kind, 'validation');
      assert.equal((await rejection(c.getPlatformIdsFromStorefrontNames(['a', '']))).message, 'StorefrontNames[1] is empty.');
      assert.equal((await rejection(c.getPlatformIdsFromConsoleLiveIds(['a'], ''))).kind, 'validation');
      const noKey = await rejection(client({ getSecretKey: () => Promise.resolve(undefined) }).getPlayedTitleList(PID));
      assert.equal(noKey.kind, 'validation');
      assert.equal(noKey.message, `No secret key set for title ${TITLE}.`);
      assert.match(noKey.hint, /secret key/);
      assert.equal(server.requests.length, 0);
    });

    it('refuses bad options with a validation error', () => {
      assert.throws(() => client({ titleId: 'F7.evil' }), (e: unknown) => e instanceof PlatformError && e.kind === 'validation');
      assert.throws(() => client({ endpoint: 'http://example.net/{titleId}' }), (e: unknown) => e instanceof PlatformError && e.kind === 'validation');
      assert.throws(() => client({ timeoutMs: -1 }), /timeoutMs/);
      assert.throws(() => client({ concurrency: 0 }), /concurrency/);
    });

    it('turns HTML, cut-off JSON and wrong types into malformed errors', async () => {
      const c = client({ maxRetries: 0 });
      server.queue(R.played, { status: 502, body: '<html><h1>Bad gateway</h1></html>', headers: { 'content-type': 'text/html' } });
      const html = await rejection(c.getPlayedTitleList(PID));
      assert.equal(html.kind, 'malformed');
      assert.equal(html.httpStatus, 502);
      server.queue(R.played, { status: 200, body: '{"code":200,"data":{"TitleIds":["F7' });
      assert.equal((await rejection(c.getPlayedTitleList(PID))).kind, 'malformed');
      server.queue(R.played, ok({ TitleIds: [1, 2] }));
      const wrong = await rejection(c.getPlayedTitleList(PID));
      assert.equal(wrong.kind, 'malformed');
      assert.match(wrong.message, /TitleIds\[0\] should be a string/);
    });

    it('reports a connection cut in the middle of the body as a network error', async () => {
      server.queue(R.played, { ...ok({ TitleIds: ['F71AC'] }), action: 'truncate' });
      const e = await rejection(client({ maxRetries: 0 }).getPlayedTitleList(PID));
      assert.equal(e.kind, 'network');
    });

    it('keeps secrets out of errors and request logs, even when the service echoes them', async () => {
      const identity = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzZWNyZXQifQ.c2lnbmF0dXJl';
      server.queue(R.login, fail(400, 'InvalidAuthToken', 1326, { errorMessage: `bad token ${identity} for key ${KEY}`, errorDetails: { [KEY]: [`X-SecretKey: ${KEY}`] } }));
      const e = await rejection(client().loginWithLauncher({ IdentityToken: identity }));
      const everything = JSON.stringify({ message: e.message, hint: e.hint, errorMessage: e.errorMessage, details: e.errorDetails, error: e.error, stack: e.stack, log });
      assert.ok(!everything.includes(KEY), 'secret key leaked');
      assert.ok(!everything.includes(identity), 'identity token leaked');
      assert.match(e.message, /identity token is not valid/);
      assert.equal(e.errorCode, 1326);
    });

    it('clips hostile errorDetails (huge field names, many fields, "-eyJ" runs) before they are scanned and kept', async () => {
      const hostile = '-eyJ'.repeat(250_000);
      const details: Record<string, string[]> = { [hostile]: [hostile, ...Array.from({ length: 500 }, (_, i) => `m${i}`)] };
      for (let i = 0; i < 500; i++) details[`f${i}`] = ['x'];
      server.queue(R.store, fail(400, 'InvalidParams', 1000, { errorDetails: details }));
      const e = await rejection(client({ maxRetries: 0 }).getPlatformIdsFromStorefrontNames(['a']));
      const entries = Object.entries(e.errorDetails ?? {});
      assert.ok(entries.length > 0 && entries.length <= 50, `${entries.length} fields kept`);
      for (const [k, v] of entries) {
        assert.ok(k.length <= 1100 && v.length <= 50 && v.every((m) => m.length <= 1100), 'a field name or message kept whole');
      }
    });
  });

  describe('retry policy', () => {
    it('retries 5xx with backoff until success', async () => {
      server.queue(R.played, fail(503, 'ServiceUnavailable', 1123), { status: 500, body: 'oops' }, ok({ TitleIds: [] }));
      assert.deepEqual(await client().getPlayedTitleList(PID), { TitleIds: [] });
      assert.equal(server.count(R.played), 3);
      assert.deepEqual(log.map((e) => [e.attempt, e.ok, e.httpStatus]), [[1, false, 503], [2, false, 500], [3, true, 200]]);
    });

    it('gives up after maxRetries', async () => {
      server.setDefault(R.played, fail(503, 'ServiceUnavailable', 1123));
      const e = await rejection(client({ maxRetries: 2 }).getPlayedTitleList(PID));
      assert.equal(e.errorCode, 1123);
      assert.equal(server.count(R.played), 3);
    });

    it('retries 408, 409 and retryable codes on a 400', async () => {
      server.queue(R.played, { status: 408, body: '' }, { status: 409, body: { code: 409, errorCode: 1133, error: 'ConcurrentEditError' } },
        fail(400, 'DataUpdateRateExceeded', 1287), ok({ TitleIds: ['A248'] }));
      assert.deepEqual(await client().getPlayedTitleList(PID), { TitleIds: ['A248'] });
      assert.equal(server.count(R.played), 4);
    });

    it('never retries the listed codes, even on a retryable status, nor 400/401/403/404', async () => {
      const c = client();
      const cases: [ReturnType<typeof fail>, number][] = [
        [fail(503, 'InvalidParams', 1000), 1000], [fail(500, 'AccountNotFound', 1001), 1001], [fail(503, 'AccountBanned', 1002), 1002],
        [fail(503, 'InvalidTitleId', 1004), 1004], [fail(503, 'InvalidRequest', 1071), 1071], [fail(503, 'NotAuthenticated', 1074), 1074],
        [fail(503, 'NotAuthorized', 1089), 1089], [fail(503, 'Other', 1191), 1191], [fail(503, 'AccountDeleted', 1322), 1322],
        [fail(503, 'InvalidEntityType', 1373), 1373], [fail(401, 'NotAuthenticated', 1074), 1074], [fail(403, 'NotAuthorized', 1089), 1089],
      ];
      for (const [reply, code] of cases) {
        server.queue(R.played, reply);
        assert.equal((await rejection(c.getPlayedTitleList(PID))).errorCode, code);
      }
      server.queue(R.played, { status: 404, body: 'Not Found' });
      assert.equal((await rejection(c.getPlayedTitleList(PID))).httpStatus, 404);
      assert.equal(server.count(R.played), cases.length + 1);
    });

    it('waits as Retry-After says on 429, then retries', async () => {
      server.queue(R.store, { status: 429, headers: { 'retry-after': '0' }, body: { code: 429, error: 'APIClientRequestRateLimitExceeded', errorCode: 1199 } },
        { status: 429, body: { code: 429, error: 'APIClientRequestRateLimitExceeded', errorCode: 1199, retryAfterSeconds: 1 } });
      server.setDefault(R.store, lookupReply('StorefrontName', 'StorefrontNames'));
      const r = await client().getPlatformIdsFromStorefrontNames(['pa', 'b']);
      assert.deepEqual(r.map((x) => x.PlatformId === null), [false, true]);
      assert.equal(server.count(R.store), 3);
    });

    it('gives up at once when Retry-After is longer than the cap', async () => {
      server.queue(R.store, { status: 429, headers: { 'retry-after': '3600' }, body: { code: 429, error: 'APIClientRequestRateLimitExceeded', errorCode: 1199 } });
      const e = await rejection(client({ maxRetryAfterSeconds: 5 }).getPlatformIdsFromStorefrontNames(['a']));
      assert.equal(e.kind, 'throttled');
      assert.equal(e.retryAfterSeconds, 3600);
      assert.match(e.message, /Retry after 3600 s/);
      assert.equal(server.count(R.store), 1);
    });

    it('retries lookups after a connection reset and after a time-out', async () => {
      server.queue(R.store, { action: 'reset' }, { action: 'hang' });
      server.setDefault(R.store, lookupReply('StorefrontName', 'StorefrontNames'));
      const r = await client({ timeoutMs: 300 }).getPlatformIdsFromStorefrontNames(['pa']);
      assert.equal(r[0].PlatformId, 'ABCDEF0000000002');
      assert.equal(server.count(R.store), 3);
      assert.deepEqual(log.map((e) => e.error), ['network', 'timeout', undefined]);
    });
  });

  describe('deletes are never re-sent after an ambiguous failure', () => {
    const ambiguous: [string, () => Parameters<ScriptedServer['queue']>[1]][] = [
      ['a 503', () => fail(503, 'ServiceUnavailable', 1123)],
      ['a 500 with an HTML page', () => ({ status: 500, body: '<html>err</html>' })],
      ['a connection reset', () => ({ action: 'reset' })],
      ['a time-out', () => ({ action: 'hang' })],
      ['a garbled 200', () => ({ status: 200, body: '{"code":200,' })],
    ];
    for (const [what, reply] of ambiguous) {
      it(`DeleteMasterPlayerAccount after ${what}: one request, outcome unknown`, async () => {
        server.queue(R.delete, reply());
        server.setDefault(R.delete, ok({ JobReceiptId: 'job', TitleIds: [] }));
        const e = await rejection(client({ timeoutMs: 300 }).deleteMasterPlayerAccount({ PlatformId: PID }));
        assert.equal(e.outcomeUnknown, true);
        assert.equal(e.retryable, false);
        assert.match(e.message, /may or may not have happened/);
        assert.equal(server.count(R.delete), 1);
      });
    }

    it('DeleteMobileStore and DeleteConsoleNetB after a 503: one request each, outcome unknown', async () => {
      server.queue(R.mobile, fail(503, 'ServiceUnavailable', 1123));
      server.queue(R.netb, { action: 'reset' });
      const c = client();
      assert.equal((await rejection(c.mutate('DeleteMobileStore', {}))).outcomeUnknown, true);
      assert.equal((await rejection(c.mutate('DeleteConsoleNetB', {}))).outcomeUnknown, true);
      assert.equal(server.count(R.mobile), 1);
      assert.equal(server.count(R.netb), 1);
    });

    it('a definite 4xx on a delete is a plain error', async () => {
      server.queue(R.delete, fail(400, 'InvalidParams', 1000));
      const e = await rejection(client().deleteMasterPlayerAccount({ PlatformId: PID }));
      assert.equal(e.outcomeUnknown, false);
      assert.equal(e.errorCode, 1000);
    });

    it('a throttled delete (definitely not applied) is retried after the delay', async () => {
      server.queue(R.delete, { status: 429, body: { code: 429, errorCode: 1199, error: 'APIClientRequestRateLimitExceeded', retryAfterSeconds: 0 } },
        ok({ JobReceiptId: 'job-2', TitleIds: ['F71AC'] }));
      assert.equal((await client().deleteMasterPlayerAccount({ PlatformId: PID })).JobReceiptId, 'job-2');
      assert.equal(server.count(R.delete), 2);
    });

    it('a delete that could not connect at all is a network error with a known outcome', async () => {
      const closed = await new Promise<number>((resolve) => {
        const s = net.createServer().listen(0, '127.0.0.1', () => {
          const { port } = s.address() as net.AddressInfo;
          s.close(() => resolve(port));
        });
      });
      const e = await rejection(client({ endpoint: `http://127.0.0.1:${closed}/{titleId}`, maxRetries: 1 }).deleteMasterPlayerAccount({ PlatformId: PID }));
      assert.equal(e.kind, 'network');
      assert.equal(e.outcomeUnknown, false);
      assert.equal(log.length, 2, 'retried once: the request never left');
    });
  });

  describe('cancellation and close', () => {
    it('an aborted signal stops a call in flight and nothing is retried', async () => {
      server.setDefault(R.played, { action: 'hang' });
      const ac = new AbortController();
      const c = client();
      const p = c.getPlayedTitleList(PID, { signal: ac.signal });
      while (server.count(R.played) === 0) await new Promise((r) => setTimeout(r, 5));
      ac.abort();
      const e = await rejection(p);
      assert.equal(e.kind, 'cancelled');
      await c.whenIdle();
      assert.equal(server.count(R.played), 1);
    });

    it('a signal aborted beforehand sends nothing', async () => {
      const e = await rejection(client().getHandheldStore({ signal: AbortSignal.abort() }));
      assert.equal(e.kind, 'cancelled');
      assert.equal(server.requests.length, 0);
    });

    it('cancelling during a Retry-After wait stops at once', async () => {
      server.queue(R.played, { status: 429, body: { code: 429, errorCode: 1199, retryAfterSeconds: 30 } });
      const ac = new AbortController();
      const c = client();
      const p = c.getPlayedTitleList(PID, { signal: ac.signal });
      while (log.length === 0) await new Promise((r) => setTimeout(r, 5));
      ac.abort();
      assert.equal((await rejection(p)).kind, 'cancelled');
      await c.whenIdle();
      assert.equal(server.count(R.played), 1);
    });

    it('whenIdle() waits for the token fetch a cancelled caller left running', async () => {
      const c = client();
      await c.whenIdle();
      server.setDefault(R.token, { ...tokenReply(1, T0 + 24 * HOUR), delayMs: 100 });
      const ac = new AbortController();
      const p = c.getHandheldStore({ signal: ac.signal });
      while (server.count(R.token) === 0) await new Promise((r) => setTimeout(r, 5));
      ac.abort();
      assert.equal((await rejection(p)).kind, 'cancelled');
      assert.equal(log.length, 0, 'the token fetch is still running');
      await c.whenIdle();
      assert.deepEqual(log.map((e) => [e.operation, e.ok]), [['GetEntityToken', true]], 'whenIdle() resolved before the token fetch ended');
      assert.equal(server.count(R.handheld), 0);
    });

    it('closeWhenIdle() lets calls in flight finish, then closes; a later call says the client was replaced, not a silent cancel', async () => {
      server.setDefault(R.played, { ...ok({ TitleIds: ['F71AC'] }), delayMs: 150 });
      const c = client();
      const p = c.getPlayedTitleList(PID);
      while (server.count(R.played) === 0) await new Promise((r) => setTimeout(r, 5));
      const closing = c.closeWhenIdle();
      assert.deepEqual(await p, { TitleIds: ['F71AC'] }, 'the call in flight finished');
      await closing;
      const e = await rejection(c.getPlayedTitleList(PID));
      assert.equal(e.kind, 'network', 'shown to the user, not read as a cancellation');
      assert.match(e.message, /replaced because its settings changed/);
    });

    it('close() stops calls in flight and refuses new ones', async () => {
      server.setDefault(R.played, { action: 'hang' });
      const c = client();
      const p = rejection(c.getPlayedTitleList(PID));
      while (server.count(R.played) === 0) await new Promise((r) => setTimeout(r, 5));
      await c.close();
      assert.equal((await p).kind, 'cancelled');
      assert.equal((await rejection(c.getPlayedTitleList(PID))).kind, 'cancelled');
      await c.close();
    });
  });

  describe('bulk lookups', () => {
    it('splits into requests of at most 25, sends duplicates once, keeps input order and nulls, reports progress', async () => {
      server.setDefault(R.store, lookupReply('StorefrontName', 'StorefrontNames'));
      const names = Array.from({ length: 55 }, (_, i) => (i % 3 === 0 ? `p${i}` : `n${i}`));
      const input = [...names, 'p0', 'n1', 'p3'];
      const progress: [number, number][] = [];
      const r = await client().getPlatformIdsFromStorefrontNames(input, { onProgress: (d, t) => progress.push([d, t]) });
      assert.deepEqual(r.map((x) => x.StorefrontName), input);
      for (const x of r) {
        assert.equal(x.PlatformId, x.StorefrontName.startsWith('p') ? `ABCDEF${String(x.StorefrontName.length).padStart(10, '0')}` : null, x.StorefrontName);
      }
      const sent = server.requests.map((q) => (q.json as { StorefrontNames: string[] }).StorefrontNames);
      assert.deepEqual(sent.map((s) => s.length).sort((a, b) => a - b), [5, 25, 25]);
      assert.deepEqual(sent.flat().sort(), [...names].sort(), 'each distinct name sent exactly once');
      assert.deepEqual(progress[0], [0, 55]);
      assert.deepEqual(progress[progress.length - 1], [55, 55]);
      assert.equal(progress.length, 4);
    });

    it('ConsoleLive lookups send the Sandbox (RETAIL by default) and map positional null entries', async () => {
      server.setDefault(R.live, (req) => {
        const ids = (req.json as { ConsoleLiveAccountIDs: string[] }).ConsoleLiveAccountIDs;
        return ok({ Data: ids.map((id) => (id === 'x2' ? null : { ConsoleLiveAccountId: id, PlatformId: `${id.toUpperCase()}00000000000000`.slice(0, 16) })) });
      });
      const c = client();
      const r = await c.getPlatformIdsFromConsoleLiveIds(['x1', 'x2', 'x1']);
      assert.deepEqual(r, [
        { ConsoleLiveAccountId: 'x1', PlatformId: 'X100000000000000' },
        { ConsoleLiveAccountId: 'x2', PlatformId: null },
        { ConsoleLiveAccountId: 'x1', PlatformId: 'X100000000000000' },
      ]);
      assert.deepEqual(server.requests[0].json, { ConsoleLiveAccountIDs: ['x1', 'x2'], Sandbox: 'RETAIL' });
      await c.getPlatformIdsFromConsoleLiveIds(['x3'], 'XDKS.1');
      assert.deepEqual(server.requests[1].json, { ConsoleLiveAccountIDs: ['x3'], Sandbox: 'XDKS.1' });
      assert.deepEqual(await c.getPlatformIdsFromConsoleLiveIds([]), []);
      assert.equal(server.requests.length, 2, 'an empty list sends nothing');
    });

    it('keeps at most `concurrency` requests in flight', async () => {
      const reply = lookupReply('StorefrontName', 'StorefrontNames');
      server.setDefault(R.store, (req) => ({ ...reply(req), delayMs: 30 }));
      const names = Array.from({ length: 250 }, (_, i) => `n${i}`);
      await client().getPlatformIdsFromStorefrontNames(names, { concurrency: 3 });
      assert.equal(server.count(R.store), 10);
      assert.ok(server.maxInFlight() <= 3, `max in flight ${server.maxInFlight()}`);
      assert.ok(server.maxInFlight() >= 2, 'requests overlap');
    });

    it('cancellation stops scheduling and aborts requests in flight', async () => {
      server.setDefault(R.store, { action: 'hang' });
      const ac = new AbortController();
      const names = Array.from({ length: 250 }, (_, i) => `n${i}`);
      const c = client();
      const p = c.getPlatformIdsFromStorefrontNames(names, { concurrency: 2, signal: ac.signal });
      while (server.count(R.store) < 2) await new Promise((r) => setTimeout(r, 5));
      ac.abort();
      assert.equal((await rejection(p)).kind, 'cancelled');
      // No request in flight, no retry waiting, no chunk left to schedule: then nothing more can arrive.
      await c.whenIdle();
      assert.equal(server.count(R.store), 2);
    });

    it('a failed request fails the whole lookup with its error', async () => {
      server.queue(R.store, fail(400, 'InvalidParams', 1000, { errorDetails: { StorefrontNames: ['bad name'] } }));
      server.setDefault(R.store, lookupReply('StorefrontName', 'StorefrontNames'));
      const e = await rejection(client({ concurrency: 1 }).getPlatformIdsFromStorefrontNames(Array.from({ length: 60 }, (_, i) => `n${i}`)));
      assert.equal(e.errorCode, 1000);
      assert.deepEqual(e.errorDetails, { StorefrontNames: ['bad name'] });
      assert.equal(server.count(R.store), 1);
    });
  });

  describe('title entity token cache', () => {
    it('reuses the token until about an hour before it expires, then fetches a new one', async () => {
      server.setDefault(R.handheld, ok({ Created: false }));
      const c = client();
      await c.getHandheldStore();
      clock = T0 + 22 * HOUR;
      await c.getHandheldStore();
      assert.equal(server.count(R.token), 1);
      clock = T0 + 23 * HOUR + 60_000;
      await c.getHandheldStore();
      assert.equal(server.count(R.token), 2);
      const used = server.requests.filter((r) => r.route === R.handheld).map((r) => r.headers['x-entitytoken']);
      assert.deepEqual(used, ['title-token-1-abcdefghijklmnopqrstuvwxyz', 'title-token-1-abcdefghijklmnopqrstuvwxyz', 'title-token-2-abcdefghijklmnopqrstuvwxyz']);
      assert.equal((await c.getEntityToken()).EntityToken, 'title-token-2-abcdefghijklmnopqrstuvwxyz');
      c.clearCachedToken();
      assert.equal((await c.getEntityToken()).EntityToken, 'title-token-3-abcdefghijklmnopqrstuvwxyz');
    });

    for (const tz of ['Asia/Tokyo', 'America/Los_Angeles']) {
      it(`a TokenExpiration without an offset is UTC in ${tz} too: the token is reused, not fetched before every call`, async () => {
        const saved = process.env.TZ;
        process.env.TZ = tz;
        try {
          assert.notEqual(new Date(T0).getTimezoneOffset(), 0, `${tz} is not UTC on this machine`);
          // Two hours from expiry, written the way the service writes LastLoginTime (no zone).
          const noZone = new Date(T0 + 2 * HOUR).toISOString().slice(0, -1);
          server.setDefault(R.token, ok({ EntityToken: 'no-zone-token-abcdefghijklmnopqrstuvwxyz', TokenExpiration: noZone }));
          server.setDefault(R.handheld, ok({ Created: false }));
          const c = client();
          for (let i = 0; i < 3; i++) await c.getHandheldStore();
          assert.equal(server.count(R.token), 1, 'one token for three calls');
          clock = T0 + 2 * HOUR;
          await c.getHandheldStore();
          assert.equal(server.count(R.token), 2, 'fetched again once it expired');
        } finally {
          if (saved === undefined) delete process.env.TZ;
          else process.env.TZ = saved;
        }
      });
    }

    it('a GetEntityToken answer without EntityToken says the service returned no token', async () => {
      server.setDefault(R.token, ok({ TokenExpiration: new Date(T0 + 24 * HOUR).toISOString() }));
      const e = await rejection(client().getHandheldStore());
      assert.match(e.message, /returned no token/);
      assert.doesNotMatch(e.message, /unexpected shape/);
      assert.equal(server.count(R.handheld), 0, 'nothing sent without a token');
    });

    it('a token without TokenExpiration (or Entity) is used until the service refuses it, then fetched again once', async () => {
      let n = 0;
      server.setDefault(R.token, () => ok({ EntityToken: `no-expiry-token-${++n}-abcdefghijklmnopqrstuvwxyz` }));
      server.setDefault(R.handheld, ok({ Created: false }));
      const c = client();
      await c.getHandheldStore();
      clock = T0 + 400 * 24 * HOUR;
      await c.getHandheldStore();
      assert.equal(server.count(R.token), 1, 'no expiry: kept however long');
      server.queue(R.handheld, fail(401, 'EntityTokenRevoked', 1337), ok({ Created: true }));
      assert.deepEqual(await c.getHandheldStore(), { Created: true });
      assert.equal(server.count(R.token), 2, 'refused once: fetched again');
      const used = server.requests.filter((r) => r.route === R.handheld).map((r) => r.headers['x-entitytoken']);
      assert.deepEqual(used.slice(-2), ['no-expiry-token-1-abcdefghijklmnopqrstuvwxyz', 'no-expiry-token-2-abcdefghijklmnopqrstuvwxyz']);
    });

    it('concurrent callers share one token fetch', async () => {
      server.setDefault(R.token, { ...tokenReply(1, T0 + 24 * HOUR), delayMs: 30 });
      server.setDefault(R.handheld, ok({ Created: false }));
      const c = client();
      await Promise.all([c.getHandheldStore(), c.getHandheldStore(), c.getEntityToken(), c.getHandheldStore()]);
      assert.equal(server.count(R.token), 1);
      assert.equal(server.count(R.handheld), 3);
    });

    it('one caller cancelling does not fail the others sharing the fetch', async () => {
      server.setDefault(R.token, { ...tokenReply(1, T0 + 24 * HOUR), delayMs: 50 });
      server.setDefault(R.handheld, ok({ Created: true }));
      const c = client();
      const ac = new AbortController();
      const first = c.getHandheldStore({ signal: ac.signal });
      const second = c.getHandheldStore();
      ac.abort();
      assert.equal((await rejection(first)).kind, 'cancelled');
      assert.deepEqual(await second, { Created: true });
      assert.equal(server.count(R.token), 1);
    });

    it('on EntityTokenExpired it refreshes once and retries once, also for a delete', async () => {
      server.queue(R.mobile, fail(401, 'EntityTokenExpired', 1336), ok({}));
      await client().mutate('DeleteMobileStore', {});
      assert.equal(server.count(R.token), 2);
      const used = server.requests.filter((r) => r.route === R.mobile).map((r) => r.headers['x-entitytoken']);
      assert.deepEqual(used, ['title-token-1-abcdefghijklmnopqrstuvwxyz', 'title-token-2-abcdefghijklmnopqrstuvwxyz']);
    });

    it('a second token rejection in the same call is reported, not looped on', async () => {
      server.setDefault(R.handheld, fail(401, 'EntityTokenInvalid', 1335));
      const e = await rejection(client().getHandheldStore());
      assert.equal(e.errorCode, 1335);
      assert.equal(server.count(R.handheld), 2);
      assert.equal(server.count(R.token), 2);
    });

    it('a wrong secret key while fetching the token fails the add-on call with that error', async () => {
      server.setDefault(R.token, fail(401, 'NotAuthenticated', 1074));
      const e = await rejection(client().getHandheldStore());
      assert.equal(e.errorCode, 1074);
      assert.equal(e.operation, 'GetEntityToken');
      assert.equal(server.count(R.handheld), 0);
    });
  });
});
