// How a bulk lookup's answers are matched back to the identifiers asked for, when the service
// echoes them in another letter case or order, or not at all: against a scripted HTTP server.
import * as assert from 'node:assert/strict';
import { PlatformClient } from '../../../src/core/api/client';
import { ok, startScriptedServer, type ScriptedRequest, type ScriptedServer } from '../helpers/scriptedServer';

const ROUTE = 'Server/GetPlatformIDsFromStorefrontNames';
const A = 'AAAAAAAAAAAAAAA1';
const B = 'BBBBBBBBBBBBBBB2';

describe('core/bulk lookups: matching answers to the identifiers asked for', () => {
  let server: ScriptedServer;
  let client: PlatformClient;

  beforeEach(async () => {
    server = await startScriptedServer();
    client = new PlatformClient({ titleId: 'F71AC', endpoint: server.endpoint, getSecretKey: async () => 'SECRETKEY0123456789ABCDEFGHIJKLMNOP', retryBaseDelayMs: 1, maxRetries: 0 });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  const lookup = async (names: string[], answer: (asked: string[]) => unknown[]): Promise<[string, string | null][]> => {
    server.setDefault(ROUTE, (req: ScriptedRequest) => ok({ Data: answer((req.json as { StorefrontNames: string[] }).StorefrontNames) }));
    return (await client.getPlatformIdsFromStorefrontNames(names)).map((r) => [r.StorefrontName, r.PlatformId]);
  };

  it('an answer that echoes the name in another letter case, in another order, still goes to the name asked for', async () => {
    const r = await lookup(['racer_Ana', 'Bo'], () => [
      { StorefrontName: 'BO', PlatformId: B },
      { StorefrontName: 'RACER_ANA', PlatformId: A },
    ]);
    assert.deepEqual(r, [['racer_Ana', A], ['Bo', B]]);
  });

  it('an exact echo wins over one that differs only in case', async () => {
    const r = await lookup(['ana', 'ANA'], () => [
      { StorefrontName: 'ANA', PlatformId: B },
      { StorefrontName: 'ana', PlatformId: A },
    ]);
    assert.deepEqual(r, [['ana', A], ['ANA', B]]);
  });

  it('entries without an echoed name are matched by position; a name nobody echoed is unlinked', async () => {
    assert.deepEqual(await lookup(['x1', 'x2'], () => [{ PlatformId: A }, { PlatformId: null }]), [['x1', A], ['x2', null]]);
    // Answers for other names (and a count that does not match) give nothing by position.
    assert.deepEqual(await lookup(['y1', 'y2'], () => [{ StorefrontName: 'other', PlatformId: A }]), [['y1', null], ['y2', null]]);
  });

  it('position counts only when the answer has one entry per name and the entry echoes no other name', async () => {
    // As many entries as names, but this one echoes another name: not y1's.
    assert.deepEqual(await lookup(['y1'], () => [{ StorefrontName: 'other', PlatformId: A }]), [['y1', null]]);
    // No echo, but fewer entries than names: no position to go by.
    assert.deepEqual(await lookup(['z1', 'z2', 'z3'], () => [{ PlatformId: A }]), [['z1', null], ['z2', null], ['z3', null]]);
  });
});
