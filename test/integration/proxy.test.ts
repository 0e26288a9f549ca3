// VS Code's proxy settings in the real extension host, through Debian's tinyproxy on loopback:
// http.proxy in user settings and the environment only when the setting is empty, proxy
// credentials, and a title on a loopback address always direct (the proxy would reach its own
// loopback, and an http:// title's key would cross it in clear).
// Everything stays on this machine: the service title's endpoint is https://{titleId}.service.test:444,
// a port tinyproxy never allows, so each proxied attempt is a CONNECT in its log answered 403
// before any name lookup, and nothing is sent. The direct routes of non-loopback names
// (http.proxySupport off, NO_PROXY) would need a lookup off this machine: resolveProxy's unit
// tests cover them; certificate failures through the tunnel are in test/unit/core/transport.test.ts.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import type { TestApi } from '../../src/extension/testApi';
import { startTinyproxy, type Tinyproxy } from '../unit/helpers/tinyproxy';
import { getApi, requestCount, script, startEmulatorWithDemoTitles, startFresh } from './support/harness';

const RACER = DEMO_TITLES[0];
const ARENA = DEMO_TITLES[1];
const STOREFRONT = 'Server/GetPlatformIDsFromStorefrontNames';
const PROXY_USER = 'studio';
const PROXY_PASSWORD = 'pr0xy-Pa55word';
/** A service endpoint off this machine on a port tinyproxy never allows: proxied attempts end at its 403, before any lookup. */
const SERVICE = 'https://{titleId}.service.test:444';
const NAME = DEMO_PLAYERS.find((p) => p.storefrontNames.length > 0)?.storefrontNames[0] ?? 'someone';

/** Updates a user setting and waits until the extension has been told (its listener was registered first). */
async function setUser(section: string, key: string, value: unknown): Promise<void> {
  const changed = new Promise<void>((resolve) => {
    const d = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${section}.${key}`)) {
        d.dispose();
        resolve();
      }
    });
  });
  const cfg = vscode.workspace.getConfiguration(section);
  if (JSON.stringify(cfg.inspect(key)?.globalValue) === JSON.stringify(value)) return;
  await cfg.update(key, value, vscode.ConfigurationTarget.Global);
  await changed;
}

const connects = (p: Tinyproxy): number => (p.log().match(/Request \(file descriptor \d+\): CONNECT /g) ?? []).length;

describe('Network: VS Code proxy settings (real extension host, tinyproxy)', function () {
  this.timeout(60_000);
  let api: TestApi;
  let proxyA: Tinyproxy;
  let proxyB: Tinyproxy;
  let authProxy: Tinyproxy;
  let emulatorEndpoint: string;
  const savedEnv = { HTTPS_PROXY: process.env.HTTPS_PROXY, NO_PROXY: process.env.NO_PROXY };

  /** Runs a lookup as the palette would; returns the error messages shown (none expected unless `failing`). */
  async function lookup(titleId: string, failing = false): Promise<string[]> {
    const p = script(api);
    await vscode.commands.executeCommand('platformExplorer.lookUpStorefrontNames', { titleId, names: [NAME] });
    if (!failing) assert.deepEqual(p.errors, [], 'the lookup failed');
    return p.errors;
  }

  /** A proxied lookup of the service title: tinyproxy refuses the port, so the error names the proxy and nothing is sent. */
  async function refusedThrough(proxy: Tinyproxy): Promise<void> {
    const errors = await lookup(ARENA.titleId, true);
    assert.equal(errors.length, 1, `errors: ${JSON.stringify(errors)}`);
    assert.match(errors[0], new RegExp(`proxy 127\\.0\\.0\\.1:${proxy.port} would not open a connection to ${ARENA.titleId}\\.service\\.test:444 \\(it answered HTTP 403\\)`, 'i'));
  }

  before(async () => {
    api = await getApi();
    await startFresh(api);
    await startEmulatorWithDemoTitles(api);
    // ARENA as a "Platform service" title: its requests follow VS Code's proxy settings.
    await api.titles.remove(ARENA.titleId);
    script(api).typeIn(ARENA.titleId).typeIn('Arena (service)').choose('Platform service').typeIn(ARENA.secretKey);
    await vscode.commands.executeCommand('platformExplorer.addTitle');
    emulatorEndpoint = api.emulator()!.endpoint;
    await setUser('platformExplorer', 'serviceEndpoint', SERVICE);
    const ports = [Number(new URL(emulatorEndpoint.replace('{titleId}', 'x')).port)];
    proxyA = await startTinyproxy({ connectPorts: ports });
    proxyB = await startTinyproxy({ connectPorts: ports });
    authProxy = await startTinyproxy({ connectPorts: ports, basicAuth: { user: PROXY_USER, password: PROXY_PASSWORD } });
  });

  afterEach(() => {
    for (const [k, v] of Object.entries(savedEnv)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  after(async () => {
    await setUser('http', 'proxy', undefined);
    await setUser('http', 'proxySupport', undefined);
    await setUser('http', 'proxyAuthorization', undefined);
    await setUser('http', 'proxyStrictSSL', undefined);
    await setUser('platformExplorer', 'serviceEndpoint', undefined);
    await Promise.all([proxyA?.stop(), proxyB?.stop(), authProxy?.stop()]);
    await startFresh(api);
  });

  it('http.proxy in user settings sends a service title\'s requests through the proxy (a CONNECT), applied without a reload; the log says "via proxy"', async () => {
    assert.equal(connects(proxyA) + connects(proxyB), 0);
    await setUser('http', 'proxy', proxyB.url);
    await refusedThrough(proxyB);
    await setUser('http', 'proxy', proxyA.url);
    await refusedThrough(proxyA);
    assert.deepEqual([connects(proxyA), connects(proxyB)], [1, 1], `the CONNECTs:\n${proxyA.log()}`);
    assert.ok(!proxyA.log().includes(ARENA.secretKey), 'the secret key is in the proxy log');
    assert.ok(api.logLines().some((l) => l.includes(`Title ${ARENA.titleId}: requests go via proxy 127.0.0.1:${proxyA.port} (http.proxy)`)));
  });

  it('a title on a loopback address goes direct whatever the proxy settings: 0 requests reach the proxy, the key never crosses it', async () => {
    await setUser('http', 'proxy', proxyA.url);
    process.env.HTTPS_PROXY = proxyB.url;
    await setUser('http', 'proxySupport', 'on');
    // The same service title, its endpoint now http://127.0.0.1:PORT/{titleId} (the emulator).
    await setUser('platformExplorer', 'serviceEndpoint', emulatorEndpoint);
    try {
      const [a0, b0, requests] = [proxyA.log().length, proxyB.log().length, await requestCount(api, STOREFRONT)];
      await lookup(ARENA.titleId);
      assert.equal(await requestCount(api, STOREFRONT), requests + 1, 'the lookup did not reach the emulator');
      for (const [proxy, from] of [[proxyA, a0], [proxyB, b0]] as const) {
        const added = proxy.log().slice(from);
        assert.doesNotMatch(added, /Connect \(file descriptor|Request \(file descriptor/, `the proxy was used:\n${added}`);
        assert.ok(!proxy.log().includes(ARENA.secretKey), 'the secret key crossed the proxy');
      }
      assert.ok(api.logLines().some((l) => l.includes(`Title ${ARENA.titleId}: requests go direct (a loopback target always goes direct)`)));
    } finally {
      await setUser('platformExplorer', 'serviceEndpoint', SERVICE);
      await setUser('http', 'proxySupport', undefined);
    }
  });

  it('the local emulator\'s own titles go direct even with http.proxy set', async () => {
    await setUser('http', 'proxy', proxyA.url);
    const before = connects(proxyA);
    await lookup(RACER.titleId);
    assert.equal(connects(proxyA), before);
  });

  it('HTTPS_PROXY is used only when http.proxy is empty', async () => {
    process.env.HTTPS_PROXY = proxyB.url;
    await setUser('http', 'proxy', proxyA.url);
    // A change of any http.* setting rebuilds the clients, so the variable is read again.
    await setUser('http', 'proxySupport', 'on');
    const [a0, b0] = [connects(proxyA), connects(proxyB)];
    await refusedThrough(proxyA);
    assert.deepEqual([connects(proxyA) - a0, connects(proxyB) - b0], [1, 0], 'the setting should win over HTTPS_PROXY');

    await setUser('http', 'proxy', undefined);
    await refusedThrough(proxyB);
    assert.deepEqual([connects(proxyA) - a0, connects(proxyB) - b0], [1, 1], 'with the setting empty, HTTPS_PROXY should be used');
    assert.ok(api.logLines().some((l) => l.includes(`requests go via proxy 127.0.0.1:${proxyB.port} (HTTPS_PROXY)`)));
    await setUser('http', 'proxySupport', undefined);
  });

  it('a proxy that wants credentials: the 407 error names http.proxyAuthorization; with it set, or user:password in http.proxy, the proxy takes them; no credential is logged', async () => {
    await setUser('http', 'proxy', authProxy.url);
    const errors = await lookup(ARENA.titleId, true);
    assert.equal(errors.length, 1);
    assert.match(errors[0], new RegExp(`proxy 127\\.0\\.0\\.1:${authProxy.port} needs credentials \\(407`));
    assert.match(errors[0], /http\.proxyAuthorization/);

    // Accepted credentials get past the 407 to the port check (403): the header, then the URL.
    await setUser('http', 'proxyAuthorization', `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}`);
    await refusedThrough(authProxy);
    await setUser('http', 'proxyAuthorization', undefined);
    await setUser('http', 'proxy', authProxy.url.replace('http://', `http://${PROXY_USER}:${PROXY_PASSWORD}@`));
    await refusedThrough(authProxy);
    const log = api.logLines().join('\n');
    assert.match(log, new RegExp(`requests go via proxy 127\\.0\\.0\\.1:${authProxy.port} \\(http\\.proxy\\)`));
    assert.ok(!log.includes(PROXY_PASSWORD) && !log.includes(Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')), 'a proxy credential is in the log');
    assert.ok(!authProxy.log().includes(ARENA.secretKey));
  });

  it('http.proxyStrictSSL false is warned in the log for a proxied title; http.systemCertificates is reported', async () => {
    await setUser('http', 'proxy', proxyA.url);
    await setUser('http', 'proxyStrictSSL', false);
    try {
      await refusedThrough(proxyA);
      assert.ok(api.logLines().some((l) => l.includes('"http.proxyStrictSSL" is false')), 'no warning in the log');
      // http.systemCertificates (on by default): the OS store is trusted too, or the log says this Node cannot read it.
      assert.ok(api.logLines().some((l) => /requests go via proxy .*; \d+ OS certificates trusted$/.test(l) || l.includes('cannot read the OS certificate store')),
        'nothing logged about the OS certificate store');
    } finally {
      await setUser('http', 'proxyStrictSSL', undefined);
    }
  });
});
