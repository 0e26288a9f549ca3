// Endpoint hijack: hostile title IDs and endpoint templates get a validation error naming the
// field, and no request carrying a key reaches any listener but the configured emulator.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { PlatformClient } from '../../../src/core/api/client';
import { PlatformError } from '../../../src/core/api/errors';
import { validateEndpointTemplate } from '../../../src/core/api/endpoint';
import { validateTitleId } from '../../../src/core/ids';
import { DEMO_TITLES } from '../../../src/emulator/seed';
import type { EmulatorHandle } from '../../../src/emulator/server';
import { checkedEmulator } from '../helpers/contract';
import { confinedTemplates, hostileTemplates, hostileTitleIds } from './hostileEndpoints';
import { controlHeaders } from '../../../src/core/controlToken';

const TITLE = DEMO_TITLES[0];
const PLATFORM_ID = '9437A5ADDAE3012D';

/** A loopback listener that records every connection and every byte sent to it, answering nothing. */
interface Trap {
  port: number;
  connections: number;
  received: string;
  close(): Promise<void>;
}

async function listen(server: net.Server, host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, host, () => resolve(true));
  });
}

async function startTrap(): Promise<Trap> {
  const sockets = new Set<net.Socket>();
  const trap: Trap = { port: 0, connections: 0, received: '', close: async () => undefined };
  const onConnection = (s: net.Socket): void => {
    trap.connections++;
    sockets.add(s);
    // Close once the request arrives (or soon), so a client that did connect fails fast.
    const timer = setTimeout(() => s.destroy(), 200);
    s.on('data', (d: Buffer) => {
      trap.received += d.toString('latin1');
      s.destroy();
    });
    s.on('close', () => {
      clearTimeout(timer);
      sockets.delete(s);
    });
    s.on('error', () => undefined);
  };
  const v4 = net.createServer(onConnection);
  await listen(v4, '127.0.0.1', 0);
  trap.port = (v4.address() as net.AddressInfo).port;
  // The same port on ::1 too, where the machine has IPv6 loopback.
  const v6 = net.createServer(onConnection);
  const hasV6 = await listen(v6, '::1', trap.port);
  trap.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => v4.close(() => r()));
    if (hasV6) await new Promise<void>((r) => v6.close(() => r()));
  };
  return trap;
}

describe('security: endpoint hijack', function () {
  this.timeout(60_000);
  let trap: Trap;
  let emu: EmulatorHandle;
  let emuPort: number;

  before(async () => {
    trap = await startTrap();
    emu = await checkedEmulator({ deletionDelayMs: 60_000 });
    emuPort = Number(new URL(emu.origin).port);
  });
  after(async () => {
    await emu.close();
    await trap.close();
  });

  async function emulatorRequests(): Promise<number> {
    const r = await fetch(`${emu.origin}/_emulator/stats`, { headers: controlHeaders(emu.origin) });
    return ((await r.json()) as { total: number }).total;
  }

  /** Every keyed call a client can make; each must fail, and nothing may be received anywhere. */
  async function tryKeyedCalls(titleId: string, endpoint: string): Promise<PlatformError> {
    let client: PlatformClient;
    try {
      client = new PlatformClient({ titleId, endpoint, getSecretKey: async () => TITLE.secretKey, maxRetries: 0, timeoutMs: 3000 });
    } catch (e) {
      assert.ok(e instanceof PlatformError, `not a PlatformError: ${String(e)}`);
      return e;
    }
    // Accepted: make the calls anyway so any stray request is seen by the trap or the emulator's stats.
    try {
      await client.getPlatformIdsFromStorefrontNames(['someone']).catch(() => undefined);
      await client.deleteMasterPlayerAccount({ PlatformId: PLATFORM_ID }).catch(() => undefined);
      await client.getHandheldStore().catch(() => undefined);
    } finally {
      await client.close();
    }
    assert.fail(`accepted title ID ${JSON.stringify(titleId)} with endpoint ${JSON.stringify(endpoint)}`);
  }

  it('the corpus has at least 50 hostile values', () => {
    const n = hostileTitleIds('127.0.0.1:1').length + hostileTemplates('127.0.0.1:1', '127.0.0.1:2').length;
    assert.ok(n >= 50, `only ${n}`);
  });

  it('hostile title IDs: a validation error naming the title ID, and no request anywhere', async () => {
    const trapHost = `127.0.0.1:${trap.port}`;
    const before = await emulatorRequests();
    const ids = hostileTitleIds(trapHost);
    for (const h of ids) {
      const why = `${h.why}: ${JSON.stringify(h.value.slice(0, 80))}`;
      const direct = validateTitleId(h.value);
      assert.ok(direct !== undefined && /^Title ID\b/.test(direct), `${why}: ${direct}`);
      // Through the client, with the emulator's path form and the cloud's host-label form.
      for (const endpoint of [emu.endpoint, 'https://{titleId}.example.net', `http://${trapHost}/{titleId}`]) {
        const e = await tryKeyedCalls(h.value, endpoint);
        assert.equal(e.kind, 'validation', why);
        assert.match(e.message, /^Title ID\b/, why);
        assert.ok(e.hint.length > 0, why);
        // The quoted value cannot break the message (or a log line) or reverse its text.
        assert.doesNotMatch(e.message, /[\u0000-\u001f\u200b-\u200f\u202a-\u202e]/, why);
      }
    }
    assert.equal(trap.connections, 0, `the trap received: ${trap.received.slice(0, 500)}`);
    assert.equal(await emulatorRequests(), before + 0, 'the emulator received requests for hostile title IDs');
  });

  it('hostile endpoint templates: a validation error naming the service endpoint, and no request anywhere', async () => {
    const before = await emulatorRequests();
    const templates = hostileTemplates(`127.0.0.1:${trap.port}`, `127.0.0.1:${emuPort}`);
    for (const h of templates) {
      const why = `${h.why}: ${JSON.stringify(h.value.slice(0, 120))}`;
      const direct = validateEndpointTemplate(h.value);
      assert.ok(direct !== undefined && /service endpoint/i.test(direct), `${why}: ${direct}`);
      const e = await tryKeyedCalls(TITLE.titleId, h.value);
      assert.equal(e.kind, 'validation', why);
      assert.match(e.message, /service endpoint/i, why);
      assert.ok(e.hint.length > 0, why);
    }
    assert.equal(trap.connections, 0, `the trap received: ${trap.received.slice(0, 500)}`);
    assert.equal(await emulatorRequests(), before, 'the emulator received requests for hostile templates');
  });

  it('unusual but legitimate spellings of the emulator reach the emulator, and only it', async () => {
    for (const h of confinedTemplates(emuPort)) {
      assert.equal(validateEndpointTemplate(h.value), undefined, h.why);
      const before = await emulatorRequests();
      const client = new PlatformClient({ titleId: TITLE.titleId, endpoint: h.value, getSecretKey: async () => TITLE.secretKey, maxRetries: 0 });
      try {
        assert.equal(client.baseUrl.host, `127.0.0.1:${emuPort}`, h.why);
        const pairs = await client.getPlatformIdsFromStorefrontNames(['nobody-at-all']);
        assert.deepEqual(pairs, [{ StorefrontName: 'nobody-at-all', PlatformId: null }], h.why);
        await client.getHandheldStore();
      } finally {
        await client.close();
      }
      // One lookup, one token fetch, one add-on read.
      assert.equal(await emulatorRequests(), before + 3, h.why);
    }
    assert.equal(trap.connections, 0, `the trap received: ${trap.received.slice(0, 500)}`);
  });

  it('the trap does record a request that is sent to it (the check can fail)', async () => {
    const client = new PlatformClient({ titleId: TITLE.titleId, endpoint: `http://127.0.0.1:${trap.port}/{titleId}`, getSecretKey: async () => 'trap-check-key', maxRetries: 0, timeoutMs: 2000 });
    try {
      await assert.rejects(client.getPlatformIdsFromStorefrontNames(['x']), PlatformError);
    } finally {
      await client.close();
    }
    assert.ok(trap.connections > 0);
    assert.match(trap.received, /x-secretkey: trap-check-key/i);
    trap.connections = 0;
    trap.received = '';
  });
});

