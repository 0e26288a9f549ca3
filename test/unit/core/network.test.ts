// Which proxy a request takes: VS Code's settings first, then the environment, with no-proxy lists.
import * as assert from 'node:assert/strict';
import * as tls from 'node:tls';
import { bypassesProxy, isOnThisMachine, proxyHostPort, resolveProxy, systemCertificates, type ProxyInputs } from '../../../src/core/network';

const TARGET = new URL('https://f71ac.platform.example/');

function decide(o: Partial<ProxyInputs>): { proxy?: string; source: string } {
  return resolveProxy({ target: TARGET, proxySupport: 'override', proxySetting: '', noProxySetting: [], env: {}, ...o });
}

describe('core/network: proxy resolution', () => {
  it('http.proxy wins over the environment; the environment is used only when the setting is empty', () => {
    const env = { HTTPS_PROXY: 'http://env-proxy:3128' };
    assert.deepEqual(decide({ proxySetting: 'http://set-proxy:8080', env }), { proxy: 'http://set-proxy:8080', source: 'http.proxy' });
    assert.deepEqual(decide({ proxySetting: '  ', env }), { proxy: 'http://env-proxy:3128', source: 'HTTPS_PROXY' });
    assert.deepEqual(decide({}), { source: 'no proxy set' });
  });

  it('reads the variables in VS Code\'s order: https_proxy, HTTPS_PROXY, http_proxy, HTTP_PROXY', () => {
    assert.equal(decide({ env: { HTTP_PROXY: 'http://d', http_proxy: 'http://c', HTTPS_PROXY: 'http://b', https_proxy: 'http://a' } }).proxy, 'http://a');
    assert.equal(decide({ env: { HTTP_PROXY: 'http://d', http_proxy: 'http://c', HTTPS_PROXY: 'http://b' } }).proxy, 'http://b');
    assert.equal(decide({ env: { HTTP_PROXY: 'http://d', http_proxy: 'http://c' } }).proxy, 'http://c');
    assert.equal(decide({ env: { HTTP_PROXY: 'http://d' } }).source, 'HTTP_PROXY');
  });

  it('http.proxySupport off goes direct whatever else is set', () => {
    assert.deepEqual(decide({ proxySupport: 'off', proxySetting: 'http://p:1', env: { HTTPS_PROXY: 'http://q:2' } }), { source: 'http.proxySupport is off' });
  });

  it('http.noProxy bypasses by host suffix and port, and when set, NO_PROXY is not read', () => {
    const p = { proxySetting: 'http://p:1' };
    assert.equal(decide({ ...p, noProxySetting: ['platform.example'] }).source, 'http.noProxy');
    assert.equal(decide({ ...p, noProxySetting: ['.example'] }).source, 'http.noProxy');
    assert.equal(decide({ ...p, noProxySetting: ['platform.example:443'] }).source, 'http.noProxy');
    assert.equal(decide({ ...p, noProxySetting: ['platform.example:8443'] }).source, 'http.proxy');
    assert.equal(decide({ ...p, noProxySetting: ['other.example'], env: { NO_PROXY: '*' } }).source, 'http.proxy');
    assert.equal(decide({ ...p, env: { NO_PROXY: 'x.test, platform.example' } }).source, 'NO_PROXY');
    assert.equal(decide({ ...p, env: { no_proxy: '*' } }).source, 'NO_PROXY');
  });

  it('bypass lists match whole labels only, and IPv6 hosts', () => {
    assert.equal(bypassesProxy(['example'], 'notexample', '443'), false);
    assert.equal(bypassesProxy(['example'], 'a.example', '443'), true);
    assert.equal(bypassesProxy(['[::1]:8080'], '[::1]', '8080'), true);
    assert.equal(bypassesProxy(['::1'], '[::1]', '8080'), true);
    assert.equal(bypassesProxy(['', ' '], 'a.example', '443'), false);
  });

  it('proxyHostPort spells out default ports and never the credentials', () => {
    assert.equal(proxyHostPort(new URL('http://user:secret@proxy.corp')), 'proxy.corp:80');
    assert.equal(proxyHostPort(new URL('https://proxy.corp')), 'proxy.corp:443');
    assert.equal(proxyHostPort(new URL('http://127.0.0.1:3128')), '127.0.0.1:3128');
  });

  it('a host on this machine: 127.0.0.0/8, ::1, ::, 0.0.0.0, localhost and *.localhost, IPv4-mapped 127.x; nothing else', () => {
    for (const h of ['127.0.0.1', '127.255.3.4', '[::1]', '::1', '[::]', '0.0.0.0', 'localhost', 'LOCALHOST', 'localhost.', 'emu.localhost', 'a.b.Localhost',
      '[::ffff:7f00:1]', '::ffff:7fab:ffff', '::ffff:127.0.0.1', '127.10.100.200', '::ffff:127.100.10.254']) {
      assert.equal(isOnThisMachine(h), true, h);
    }
    for (const h of ['128.0.0.1', '127.0.0', '127.0.0.1.example', 'x127.0.0.1', '127.0.0.1234', '10.0.0.1', 'localhost.example', 'notlocalhost', 'mylocalhost',
      '[::2]', '::ffff:8f00:1', '::ffff:7f00:12345', 'x::ffff:7f00:1', '::ffff:128.0.0.1', '0.0.0.1', 'platform.example']) {
      assert.equal(isOnThisMachine(h), false, h);
    }
  });

  it('a target on this machine goes direct whatever the settings', () => {
    for (const target of ['http://127.0.0.1:8080/x', 'https://emu.localhost/', 'http://[::1]:1/']) {
      assert.deepEqual(decide({ target: new URL(target), proxySetting: 'http://p:1', env: { HTTPS_PROXY: 'http://q:2' } }), { source: 'a loopback target always goes direct' }, target);
    }
  });

  it('a no-proxy entry with a port compares it with the target\'s, 443 or 80 when the URL names none', () => {
    const p = { proxySetting: ' http://p:1 ' };
    assert.deepEqual(decide({ ...p }), { proxy: 'http://p:1', source: 'http.proxy' }, 'the setting is trimmed');
    assert.equal(decide({ ...p, target: new URL('http://f71ac.platform.example/'), noProxySetting: ['platform.example:80'] }).source, 'http.noProxy');
    assert.equal(decide({ ...p, target: new URL('http://f71ac.platform.example/'), noProxySetting: ['platform.example:443'] }).source, 'http.proxy');
    assert.equal(decide({ ...p, target: new URL('https://f71ac.platform.example:8443/'), noProxySetting: ['platform.example:8443'] }).source, 'http.noProxy');
    assert.equal(decide({ ...p, noProxySetting: ['  ', ''], env: { NO_PROXY: 'platform.example' } }).source, 'NO_PROXY', 'a list of blanks is no list');
    assert.equal(decide({ ...p, env: { no_proxy: 'other.example', NO_PROXY: 'platform.example' } }).source, 'http.proxy', 'no_proxy first');
    assert.equal(decide({ ...p, noProxySetting: [' PLATFORM.Example '] }).source, 'http.noProxy', 'entries trimmed, any case');
    assert.deepEqual(decide({ env: { https_proxy: '  ', HTTPS_PROXY: ' http://b:2 ' } }), { proxy: 'http://b:2', source: 'HTTPS_PROXY' }, 'a blank variable is skipped, a value trimmed');
  });

  it('bypass entries: "*", names with or without a leading dot, [v6]:port, a bare v6 address', () => {
    assert.equal(bypassesProxy(['*'], 'anything', '1'), true);
    assert.equal(bypassesProxy(['.example'], 'example', '443'), true);
    assert.equal(bypassesProxy(['a.example'], 'A.EXAMPLE', '443'), true);
    assert.equal(bypassesProxy(['[::1]:8080'], '[::1]', '8081'), false);
    assert.equal(bypassesProxy(['[::1]'], '[::1]', '8081'), true);
    assert.equal(bypassesProxy(['fe80::1'], '[fe80::1]', '80'), true);
    assert.equal(bypassesProxy(['fe80::1'], '[fe80::2]', '80'), false);
    assert.equal(bypassesProxy(['example:80:90'], 'example', '80'), false, 'name:port takes one colon');
    assert.equal(bypassesProxy(['', '  '], 'a.example.', '443'), false, 'an empty entry matches no host, not even one ending in a dot');
  });

  it('the OS store\'s certificates where this Node reads them', () => {
    const get = (tls as { getCACertificates?: (type: string) => string[] }).getCACertificates;
    if (typeof get === 'function') assert.deepEqual(systemCertificates(), get('system'));
    else assert.equal(systemCertificates(), undefined);
  });
});
