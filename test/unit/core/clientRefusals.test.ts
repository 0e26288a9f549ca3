// Every refusal and stop of PlatformClient as its user reads it (message and hint, word for word),
// with the scripted server counting that nothing was sent: option bounds, a mutating operation on
// the read path, an empty identity token or sandbox, a key that is missing, a request member of the
// wrong type, undeclared operations, a closed or replaced client; and the defaults it fills in.
import * as assert from 'node:assert/strict';
import { PlatformClient, type PlatformClientOptions } from '../../../src/core/api/client';
import { PlatformError } from '../../../src/core/api/errors';
import { validatePlatformId } from '../../../src/core/ids';
import { rejection } from '../helpers/rejection';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer';

const TITLE = 'F71AC';
const KEY = 'SECRETKEY0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const PID = '9437A5ADDAE3012D';
const TOKEN = 'Authentication/GetEntityToken';
const HANDHELD = 'Addon/GetHandheldStore';
const PLAYED = 'Admin/GetPlayedTitleList';

async function says(p: Promise<unknown>, message: string, hint: string, kind = 'validation'): Promise<PlatformError> {
  const e = await rejection(p);
  assert.deepEqual({ message: e.message, hint: e.hint, kind: e.kind }, { message, hint, kind });
  return e;
}

describe('core/PlatformClient: refusals and stops, word for word (scripted server)', () => {
  let server: ScriptedServer;
  const clients: PlatformClient[] = [];

  function client(o: Partial<PlatformClientOptions> = {}): PlatformClient {
    const c = new PlatformClient({ titleId: TITLE, endpoint: server.endpoint, getSecretKey: () => Promise.resolve(KEY), retryBaseDelayMs: 1, maxRetries: 0, ...o });
    clients.push(c);
    return c;
  }

  beforeEach(async () => {
    server = await startScriptedServer();
    server.setDefault(TOKEN, ok({ EntityToken: 'title-token-abcdefghijklmnopqrstuvwxyz', TokenExpiration: '2099-01-01T00:00:00Z', Entity: { Id: TITLE, Type: 'title', TypeString: 'title' } }));
    server.setDefault(HANDHELD, ok({ Created: true, ApplicationID: '123', Environments: [] }));
    server.setDefault(PLAYED, ok({}));
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await server.close();
  });

  it('numeric options: each bound is allowed, one past it is refused naming the range', () => {
    const bounds: [keyof PlatformClientOptions, number, number][] = [
      ['timeoutMs', 1, 600_000], ['maxRetries', 0, 10], ['concurrency', 1, 64], ['retryBaseDelayMs', 0, 60_000], ['maxRetryAfterSeconds', 0, 3600],
    ];
    for (const [field, min, max] of bounds) {
      client({ [field]: min });
      client({ [field]: max });
      for (const bad of [min - 1, max + 1, min + 0.5]) {
        assert.throws(() => client({ [field]: bad }), (e: unknown) => e instanceof PlatformError
          && e.message === `PlatformClient option ${field} must be a whole number from ${min} to ${max}.` && e.hint === `Correct ${field}.`, `${field} ${bad}`);
      }
    }
  });

  it('a bulk call\'s concurrency is checked the same way; above the default of 8 the pool grows to it', async () => {
    await says(client().getPlatformIdsFromStorefrontNames(['a'], { concurrency: 65 }), 'PlatformClient option concurrency must be a whole number from 1 to 64.', 'Correct concurrency.');
    assert.equal(server.requests.length, 0);
    server.setDefault('Server/GetPlatformIDsFromStorefrontNames', (req) => ({
      ...ok({ Data: (req.json as { StorefrontNames: string[] }).StorefrontNames.map((n) => ({ StorefrontName: n, PlatformId: null })) }), delayMs: 400,
    }));
    const names = Array.from({ length: 12 * 25 }, (_, i) => `n${i}`);
    await client({ concurrency: 12 }).getPlatformIdsFromStorefrontNames(names);
    assert.equal(server.maxInFlight(), 12, 'twelve requests at once need twelve connections');
  });

  it('the read path refuses an operation that changes state, or none at all, before sending', async () => {
    const hint = 'Send it through mutate(), from a command that asks first.';
    await says(client().read('DeleteMasterPlayerAccount' as never, { PlatformId: PID } as never), 'DeleteMasterPlayerAccount is not an operation that only reads: nothing was sent.', hint);
    await says(client().read('NoSuchOperation' as never, {} as never), 'NoSuchOperation is not an operation that only reads: nothing was sent.', hint);
    assert.equal(server.requests.length, 0);
  });

  it('an empty identity token, an empty sandbox: refused with what to enter', async () => {
    for (const token of ['', '   ', undefined]) {
      await says(client().loginWithLauncher({ IdentityToken: token } as never), 'IdentityToken is empty.', 'Paste the identity token (a JWT) the launcher returned after login.');
    }
    await says(client().loginWithLauncher(undefined as never), 'IdentityToken is empty.', 'Paste the identity token (a JWT) the launcher returned after login.');
    await says(client().getPlatformIdsFromConsoleLiveIds(['x', '']), 'ConsoleLiveAccountIDs[1] is empty.', 'Remove empty entries from the list.');
    for (const sandbox of ['', '  ', 5]) {
      await says(client().getPlatformIdsFromConsoleLiveIds(['x'], sandbox as never), 'Sandbox is empty.', 'Enter the sandbox name (case-sensitive), or leave it at RETAIL.');
    }
    assert.equal(server.requests.length, 0);
  });

  it('a key that is missing or blank names the title and where to get one', async () => {
    for (const key of ['', '  ', undefined]) {
      await says(client({ getSecretKey: async () => key }).getPlayedTitleList(PID), `No secret key set for title ${TITLE}.`,
        'Set the secret key for this title (from the title\'s management portal), then try again.');
    }
    assert.equal(server.requests.length, 0);
  });

  it('a request member of the wrong type, or a PlatformId that is not one, is named; nothing is sent', async () => {
    const e = await says(client().read('GetPlayedTitleList', { PlatformId: 5 } as never), 'GetPlayedTitleList: PlatformId should be a string but is a number; nothing was sent.', 'Correct that member and try again.');
    assert.equal(e.operation, 'GetPlayedTitleList');
    await says(client().getPlayedTitleList('not-an-id'), validatePlatformId('not-an-id') ?? '', 'Copy the PlatformId exactly as the service shows it.');
    await says(client().getPlatformIdsFromStorefrontNames(['a', ' ']), 'StorefrontNames[1] is empty.', 'Remove empty entries from the list.');
    assert.equal(server.requests.length, 0);
  });

  it('a caller limited to its declared operations: what is missing is named, a title token counts as GetEntityToken', async () => {
    const only = (names: string[]) => ({ only: { operations: new Set(names), caller: 'Tool "x"' } });
    await says(client().getHandheldStore(only([])), 'Tool "x" did not declare GetEntityToken, GetHandheldStore.', 'Declare GetEntityToken, GetHandheldStore where Tool "x" lists its operations.');
    await says(client().getHandheldStore(only(['GetHandheldStore'])), 'Tool "x" did not declare GetEntityToken.', 'Declare GetEntityToken where Tool "x" lists its operations.');
    assert.equal(server.requests.length, 0);
    await client().getHandheldStore(only(['GetEntityToken', 'GetHandheldStore']));
    await client().getPlayedTitleList(PID, only(['GetPlayedTitleList']));
    assert.deepEqual(server.requests.map((r) => r.route), [TOKEN, HANDHELD, PLAYED]);
  });

  it('a closed client, a replaced one, and a call stopped by close() each say which', async () => {
    const closed = client();
    await closed.close();
    await says(closed.getPlayedTitleList(PID), `The connection for title ${TITLE} is closed.`, 'Try again; a new connection will be made.', 'cancelled');
    const replaced = client();
    await replaced.closeWhenIdle();
    await says(replaced.getPlayedTitleList(PID), `The connection for title ${TITLE} was replaced because its settings changed.`, 'Run the command again; it uses the new settings.', 'network');

    server.setDefault(PLAYED, { action: 'hang' });
    const running = client();
    const p = running.getPlayedTitleList(PID);
    while (server.count(PLAYED) === 0) await new Promise((r) => setTimeout(r, 5));
    void running.close();
    await says(p, `The call for title ${TITLE} was stopped because its connection was closed.`, 'Nothing to do.', 'cancelled');
    const ac = new AbortController();
    const q = client().getPlayedTitleList(PID, { signal: ac.signal });
    while (server.count(PLAYED) === 1) await new Promise((r) => setTimeout(r, 5));
    ac.abort();
    await says(q, 'Cancelled.', 'Nothing to do.', 'cancelled');
  });

  it('closeWhenIdle() asked twice while a call runs: both wait for it, then the client is closed', async () => {
    server.setDefault(PLAYED, { ...ok({}), delayMs: 200 });
    const c = client();
    const call = c.getPlayedTitleList(PID);
    while (server.count(PLAYED) === 0) await new Promise((r) => setTimeout(r, 5));
    const first = c.closeWhenIdle();
    const second = c.closeWhenIdle();
    assert.deepEqual(await call, { TitleIds: [] });
    await Promise.all([first, second]);
    await says(c.getPlayedTitleList(PID), `The connection for title ${TITLE} was replaced because its settings changed.`, 'Run the command again; it uses the new settings.', 'network');
  });

  it('a dozen calls at once on one client: no listener-limit warning (every call listens for close())', async () => {
    server.setDefault(PLAYED, { ...ok({}), delayMs: 50 });
    const warnings: Error[] = [];
    const onWarning = (w: Error): number => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const c = client();
      await Promise.all(Array.from({ length: 12 }, () => c.getPlayedTitleList(PID)));
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    assert.deepEqual(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message), []);
  });

  it('ConsoleLive answers are matched by the identifier they echo, in any order', async () => {
    server.setDefault('Server/GetPlatformIDsFromConsoleLiveIDs', ok({ Data: [
      { ConsoleLiveAccountId: 'b', PlatformId: 'BBBBBBBBBBBBBBB2' }, { ConsoleLiveAccountId: 'a', PlatformId: 'AAAAAAAAAAAAAAA1' }, { ConsoleLiveAccountId: 'c', PlatformId: null },
    ] }));
    assert.deepEqual((await client().getPlatformIdsFromConsoleLiveIds(['a', 'b', 'c'])).map((r) => r.PlatformId), ['AAAAAAAAAAAAAAA1', 'BBBBBBBBBBBBBBB2', null]);
  });

  it('the request log masks a secret the service echoes in its error name', async () => {
    // A key that looks like nothing in particular: only the client's list of its secrets can mask it.
    const key = 'k3y-Pa55-word';
    server.setDefault(PLAYED, { status: 400, body: { code: 400, status: 'BadRequest', error: `Key ${key} refused`, errorCode: 1000 } });
    const log: string[] = [];
    await rejection(client({ getSecretKey: async () => key, onRequest: (e) => log.push(e.error ?? '') }).getPlayedTitleList(PID));
    assert.equal(log.length, 1);
    assert.ok(!log[0].includes(key), log[0]);
    assert.match(log[0], /^Key .+ refused$/);
  });

  it('answers without TitleIds read as an empty list; a log sink that throws does not fail the call', async () => {
    server.setDefault('Admin/DeleteMasterPlayerAccount', ok({ JobReceiptId: 'job-1' }));
    const c = client({ onRequest: () => { throw new Error('log sink broke'); } });
    assert.deepEqual(await c.getPlayedTitleList(PID), { TitleIds: [] });
    assert.deepEqual(await c.deleteMasterPlayerAccount({ PlatformId: PID }), { JobReceiptId: 'job-1', TitleIds: [] });
  });
});
