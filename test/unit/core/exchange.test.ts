// One HTTP attempt (exchange.ts) against a scripted server on 127.0.0.1: what each failure says
// and whether the service may have acted on it, what the request log records, and that an attempt
// leaves no timer or listener behind on the long-lived signals it is given.
import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import * as net from 'node:net';
import { PlatformClient, type PlatformClientOptions, type RequestLogEntry } from '../../../src/core/api/client';
import { PlatformError } from '../../../src/core/api/errors';
import { exchange, type ExchangeContext } from '../../../src/core/api/exchange';
import { createTransport } from '../../../src/core/api/transport';
import { buildBaseUrl } from '../../../src/core/api/endpoint';
import { rejection } from '../helpers/rejection';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer';

const TITLE = 'F71AC';
const KEY = 'SECRETKEY0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const PID = '9437A5ADDAE3012D';
const PLAYED = 'Admin/GetPlayedTitleList';
const DELETE = 'Admin/DeleteMasterPlayerAccount';
const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

describe('core/api exchange: one attempt (scripted server)', () => {
  let server: ScriptedServer;
  const clients: PlatformClient[] = [];
  let log: RequestLogEntry[];

  function client(o: Partial<PlatformClientOptions> = {}): PlatformClient {
    const c = new PlatformClient({
      titleId: TITLE, endpoint: server.endpoint, getSecretKey: () => Promise.resolve(KEY),
      timeoutMs: 2000, retryBaseDelayMs: 1, maxRetries: 0, onRequest: (e) => log.push(e), ...o,
    });
    clients.push(c);
    return c;
  }
  /** What a client gives exchange(), over a pool of its own. */
  function context(timeoutMs: number): ExchangeContext {
    return {
      titleId: TITLE, baseUrl: buildBaseUrl(server.endpoint, TITLE),
      transport: createTransport(server.origin, {}, { connections: 1, keepAliveTimeout: 1000, connectTimeoutMs: 1000 }),
      timeoutMs, reportErrorAsSuccess: false, secrets: () => [KEY],
      cancelled: () => new PlatformError({ kind: 'cancelled', message: 'Cancelled.', hint: '' }), log: (e) => log.push(e),
    };
  }
  async function untilRequested(route: string): Promise<void> {
    while (server.count(route) === 0) await new Promise((r) => setTimeout(r, 5));
  }

  beforeEach(async () => {
    server = await startScriptedServer();
    log = [];
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await server.close();
  });

  it('an attempt leaves no timer and no listener on the signal it was given, answered or failed', async () => {
    // Ten minutes: a timer left running would keep a command-line run alive that long.
    const ctx = context(600_000);
    const lasting = new AbortController();
    try {
      server.queue(PLAYED, ok({ TitleIds: ['F71AC'] }), ok({ TitleIds: ['F71AC'] }), { action: 'reset' });
      const send = () => exchange(ctx, { operation: 'GetPlayedTitleList', body: { PlatformId: PID }, validate: (d) => d, header: ['x-secretkey', KEY], signal: lasting.signal, attempt: 1 });
      // The first attempt opens the connection (and the server's timers for it).
      assert.equal((await send()).ok, true);
      const before = timers();
      for (const expected of [true, false]) {
        assert.equal((await send()).ok, expected);
        assert.equal(getEventListeners(lasting.signal, 'abort').length, 0, `listener left after ok: ${expected}`);
        assert.equal(timers(), before, `time-out timer left after ok: ${expected}`);
      }
    } finally {
      await ctx.transport.dispatcher.close();
    }
  });

  it('the log says how long the attempt took and, for a failure after the status came, that status', async () => {
    server.queue(PLAYED, ok({ TitleIds: ['F71AC'] }), { ...ok({ TitleIds: ['F71AC'] }), action: 'truncate' });
    const t0 = performance.now();
    await client().getPlayedTitleList(PID);
    const took = performance.now() - t0;
    assert.equal(log.length, 1);
    assert.ok(log[0].durationMs >= 0 && log[0].durationMs <= Math.ceil(took), `${log[0].durationMs} ms logged for a call of ${took} ms`);
    const e = await rejection(client().getPlayedTitleList(PID));
    assert.equal(e.kind, 'network');
    assert.deepEqual([log[1].ok, log[1].httpStatus, log[1].error], [false, 200, 'network']);
  });

  it('a time-out names the limit and what to do, and may have reached the service', async () => {
    server.setDefault(PLAYED, { action: 'hang' });
    const e = await rejection(client({ timeoutMs: 300 }).getPlayedTitleList(PID));
    assert.equal(e.kind, 'timeout');
    assert.equal(e.message, 'GetPlayedTitleList: the service did not answer within 0.3 s.');
    assert.equal(e.hint, 'Try again; if it keeps timing out, check the network and the service endpoint setting.');
    assert.equal(e.retryable, true);
  });

  it('a delete cancelled while its request is out is a cancellation whose outcome is unknown, sent once', async () => {
    server.setDefault(DELETE, { action: 'hang' });
    const ac = new AbortController();
    const p = client().deleteMasterPlayerAccount({ PlatformId: PID }, { signal: ac.signal });
    await untilRequested(DELETE);
    ac.abort();
    const e = await rejection(p);
    assert.equal(e.kind, 'cancelled');
    assert.equal(e.outcomeUnknown, true);
    assert.equal(e.message, 'Cancelled after the deletion request was sent: the deletion may or may not have happened.');
    assert.equal(server.count(DELETE), 1);
  });

  it('no connection at all: the service host and the code, nothing sent; a cut answer: the code, maybe sent', async () => {
    const port = await closedPort();
    const e = await rejection(client({ endpoint: `http://127.0.0.1:${port}/{titleId}` }).deleteMasterPlayerAccount({ PlatformId: PID }));
    assert.equal(e.message, `DeleteMasterPlayerAccount: could not connect to 127.0.0.1:${port} (ECONNREFUSED).`);
    assert.equal(e.hint, 'Check the network and the service endpoint setting, then try again.');
    assert.equal(e.outcomeUnknown, false);
    assert.equal(e.retryable, true);

    server.queue(PLAYED, { action: 'reset' });
    const cut = await rejection(client().getPlayedTitleList(PID));
    assert.match(cut.message, /^GetPlayedTitleList: the connection to 127\.0\.0\.1:\d+ failed before a full answer arrived \((UND_ERR_SOCKET|ECONNRESET)\)\.$/);
    assert.equal(cut.hint, 'Check the network and the service endpoint setting, then try again.');
  });

  it('a check of the answer that fails in an unexpected way is named by its message, and may have reached the service', async () => {
    const ctx = context(2000);
    try {
      server.setDefault(PLAYED, ok({ TitleIds: [] }));
      const thrown: unknown[] = [Object.assign(new Error(`bad ${KEY}`), { code: 7 }), undefined];
      const messages: string[] = [];
      for (const t of thrown) {
        const r = await exchange(ctx, { operation: 'GetPlayedTitleList', body: { PlatformId: PID }, validate: () => { throw t; }, header: ['x-secretkey', KEY], signal: new AbortController().signal, attempt: 1 });
        assert.ok(!r.ok);
        assert.equal(r.ambiguous, true);
        messages.push(r.error.message);
      }
      // The key is masked out of the text (redact.ts keeps its last four characters).
      assert.equal(messages[0], `GetPlayedTitleList: the connection to ${ctx.baseUrl.host} failed before a full answer arrived (bad ••••••••WXYZ).`);
      assert.equal(messages[1], `GetPlayedTitleList: the connection to ${ctx.baseUrl.host} failed before a full answer arrived (undefined).`);
    } finally {
      await ctx.transport.dispatcher.close();
    }
  });
});
