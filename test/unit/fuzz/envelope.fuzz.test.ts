// Property-based fuzzing of envelope and result parsing: every hostile body either parses into the
// promised shape or becomes a PlatformError with a message and a hint; nothing else escapes.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { parseEnvelope } from '../../../src/core/api/envelope';
import { PlatformClient } from '../../../src/core/api/client';
import { PlatformError } from '../../../src/core/api/errors';
import { FUZZ_RUNS, hostileBody, httpStatus, OPS, retryAfterHeader } from './arbitraries';

/** The longest message a service answer may produce: it ends up in a notification. */
const MAX_MESSAGE = 3000;

function checkError(e: unknown, context: string): PlatformError {
  if (!(e instanceof PlatformError)) {
    throw new Error(`${context}: threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)} instead of a PlatformError`);
  }
  assert.ok(e.message.trim().length > 0, `${context}: empty message`);
  assert.ok(e.hint.trim().length > 0, `${context}: empty hint`);
  assert.ok(e.message.length <= MAX_MESSAGE, `${context}: message of ${e.message.length} characters`);
  return e;
}

describe(`fuzz: envelope parsing (${FUZZ_RUNS} bodies through the parser)`, function () {
  this.timeout(Math.max(60_000, FUZZ_RUNS * 30));

  it('every body is a well-shaped result or a PlatformError with a message and hint', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(fc.constantFrom(...OPS), hostileBody, httpStatus, retryAfterHeader, (op, body, status, retryAfter) => {
        seen.set(body.kind, (seen.get(body.kind) ?? 0) + 1);
        const context = `${op.name} HTTP ${status} ${body.kind} body ${JSON.stringify(body.bytes.subarray(0, 200).toString("utf8"))}`;
        let value: unknown;
        try {
          value = parseEnvelope(op.name, { httpStatus: status, retryAfterHeader: retryAfter ?? undefined, body: body.bytes.toString('utf8') }, op.validate);
        } catch (e) {
          checkError(e, context);
          return;
        }
        op.check(value);
        // Nothing in the answer may have changed a shared prototype.
        assert.equal(({} as Record<string, unknown>).polluted, undefined, context);
      }),
      { numRuns: FUZZ_RUNS },
    );
    // Every family of hostile body was generated.
    assert.equal(seen.size, 10, JSON.stringify([...seen]));
  });
});

describe(`fuzz: PlatformClient over real HTTP (${Math.ceil(FUZZ_RUNS / 10)} answers from a loopback server)`, function () {
  this.timeout(Math.max(60_000, FUZZ_RUNS * 60));
  let server: http.Server;
  let endpoint: string;
  let next: { status: number; bytes: Buffer; retryAfter?: string; lie?: 'short' | 'long' } = { status: 200, bytes: Buffer.alloc(0) };

  before(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const a = next;
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (a.retryAfter !== undefined && /^[\x20-\x7e]*$/.test(a.retryAfter)) headers['retry-after'] = a.retryAfter;
        if (req.url?.endsWith('/Authentication/GetEntityToken')) {
          res.writeHead(200, headers);
          res.end(JSON.stringify({ code: 200, status: 'OK', data: { EntityToken: 'fuzz-token', TokenExpiration: '2099-01-01T00:00:00Z', Entity: { Id: 'F71AC', Type: 'title' } } }));
          return;
        }
        // A Content-Length that lies makes the answer end early or the connection break mid-body.
        const length = a.lie === 'long' ? a.bytes.length + 10 : a.lie === 'short' ? Math.max(0, a.bytes.length - 1) : a.bytes.length;
        headers['content-length'] = String(length);
        res.writeHead(a.status, headers);
        if (a.lie === 'long') {
          res.write(a.bytes, () => res.socket?.destroy());
        } else {
          res.end(a.lie === 'short' ? a.bytes.subarray(0, length) : a.bytes);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/{titleId}`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('every answer resolves to a well-shaped result or rejects with a PlatformError', async () => {
    const client = new PlatformClient({
      titleId: 'F71AC', endpoint, getSecretKey: async () => 'fuzz-secret-key', maxRetries: 0, retryBaseDelayMs: 0, timeoutMs: 10_000,
    });
    const calls: Record<string, () => Promise<unknown>> = {
      deleteMasterPlayerAccount: () => client.deleteMasterPlayerAccount({ PlatformId: '9437A5ADDAE3012D' }),
      getPlayedTitleList: () => client.getPlayedTitleList('9437A5ADDAE3012D'),
      loginWithLauncher: () => client.loginWithLauncher({ IdentityToken: 'a.b.c' }),
      handheldStore: () => client.getHandheldStore(),
      empty: () => client.mutate('DeleteMobileStore', {}),
      lookupConsoleLive: () => client.getPlatformIdsFromConsoleLiveIds(['a', 'b']),
      lookupStorefront: () => client.getPlatformIdsFromStorefrontNames(['a', 'b']),
    };
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...OPS.filter((o) => o.name in calls)), hostileBody, httpStatus, retryAfterHeader,
          fc.constantFrom(undefined, undefined, undefined, 'short' as const, 'long' as const),
          async (op, body, status, retryAfter, lie) => {
            next = { status: status < 200 ? 200 : status, bytes: body.bytes, retryAfter: retryAfter ?? undefined, lie };
            const context = `${op.name} HTTP ${next.status} ${lie ?? ''} ${body.kind} body ${JSON.stringify(body.bytes.subarray(0, 200).toString("utf8"))}`;
            let value: unknown;
            try {
              value = await calls[op.name]();
            } catch (e) {
              const err = checkError(e, context);
              assert.ok(!err.message.includes('fuzz-secret-key') && !err.message.includes('fuzz-token'), `${context}: secret in message`);
              return;
            }
            if (op.name.startsWith('lookup')) {
              // The client answers one pair per input, in order, PlatformId a string or null.
              const pairs = value as Record<string, unknown>[];
              assert.equal(pairs.length, 2, context);
              for (const p of pairs) assert.ok(p.PlatformId === null || typeof p.PlatformId === 'string', context);
            } else {
              op.check(value, true);
            }
          },
        ),
        { numRuns: Math.ceil(FUZZ_RUNS / 10) },
      );
    } finally {
      await client.close();
    }
  });
});
