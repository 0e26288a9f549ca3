// The real network path: PlatformClient over HTTPS to the --tls emulator, through Debian's
// tinyproxy (CONNECT), with Basic proxy credentials, and every certificate failure a user meets.
import * as assert from 'node:assert/strict';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { createServer as createNetServer } from 'node:net';
import { Agent, request } from 'undici';
import { BULK_CONCURRENCY, PlatformClient, type PlatformClientOptions, type RequestLogEntry } from '../../../src/core/api/client';
import { Operations } from '../../../src/core/api/types';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../../src/emulator/seed';
import type { EmulatorHandle } from '../../../src/emulator/server';
import { buildBaseUrl } from '../../../src/core/api/endpoint';
import { resolveProxy, type ProxyInputs } from '../../../src/core/network';
import { checkedEmulator } from '../helpers/contract';
import { makeCertificate } from '../../../src/emulator/tls';
import { rejection } from '../helpers/rejection';
import { startTinyproxy, type Tinyproxy } from '../helpers/tinyproxy';

const TITLE = DEMO_TITLES[0];
const NAMES = DEMO_PLAYERS.flatMap((p) => p.storefrontNames).slice(0, 3);
const PROXY_USER = 'studio';
const PROXY_PASSWORD = 'pr0xy-Pa55word';

describe('core/PlatformClient over HTTPS and through a real proxy (tinyproxy)', function () {
  this.timeout(30_000);
  let emu: EmulatorHandle;
  let port: number;
  let trusted: Agent;
  let proxy: Tinyproxy;
  let authProxy: Tinyproxy;
  const clients: PlatformClient[] = [];
  let log: RequestLogEntry[];

  async function control(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
    const res = await request(`${emu.origin}/_emulator/${path}`, {
      method, dispatcher: trusted, headers: { 'content-type': 'application/json', authorization: `Bearer ${emu.controlToken}` }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.body.json()) as Record<string, unknown>;
    assert.equal(res.statusCode, 200, JSON.stringify(json));
    return json;
  }

  async function stats(): Promise<{ total: number; requests: Record<string, number>; tlsHandshakes: number }> {
    return (await control('GET', 'stats')) as { total: number; requests: Record<string, number>; tlsHandshakes: number };
  }

  function client(o: Partial<PlatformClientOptions> = {}): PlatformClient {
    const c = new PlatformClient({
      titleId: TITLE.titleId, endpoint: emu.endpoint, getSecretKey: () => Promise.resolve(TITLE.secretKey),
      retryBaseDelayMs: 1, timeoutMs: 5000, onRequest: (e) => log.push(e), ...o,
    });
    clients.push(c);
    return c;
  }

  before(async () => {
    emu = await checkedEmulator({ seed: 'demo', tls: true, deletionDelayMs: 60_000 });
    port = Number(new URL(emu.origin).port);
    trusted = new Agent({ connect: { ca: emu.caCertificate } });
    proxy = await startTinyproxy({ connectPorts: [port] });
    authProxy = await startTinyproxy({ connectPorts: [port], basicAuth: { user: PROXY_USER, password: PROXY_PASSWORD } });
  });
  after(async () => {
    await Promise.all([proxy?.stop(), authProxy?.stop()]);
    await trusted?.close();
    await emu?.close();
  });
  beforeEach(async () => {
    log = [];
    await control('POST', 'reset');
    await control('POST', 'stats/reset');
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  it('--tls serves HTTPS with a certificate for 127.0.0.1, ::1 and localhost; ca trusts it; one handshake per pooled connection', async () => {
    assert.match(emu.origin, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.match(emu.caCertificate ?? '', /^-----BEGIN CERTIFICATE-----/);
    const ids = Array.from({ length: 1000 }, (_, i) => `nobody_${i}`).concat(NAMES);
    const c = client({ ca: emu.caCertificate });
    const found = await c.getPlatformIdsFromStorefrontNames(ids);
    assert.equal(found.filter((f) => f.PlatformId !== null).length, NAMES.length);
    const s = await stats();
    assert.equal(s.total, Math.ceil(ids.length / 25));
    // At most one per connection of the client's pool, plus one for this stats call.
    assert.ok(s.tlsHandshakes >= 1 && s.tlsHandshakes <= BULK_CONCURRENCY + 1, `${s.tlsHandshakes} TLS handshakes for ${s.total} requests`);
    assert.equal(c.proxy, undefined);
  });

  it('a self-signed certificate without ca: a clear error, nothing sent, a delete not "outcome unknown"', async () => {
    const e = await rejection(client().getPlatformIdsFromStorefrontNames(NAMES));
    assert.match(e.message, /certificate of 127\.0\.0\.1:\d+ is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\)/);
    assert.match(e.hint, /http\.systemCertificates/);
    assert.match(e.hint, /NODE_EXTRA_CA_CERTS/);
    assert.match(e.hint, /last resort/);
    assert.equal(e.retryable, false);
    const d = await rejection(client().deleteMasterPlayerAccount({ PlatformId: DEMO_PLAYERS[0].platformId }));
    assert.match(d.message, /not trusted/);
    assert.equal(d.outcomeUnknown, false);
    assert.equal((await stats()).total, 0);
  });

  it('rejectUnauthorized: false accepts it (the last resort)', async () => {
    const found = await client({ rejectUnauthorized: false }).getPlatformIdsFromStorefrontNames(NAMES);
    assert.equal(found.length, NAMES.length);
  });

  describe('certificates that are trusted but wrong', () => {
    let server: Server | undefined;
    let served = 0;
    async function serve(cert: { cert: string; key: string }): Promise<string> {
      server = createHttpsServer(cert, (_req, res) => { served++; res.end('{}'); });
      await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
      const a = server.address();
      return `https://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/{titleId}`;
    }
    afterEach(async () => {
      await new Promise((r) => server?.close(r));
      server = undefined;
      served = 0;
    });

    it('expired: names the problem and the clock, nothing sent', async () => {
      const day = 24 * 60 * 60 * 1000;
      const cert = await makeCertificate({ notBefore: new Date(Date.now() - 10 * day), notAfter: new Date(Date.now() - day) });
      const endpoint = await serve(cert);
      const e = await rejection(client({ endpoint, ca: cert.cert }).getPlatformIdsFromStorefrontNames(NAMES));
      assert.match(e.message, /certificate of 127\.0\.0\.1:\d+ has expired \(CERT_HAS_EXPIRED\)/);
      assert.match(e.hint, /date and time/);
      assert.equal(served, 0);
    });

    it('not valid yet: says so, not "expired"', async () => {
      const day = 24 * 60 * 60 * 1000;
      const cert = await makeCertificate({ notBefore: new Date(Date.now() + day), notAfter: new Date(Date.now() + 10 * day) });
      const endpoint = await serve(cert);
      const e = await rejection(client({ endpoint, ca: cert.cert }).getPlatformIdsFromStorefrontNames(NAMES));
      assert.match(e.message, /certificate of 127\.0\.0\.1:\d+ is not valid yet \(CERT_NOT_YET_VALID\)\. Nothing was sent\./);
      assert.match(e.hint, /date and time/);
      assert.equal(served, 0);
    });

    it('wrong host: names the host and the names the certificate is for, nothing sent', async () => {
      const cert = await makeCertificate({ hosts: ['other-host.example'] });
      const endpoint = await serve(cert);
      const e = await rejection(client({ endpoint, ca: [cert.cert] }).mutate('DeleteMobileStore', {}));
      assert.match(e.message, /certificate presented for 127\.0\.0\.1:\d+ is for another host name/);
      assert.match(e.message, /127\.0\.0\.1 is not in the cert's list/);
      assert.match(e.hint, /^Check the host in the service endpoint setting\. .*http\.systemCertificates/);
      assert.equal(e.outcomeUnknown, false);
      assert.equal(served, 0);
    });

    it('wrong host through a proxy\'s tunnel: the same words (undici wraps that failure in a proxy error)', async () => {
      const cert = await makeCertificate({ hosts: ['other-host.example'] });
      const endpoint = await serve(cert);
      const tunnel = await startTinyproxy({ connectPorts: [Number(new URL(endpoint.replace('/{titleId}', '')).port)] });
      try {
        const e = await rejection(client({ endpoint, ca: cert.cert, proxy: tunnel.url }).getPlatformIdsFromStorefrontNames(NAMES));
        assert.match(e.message, /the certificate presented for 127\.0\.0\.1:\d+ is for another host name/);
        assert.match(tunnel.log(), /CONNECT 127\.0\.0\.1:\d+ HTTP\/1\.1/);
        assert.equal(served, 0);
      } finally {
        await tunnel.stop();
      }
    });
  });

  it('through tinyproxy: the CONNECT is in its log, the secret key is not; the client names the proxy', async () => {
    const c = client({ proxy: proxy.url, ca: emu.caCertificate });
    const found = await c.getPlatformIdsFromStorefrontNames(NAMES);
    assert.equal(found.filter((f) => f.PlatformId !== null).length, NAMES.length);
    await c.getHandheldStore();
    assert.equal(c.proxy, `127.0.0.1:${proxy.port}`);
    const text = proxy.log();
    assert.match(text, new RegExp(`CONNECT 127\\.0\\.0\\.1:${port} HTTP/1\\.1`));
    assert.ok(!text.includes(TITLE.secretKey), 'the secret key is in the proxy log');
    assert.ok(!text.includes('GetPlatformIDsFromStorefrontNames'), 'the proxy saw inside the tunnel');
    assert.equal((await stats()).requests[Operations.GetPlatformIDsFromStorefrontNames], 1);
    // An http:// proxy presents no certificate: an untrusted one is the service's alone.
    const e = await rejection(client({ proxy: proxy.url }).getPlatformIdsFromStorefrontNames(NAMES));
    assert.match(e.message, /the certificate of 127\.0\.0\.1:\d+ is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\)/);
    assert.ok(!e.message.includes('of the proxy'), e.message);
  });

  it('plain http given a proxy explicitly is tunnelled too (CONNECT); the bytes inside are still plain http, readable by the proxy', async () => {
    const plain = await checkedEmulator({ seed: 'demo' });
    const plainProxy = await startTinyproxy({ connectPorts: [Number(new URL(plain.origin).port)] });
    try {
      const c = client({ endpoint: plain.endpoint, proxy: plainProxy.url });
      await c.getPlatformIdsFromStorefrontNames(NAMES);
      assert.match(plainProxy.log(), /CONNECT 127\.0\.0\.1:\d+ HTTP\/1\.1/);
      assert.ok(!plainProxy.log().includes(TITLE.secretKey));
    } finally {
      await plainProxy.stop();
      await plain.close();
    }
  });

  it('a title on a loopback address goes direct whatever the proxy settings: 0 requests reach tinyproxy, the key never crosses it', async () => {
    const plain = await checkedEmulator({ seed: 'demo' });
    const plainProxy = await startTinyproxy({ connectPorts: [Number(new URL(plain.origin).port)] });
    try {
      const settings: Partial<ProxyInputs>[] = [
        { proxySetting: plainProxy.url },
        { proxySupport: 'on', proxySetting: plainProxy.url },
        { env: { HTTPS_PROXY: plainProxy.url, HTTP_PROXY: plainProxy.url } },
      ];
      for (const s of settings) {
        // As the extension does: the settings decide the route, the client takes it.
        const decision = resolveProxy({ target: buildBaseUrl(plain.endpoint, TITLE.titleId), proxySupport: 'override', proxySetting: '', noProxySetting: [], env: {}, ...s });
        const c = client({ endpoint: plain.endpoint, proxy: decision.proxy });
        assert.equal((await c.getPlatformIdsFromStorefrontNames(NAMES)).length, NAMES.length);
        assert.equal(c.proxy, undefined, `routed through a proxy (${decision.source})`);
      }
      const text = plainProxy.log();
      assert.equal((text.match(/Request \(file descriptor \d+\)/g) ?? []).length, 0, `tinyproxy got a request:\n${text}`);
      // The helper's start-up probe is the one connection tinyproxy may log; a client's would be more.
      assert.ok((text.match(/Connect \(file descriptor \d+\)/g) ?? []).length <= 1, `tinyproxy got a connection:\n${text}`);
      assert.ok(!text.includes(TITLE.secretKey), 'the secret key crossed the proxy');
      // Every spelling of this machine goes direct; a name that merely contains "localhost" does not.
      for (const host of ['127.0.0.1', '127.45.0.9', 'localhost', 'LOCALHOST.', 'pe-1f.localhost', '[::1]', '[::ffff:127.0.0.1]', '0.0.0.0']) {
        const target = new URL(`http://${host}:8080/F71AC`);
        assert.equal(resolveProxy({ target, proxySupport: 'on', proxySetting: plainProxy.url, noProxySetting: [], env: {} }).proxy, undefined, host);
      }
      for (const host of ['localhost.example.net', '128.0.0.1', '[::2]', 'example.com']) {
        const target = new URL(`https://${host}/F71AC`);
        assert.equal(resolveProxy({ target, proxySupport: 'on', proxySetting: plainProxy.url, noProxySetting: [], env: {} }).proxy, plainProxy.url, host);
      }
    } finally {
      await plainProxy.stop();
      await plain.close();
    }
  });

  it('a proxy that wants credentials: 407 names http.proxyAuthorization; credentials in the URL or the header succeed', async () => {
    const e = await rejection(client({ proxy: authProxy.url, ca: emu.caCertificate }).getPlatformIdsFromStorefrontNames(NAMES));
    assert.match(e.message, new RegExp(`proxy 127\\.0\\.0\\.1:${authProxy.port} needs credentials \\(407`));
    assert.match(e.hint, /http\.proxyAuthorization/);
    assert.equal((await stats()).total, 0);
    const d = await rejection(client({ proxy: authProxy.url, ca: emu.caCertificate }).mutate('DeleteMobileStore', {}));
    assert.equal(d.outcomeUnknown, false);

    const inUrl = authProxy.url.replace('http://', `http://${PROXY_USER}:${PROXY_PASSWORD}@`);
    const withUrl = client({ proxy: inUrl, ca: emu.caCertificate });
    assert.equal((await withUrl.getPlatformIdsFromStorefrontNames(NAMES)).length, NAMES.length);
    assert.equal(withUrl.proxy, `127.0.0.1:${authProxy.port}`, 'the proxy label carries no credentials');
    const header = `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}`;
    assert.equal((await client({ proxy: authProxy.url, proxyAuthorization: header, ca: emu.caCertificate }).getPlatformIdsFromStorefrontNames(NAMES)).length, NAMES.length);
    assert.ok(!JSON.stringify(log).includes(PROXY_PASSWORD));
    assert.ok(!authProxy.log().includes(TITLE.secretKey));
  });

  it('an unreachable proxy is named (not the service), and nothing is sent', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = createNetServer().listen(0, '127.0.0.1', () => {
        const a = s.address();
        s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
      });
    });
    const e = await rejection(client({ proxy: `http://127.0.0.1:${closed}`, ca: emu.caCertificate, maxRetries: 0 }).getPlatformIdsFromStorefrontNames(NAMES));
    assert.match(e.message, new RegExp(`could not reach the proxy 127\\.0\\.0\\.1:${closed} \\(ECONNREFUSED\\)`));
    assert.ok(!e.message.includes(String(port)), 'the message names the service instead of the proxy');
    assert.match(e.hint, /http\.proxy/);
  });

  it('a proxy that refuses the tunnel (port not allowed) names the proxy, the service and the way around it', async () => {
    const strict = await startTinyproxy({ connectPorts: [443] });
    try {
      const e = await rejection(client({ proxy: strict.url, ca: emu.caCertificate }).mutate('DeleteMobileStore', {}));
      assert.match(e.message, new RegExp(`proxy 127\\.0\\.0\\.1:${strict.port} would not open a connection to 127\\.0\\.0\\.1:${port} \\(it answered HTTP 403\\)`));
      assert.match(e.hint, /http\.noProxy/);
      assert.equal(e.outcomeUnknown, false);
      assert.equal((await stats()).total, 0);
    } finally {
      await strict.stop();
    }
  });

  it('https:// to a server that speaks plain HTTP says so', async () => {
    const plain = await checkedEmulator({ seed: 'demo' });
    try {
      const e = await rejection(client({ endpoint: plain.endpoint.replace('http://', 'https://') }).getPlatformIdsFromStorefrontNames(NAMES));
      assert.match(e.message, /did not answer in TLS/);
      assert.match(e.hint, /http:\/\/ or https:\/\//);
    } finally {
      await plain.close();
    }
  });

  it('a delete through the tunnel that fails after sending is sent once and reported "outcome unknown"', async () => {
    await control('POST', 'faults', { rules: [{ operation: Operations.DeleteMasterPlayerAccount, kind: 'reset-after', times: 1 }] });
    const e = await rejection(client({ proxy: proxy.url, ca: emu.caCertificate }).deleteMasterPlayerAccount({ PlatformId: DEMO_PLAYERS[1].platformId }));
    assert.equal(e.outcomeUnknown, true);
    assert.equal((await stats()).requests[Operations.DeleteMasterPlayerAccount], 1);
  });
});
