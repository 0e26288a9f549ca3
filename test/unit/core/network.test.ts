// Which proxy a request takes: VS Code's settings first, then the environment, with no-proxy lists.
import * as assert from 'node:assert/strict';
import { bypassesProxy, proxyHostPort, resolveProxy, type ProxyInputs } from '../../../src/core/network';

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
});
