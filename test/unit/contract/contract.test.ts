// The operation table against the service's published description (docs/api-schema.json):
// the client accepts every answer the description allows, the table says what it says, and the
// emulator answers within it (every answer of the unit suites is checked by helpers/contract.ts).
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseEnvelope } from '../../../src/core/api/envelope';
import { PlatformClient } from '../../../src/core/api/client';
import { PlatformError } from '../../../src/core/api/errors';
import { OPERATIONS, type OperationName } from '../../../src/core/api/operations';
import { checkResult } from '../../../src/core/api/exchange';
import type { Schema } from '../../../src/core/api/schema';
import type { EmulatorHandle } from '../../../src/emulator/server';
import { DEMO_TITLES } from '../../../src/emulator/seed';
import { checkedEmulator, contractAnswersChecked } from '../helpers/contract';
import { sampleRequest, send as sendRow } from '../helpers/requests';
import { arbitraryOf, published, violations } from './published';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

/** Drops null members (the client reads null as absent) so a result can be compared with what was sent. */
function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => [k, withoutNulls(x)]));
}

/**
 * The rows the description has. A row added before its description fails one test, in rows.test.ts
 * (naming the operation and where to copy its description from); every check here skips it.
 */
const names = (Object.keys(OPERATIONS) as OperationName[]).filter((n) => Object.hasOwn(published.operations, OPERATIONS[n].path));

describe('contract: the operation table and the published description', () => {
  it('requires no member of an answer that the description makes optional', () => {
    const stricter: string[] = [];
    const walk = (ours: Schema, theirs: string, seen: Set<string>): void => {
      const def = published.types[theirs];
      if (def === undefined || !('members' in def) || ours.kind !== 'object' || seen.has(theirs)) return;
      seen.add(theirs);
      for (const [k, m] of Object.entries(ours.members)) {
        const pub = def.members[k];
        if (pub === undefined) continue;
        if (m.required && pub.required !== true) stricter.push(`${theirs}.${k}`);
        let inner: Schema = m.schema;
        let t: unknown = pub.type;
        while (typeof t === 'object' && t !== null && (inner.kind === 'array' || inner.kind === 'map' || inner.kind === 'nullable')) {
          t = 'array' in (t as object) ? (t as { array: unknown }).array : (t as { map: unknown }).map;
          inner = inner.kind === 'nullable' ? inner.inner : inner.item;
          if (inner.kind === 'nullable') inner = inner.inner;
        }
        if (typeof t === 'string') walk(inner, t, seen);
      }
    };
    for (const n of names) walk(OPERATIONS[n].result, published.operations[OPERATIONS[n].path].result, new Set());
    assert.deepEqual(stricter, []);
  });

  for (const n of names) {
    it(`${n}: the client accepts every answer the description allows and returns the members it was given`, () => {
      const type = published.operations[OPERATIONS[n].path].result;
      const arb = arbitraryOf(type, { alsoRequired: ['GetEntityTokenResponse.EntityToken'] }).filter((d) =>
        // A token must be a non-empty string to be used at all.
        n !== 'GetEntityToken' || (typeof (d as { EntityToken?: unknown }).EntityToken === 'string' && (d as { EntityToken: string }).EntityToken.length > 0));
      fc.assert(fc.property(arb, (data) => {
        assert.deepEqual(violations(data, type, 'data', 'allowed'), [], 'the generator makes only allowed answers');
        const out = parseEnvelope(n, { httpStatus: 200, body: JSON.stringify({ code: 200, status: 'OK', data }) }, (d) => checkResult(n, d)) as Record<string, unknown>;
        for (const [k, v] of Object.entries(withoutNulls(data) as Record<string, unknown>)) {
          assert.deepEqual(withoutNulls(out[k]), v, `${n}.${k}`);
        }
      }), { numRuns: RUNS });
    });
  }
});

describe('contract: credentials, from the table, in the emulator and the client', () => {
  let emu: EmulatorHandle;
  const title = DEMO_TITLES[0];
  before(async () => { emu = await checkedEmulator({ deletionDelayMs: 60_000 }); });
  after(async () => { await emu.close(); });

  async function send(n: OperationName, headers: Record<string, string>): Promise<{ status: number; json: { errorCode?: number; error?: string } }> {
    const res = await fetch(`${emu.origin}/${title.titleId}/${OPERATIONS[n].path}`, {
      method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}', signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, json: (await res.json()) as { errorCode?: number; error?: string } };
  }

  for (const n of names) {
    const spec = OPERATIONS[n];
    const tokenOnly = spec.auth.length === 1 && spec.auth[0] === 'X-EntityToken';
    it(`${n}: a missing credential is ${tokenOnly ? 'EntityTokenMissing 1334' : 'NotAuthenticated 1074'}, a wrong one ${tokenOnly ? 'EntityTokenInvalid 1335' : 'SecretKeyNotFound 1293'}`, async () => {
      const missing = await send(n, {});
      assert.equal(missing.status, 401);
      assert.equal(missing.json.errorCode, tokenOnly ? 1334 : 1074);
      const wrong = await send(n, tokenOnly ? { 'x-entitytoken': 'not-a-token.sig' } : { 'x-secretkey': 'WRONGKEY0000000000000' });
      assert.equal(wrong.status, 401);
      assert.equal(wrong.json.errorCode, tokenOnly ? 1335 : 1293);
      // Every other credential the table lists for it, wrong, is refused with its own code.
      const codes: Record<string, [string, number]> = {
        'X-EntityToken': ['not-a-token.sig', 1335],
        'X-Authorization': ['9437A5ADDAE3012D-not-a-ticket.sig', 1074],
      };
      for (const h of spec.auth.filter((a) => a !== 'X-SecretKey' && !tokenOnly)) {
        const [value, code] = codes[h];
        assert.equal((await send(n, { [h.toLowerCase()]: value })).json.errorCode, code, `${n} with a wrong ${h}`);
      }
    });
  }

  it('the client maps a wrong secret key to the message naming the key, for every operation that takes it', async () => {
    const client = new PlatformClient({ titleId: title.titleId, endpoint: emu.endpoint, getSecretKey: async () => 'WRONGKEY0000000000000', maxRetries: 0 });
    try {
      // Every row, sent as the table says (read or mutate); an add-on row fails at its token fetch.
      const calls = names.map((n) => [n, () => sendRow(client, n, sampleRequest(n, '9437A5ADDAE3012D'))] as const);
      for (const [op, call] of calls) {
        const e = await call().then(() => undefined, (x: unknown) => x);
        assert.ok(e instanceof PlatformError, op);
        assert.equal(e.errorCode, 1293, op);
        assert.match(e.message, /SecretKeyNotFound/, op);
        assert.match(e.hint, /secret key/i, op);
        assert.ok(!e.message.includes('WRONGKEY'), `${op}: the key is not echoed`);
      }
    } finally {
      await client.close();
    }
  });

  it('every answer of these suites was checked against the description', () => {
    assert.ok(contractAnswersChecked() > 0, 'the contract hook saw no answers: checkedEmulator is not wired');
  });
});
