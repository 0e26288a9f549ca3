// The client's proxy and certificate options as a user gives them: which credentials reach the
// proxy (the URL's or the Proxy-Authorization value), how each refusal of the tunnel reads and
// whether it is retried, an https proxy's certificate named with the service's, and every bad
// option named with its fix. A scripted proxy on 127.0.0.1 records what it was sent and opens no
// tunnel: nothing leaves this machine.
import * as assert from 'node:assert/strict';
import { PlatformClient, type PlatformClientOptions } from '../../../src/core/api/client';
import { PlatformError } from '../../../src/core/api/errors';
import { classifyTransportError, createTransport, type Transport } from '../../../src/core/api/transport';
import { makeCertificate } from '../../../src/emulator/tls';
import { startFakeProxy, type FakeProxy } from '../helpers/fakeProxy';
import { rejection } from '../helpers/rejection';

const TITLE_ID = 'F71AC';
// Never contacted: the scripted proxy answers every CONNECT itself.
const ENDPOINT = 'https://127.0.0.1:9/{titleId}';
const SERVICE = '127.0.0.1:9';
const basic = (userPass: string): string => `Basic ${Buffer.from(userPass).toString('base64')}`;

describe('core/transport: proxy options and what the proxy is told (a scripted proxy)', function () {
  this.timeout(20_000);
  const clients: PlatformClient[] = [];
  const proxies: FakeProxy[] = [];

  function client(o: Partial<PlatformClientOptions>): PlatformClient {
    const c = new PlatformClient({ titleId: TITLE_ID, endpoint: ENDPOINT, getSecretKey: async () => 'k', retryBaseDelayMs: 1, timeoutMs: 5000, ...o });
    clients.push(c);
    return c;
  }
  async function proxyAnswering(status: number, tls?: { cert: string; key: string }): Promise<FakeProxy> {
    const p = await startFakeProxy({ status, tls });
    proxies.push(p);
    return p;
  }
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(proxies.splice(0).map((p) => p.stop()));
  });

  it('user:password in the URL are sent as Basic credentials (%-escapes decoded) and win over a Proxy-Authorization value', async () => {
    const p = await proxyAnswering(407);
    const e = await rejection(client({ proxy: `http://studio:pa%40ss@127.0.0.1:${p.port}`, proxyAuthorization: basic('other:value'), maxRetries: 0 })
      .getPlatformIdsFromStorefrontNames(['a']));
    assert.deepEqual(p.seen, [{ line: `CONNECT ${SERVICE} HTTP/1.1`, authorization: basic('studio:pa@ss') }]);
    assert.equal(e.message, `GetPlatformIDsFromStorefrontNames: the proxy 127.0.0.1:${p.port} needs credentials (407 Proxy Authentication Required), or refused the ones given. Nothing reached the service.`);
    assert.match(e.hint, /"http\.proxyAuthorization"/);
    assert.equal(e.retryable, false);
    assert.equal(e.kind, 'network');
  });

  it('the Proxy-Authorization value is sent when the URL has a user without a password, or a password without a user', async () => {
    const header = basic('studio:secret');
    for (const creds of ['studio@', ':secret@', '']) {
      const p = await proxyAnswering(407);
      await rejection(client({ proxy: `http://${creds}127.0.0.1:${p.port}`, proxyAuthorization: header, maxRetries: 0 }).getPlatformIdsFromStorefrontNames(['a']));
      assert.deepEqual(p.seen.map((s) => s.authorization), [header], creds);
    }
    const none = await proxyAnswering(407);
    await rejection(client({ proxy: none.url, maxRetries: 0 }).getPlatformIdsFromStorefrontNames(['a']));
    assert.deepEqual(none.seen.map((s) => s.authorization), [undefined], 'no credentials given, none sent');
  });

  it('a refused tunnel names the proxy, the service and the way around; a 5xx answer is retried, any other is not', async () => {
    for (const [status, retried] of [[403, false], [499, false], [500, true], [502, true]] as const) {
      const p = await proxyAnswering(status);
      const e = await rejection(client({ proxy: p.url, maxRetries: 1 }).getPlatformIdsFromStorefrontNames(['a']));
      // A retried failure ends with the attempts it took (retryReport.ts).
      assert.ok(e.message.startsWith(`GetPlatformIDsFromStorefrontNames: the proxy 127.0.0.1:${p.port} would not open a connection to ${SERVICE} (it answered HTTP ${status}). Nothing reached the service.`), e.message);
      assert.equal(e.hint, `Check that the proxy allows connections to ${SERVICE}, or list that host in "http.noProxy" to go direct.`);
      assert.equal(e.retryable, retried, String(status));
      assert.equal(p.seen.length, retried ? 2 : 1, `CONNECTs after HTTP ${status}`);
      assert.equal(e.outcomeUnknown, false);
    }
  });

  it('an https proxy: its label, and an untrusted certificate named as the service\'s or the proxy\'s, before any request', async () => {
    const cert = await makeCertificate();
    const p = await proxyAnswering(200, cert);
    assert.match(p.url, /^https:/);
    const c = client({ proxy: p.url, maxRetries: 0 });
    assert.equal(c.proxy, `127.0.0.1:${p.port}`);
    const e = await rejection(c.getPlatformIdsFromStorefrontNames(['a']));
    assert.equal(e.message, `GetPlatformIDsFromStorefrontNames: the certificate of ${SERVICE} (or of the proxy 127.0.0.1:${p.port}) is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT): it is self-signed or issued by an authority this computer does not trust. Nothing was sent.`);
    assert.match(e.hint, /NODE_EXTRA_CA_CERTS/);
    assert.equal(p.seen.length, 0);
  });

  it('proxy credentials are among the secrets masked out of messages: the password as written and decoded, the header value; nothing empty', () => {
    assert.deepEqual(client({ proxy: 'http://studio:pa%40ss@127.0.0.1:3128' }).knownSecretValues(), ['pa%40ss', 'pa@ss']);
    assert.deepEqual(client({ proxy: 'http://studio:plain@127.0.0.1:3128' }).knownSecretValues(), ['plain']);
    assert.deepEqual(client({ proxy: 'http://127.0.0.1:3128', proxyAuthorization: 'Basic abc' }).knownSecretValues(), ['Basic abc']);
    assert.deepEqual(client({ proxy: 'http://studio@127.0.0.1:3128' }).knownSecretValues(), []);
  });

  it('the proxy URL is read trimmed; http and https are accepted, and only an https one is an https proxy', () => {
    const make = (proxy: string): Transport => createTransport('https://127.0.0.1:9', { proxy }, { connections: 1, keepAliveTimeout: 1000, connectTimeoutMs: 1000 });
    // No-break spaces too (a value pasted from a web page): the URL parser itself strips only ASCII ones.
    const t = [make('\u00A0 http://127.0.0.1:3128 \u00A0'), make('https://127.0.0.1:3129/'), make('HTTPS://Proxy.Example:443')];
    try {
      assert.deepEqual(t.map((x) => [x.proxy, x.httpsProxy]), [['127.0.0.1:3128', false], ['127.0.0.1:3129', true], ['proxy.example:443', true]]);
    } finally {
      t.forEach((x) => void x.dispatcher.close());
    }
  });

  it('each bad option is named with its rule and its fix, never echoing the value', () => {
    const form = 'Use the form http://HOST:PORT or https://HOST:PORT (credentials as http://user:password@HOST:PORT).';
    const pemHint = 'Give each certificate as PEM text (-----BEGIN CERTIFICATE----- …).';
    const cases: [Partial<PlatformClientOptions>, string, string][] = [
      [{ proxy: '' }, 'proxy must be a non-empty URL', form],
      [{ proxy: '   ' }, 'proxy must be a non-empty URL', form],
      [{ proxy: 3128 as unknown as string }, 'proxy must be a non-empty URL', form],
      [{ proxy: 'proxy.example:3128' }, 'proxy must be an http:// or https:// URL, not proxy.example://', form],
      [{ proxy: 'http//nothing' }, 'proxy is not a valid URL', form],
      [{ proxy: 'socks5://studio:pr0xy-secret@127.0.0.1:1080' }, 'proxy must be an http:// or https:// URL, not socks5://', form],
      [{ proxy: 'http://127.0.0.1:3128/?x=1' }, 'proxy must be only a scheme, a host and a port', form],
      [{ proxy: 'http://127.0.0.1:3128#x' }, 'proxy must be only a scheme, a host and a port', form],
      [{ proxy: 'http://studio:pr0xy-secret@127.0.0.1:3128/p' }, 'proxy must be only a scheme, a host and a port', form],
      [{ proxy: 'http://u:50%zz@127.0.0.1:3128' }, 'proxy has credentials with a broken %-escape', 'Write % in a user name or password as %25.'],
      [{ ca: 42 as unknown as string }, 'ca must be a PEM string or a list of them', pemHint],
      [{ ca: 'not a certificate' }, 'ca is not a PEM certificate', pemHint],
      [{ ca: ['-----BEGIN CERTIFICATE-----\nAA\n-----END CERTIFICATE-----', 7 as unknown as string] }, 'ca[1] is not a PEM certificate', pemHint],
      [{ rejectUnauthorized: 'no' as unknown as boolean }, 'rejectUnauthorized must be true or false', 'Leave it out to verify certificates (the default).'],
      [{ proxyAuthorization: 7 as unknown as string }, 'proxyAuthorization must be one line of text', 'Give the Proxy-Authorization header value, e.g. Basic <base64 of user:password>.'],
      [{ proxyAuthorization: 'Basic abc\r\nX-Other: 1' }, 'proxyAuthorization must be one line of text', 'Give the Proxy-Authorization header value, e.g. Basic <base64 of user:password>.'],
    ];
    for (const [o, rule, hint] of cases) {
      assert.throws(() => client(o), (e: unknown) => {
        assert.ok(e instanceof PlatformError);
        assert.equal(e.message, `PlatformClient option ${rule}.`);
        assert.equal(e.hint, hint);
        assert.equal(e.kind, 'validation');
        return true;
      }, JSON.stringify(o));
    }
    // Accepted as given: a single line of header, a PEM-shaped ca (Node skips a block it cannot read).
    client({ proxy: 'http://127.0.0.1:3128', proxyAuthorization: 'Basic abc', ca: '-----BEGIN CERTIFICATE-----\nAA\n-----END CERTIFICATE-----', rejectUnauthorized: true });
  });

  it('what the transport does not recognise is left to the caller: a refused connection without a proxy, a wrong host without its reason', () => {
    const direct: Transport = { dispatcher: undefined as never, proxy: undefined, httpsProxy: false, secrets: [] };
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    assert.equal(classifyTransportError(refused, 'Op', SERVICE, direct), undefined);
    assert.equal(classifyTransportError(new Error('Proxy response (403) !== 200 when HTTP Tunneling'), 'Op', SERVICE, direct), undefined);
    const viaProxy: Transport = { ...direct, proxy: '127.0.0.1:3128' };
    assert.match(classifyTransportError(refused, 'Op', SERVICE, viaProxy)?.error.message ?? '', /could not reach the proxy 127\.0\.0\.1:3128 \(ECONNREFUSED\)/);
    assert.equal(classifyTransportError(refused, 'Op', SERVICE, viaProxy)?.error.retryable, true);
    const wrongHost = classifyTransportError(Object.assign(new Error('x'), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }), 'Op', SERVICE, direct);
    assert.equal(wrongHost?.error.message, `Op: the certificate presented for ${SERVICE} is for another host name. Nothing was sent.`);
    assert.equal(wrongHost?.notSent, true);
    const notYet = classifyTransportError(Object.assign(new Error('x'), { cause: { code: 'CERT_NOT_YET_VALID' } }), 'Op', SERVICE, direct);
    assert.equal(notYet?.error.message, `Op: the certificate of ${SERVICE} is not valid yet (CERT_NOT_YET_VALID). Nothing was sent.`);
  });
});
