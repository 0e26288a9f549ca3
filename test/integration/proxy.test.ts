// VS Code's proxy settings in the real extension host, through Debian's tinyproxy on loopback:
// http.proxy in user settings, http.proxySupport off, and the environment only when the setting is empty.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import { startEmulator, type EmulatorHandle } from '../../src/emulator/server';
import type { TestApi } from '../../src/extension/testApi';
import { startTinyproxy, type Tinyproxy } from '../unit/helpers/tinyproxy';
import { getApi, requestCount, script, startEmulatorWithDemoTitles, startFresh } from './support/harness';

const RACER = DEMO_TITLES[0];
const ARENA = DEMO_TITLES[1];
const STOREFRONT = 'Server/GetPlatformIDsFromStorefrontNames';
const PROXY_USER = 'studio';
const PROXY_PASSWORD = 'pr0xy-Pa55word';
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
  let tlsEmu: EmulatorHandle;
  let emulatorEndpoint: string;
  const savedEnv = { HTTPS_PROXY: process.env.HTTPS_PROXY, NO_PROXY: process.env.NO_PROXY };

  /** Runs a lookup as the palette would; returns the error messages shown (none expected unless `failing`). */
  async function lookup(titleId: string, failing = false): Promise<string[]> {
    const p = script(api);
    await vscode.commands.executeCommand('platformExplorer.lookUpStorefrontNames', { titleId, names: [NAME] });
    if (!failing) assert.deepEqual(p.errors, [], 'the lookup failed');
    return p.errors;
  }

  before(async () => {
    api = await getApi();
    await startFresh(api);
    await startEmulatorWithDemoTitles(api);
    // ARENA as a "Platform service" title aimed at the emulator: its requests follow VS Code's proxy settings.
    await api.titles.remove(ARENA.titleId);
    script(api).typeIn(ARENA.titleId).typeIn('Arena (service)').choose('Platform service').typeIn(ARENA.secretKey);
    await vscode.commands.executeCommand('platformExplorer.addTitle');
    emulatorEndpoint = api.emulator()!.endpoint;
    await setUser('platformExplorer', 'serviceEndpoint', emulatorEndpoint);
    tlsEmu = await startEmulator({ seed: 'demo', tls: true, fixedKeys: true });
    const ports = [emulatorEndpoint, tlsEmu.endpoint].map((e) => Number(new URL(e.replace('{titleId}', 'x')).port));
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
    await Promise.all([proxyA?.stop(), proxyB?.stop(), authProxy?.stop(), tlsEmu?.close()]);
    await startFresh(api);
  });

  it('http.proxy in user settings sends requests through the proxy (a CONNECT), applied without a reload; the log says "via proxy"', async () => {
    await lookup(ARENA.titleId);
    assert.equal(connects(proxyA), 0, 'a request went through the proxy before it was set');
    await setUser('http', 'proxy', proxyA.url);
    const before = await requestCount(api, STOREFRONT);
    await lookup(ARENA.titleId);
    assert.equal(await requestCount(api, STOREFRONT), before + 1);
    assert.equal(connects(proxyA), 1, `no CONNECT in the proxy's log:\n${proxyA.log()}`);
    assert.ok(!proxyA.log().includes(ARENA.secretKey), 'the secret key is in the proxy log');
    const line = api.logLines().filter((l) => l.startsWith('GetPlatformIDsFromStorefrontNames')).pop() ?? '';
    assert.match(line, new RegExp(`title=${ARENA.titleId} .*via proxy 127\\.0\\.0\\.1:${proxyA.port}$`));
    assert.ok(api.logLines().some((l) => l.includes(`Title ${ARENA.titleId}: requests go via proxy 127.0.0.1:${proxyA.port} (http.proxy)`)));
  });

  it('the local emulator\'s own titles go direct even with http.proxy set', async () => {
    await setUser('http', 'proxy', proxyA.url);
    const before = connects(proxyA);
    await lookup(RACER.titleId);
    assert.equal(connects(proxyA), before);
  });

  it('http.proxySupport "off" goes direct', async () => {
    await setUser('http', 'proxy', proxyA.url);
    await setUser('http', 'proxySupport', 'off');
    try {
      const before = connects(proxyA);
      await lookup(ARENA.titleId);
      assert.equal(connects(proxyA), before, 'the request went through the proxy');
      const line = api.logLines().filter((l) => l.startsWith('GetPlatformIDsFromStorefrontNames')).pop() ?? '';
      assert.doesNotMatch(line, /via proxy/);
    } finally {
      await setUser('http', 'proxySupport', undefined);
    }
  });

  it('HTTPS_PROXY is used only when http.proxy is empty; NO_PROXY bypasses it', async () => {
    process.env.HTTPS_PROXY = proxyB.url;
    await setUser('http', 'proxy', proxyA.url);
    // A change of any http.* setting rebuilds the clients, so the variable is read again.
    await setUser('http', 'proxySupport', 'on');
    const [a0, b0] = [connects(proxyA), connects(proxyB)];
    await lookup(ARENA.titleId);
    assert.deepEqual([connects(proxyA) - a0, connects(proxyB) - b0], [1, 0], 'the setting should win over HTTPS_PROXY');

    await setUser('http', 'proxy', undefined);
    await lookup(ARENA.titleId);
    assert.deepEqual([connects(proxyA) - a0, connects(proxyB) - b0], [1, 1], 'with the setting empty, HTTPS_PROXY should be used');
    assert.ok(api.logLines().some((l) => l.includes(`requests go via proxy 127.0.0.1:${proxyB.port} (HTTPS_PROXY)`)));

    process.env.NO_PROXY = '127.0.0.1';
    await setUser('http', 'proxySupport', undefined);
    await lookup(ARENA.titleId);
    assert.equal(connects(proxyB) - b0, 1, 'NO_PROXY should bypass the proxy');
  });

  it('a proxy that wants credentials: the 407 error names http.proxyAuthorization; with it set, or user:password in http.proxy, it works; no credential is logged', async () => {
    await setUser('http', 'proxy', authProxy.url);
    const errors = await lookup(ARENA.titleId, true);
    assert.equal(errors.length, 1);
    assert.match(errors[0], new RegExp(`proxy 127\\.0\\.0\\.1:${authProxy.port} needs credentials \\(407`));
    assert.match(errors[0], /http\.proxyAuthorization/);

    await setUser('http', 'proxyAuthorization', `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}`);
    await lookup(ARENA.titleId);
    await setUser('http', 'proxyAuthorization', undefined);
    await setUser('http', 'proxy', authProxy.url.replace('http://', `http://${PROXY_USER}:${PROXY_PASSWORD}@`));
    await lookup(ARENA.titleId);
    const log = api.logLines().join('\n');
    assert.match(log, new RegExp(`via proxy 127\\.0\\.0\\.1:${authProxy.port}$`, 'm'));
    assert.ok(!log.includes(PROXY_PASSWORD) && !log.includes(Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')), 'a proxy credential is in the log');
    assert.ok(!authProxy.log().includes(ARENA.secretKey));
  });

  it('HTTPS through the proxy: an untrusted certificate is a clear error with the fix; http.proxyStrictSSL false gets through, warned', async () => {
    await setUser('platformExplorer', 'serviceEndpoint', tlsEmu.endpoint);
    try {
      await setUser('http', 'proxy', proxyA.url);
      const errors = await lookup(ARENA.titleId, true);
      assert.equal(errors.length, 1);
      assert.match(errors[0], /certificate of 127\.0\.0\.1:\d+ is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\)/);
      assert.match(errors[0], /http\.systemCertificates/);
      assert.match(errors[0], /NODE_EXTRA_CA_CERTS/);

      await setUser('http', 'proxyStrictSSL', false);
      const before = connects(proxyA);
      await lookup(ARENA.titleId);
      assert.ok(connects(proxyA) > before, 'the request did not go through the proxy');
      assert.ok(api.logLines().some((l) => l.includes('"http.proxyStrictSSL" is false')), 'no warning in the log');
      // http.systemCertificates (on by default): the OS store is trusted too, or the log says this Node cannot read it.
      assert.ok(api.logLines().some((l) => /requests go via proxy .*; \d+ OS certificates trusted$/.test(l) || l.includes('cannot read the OS certificate store')),
        'nothing logged about the OS certificate store');
    } finally {
      await setUser('http', 'proxyStrictSSL', undefined);
      await setUser('platformExplorer', 'serviceEndpoint', emulatorEndpoint);
    }
  });
});
