import * as assert from 'node:assert/strict';
import { PlatformError } from '../../../src/core/api/errors';
import { buildBaseUrl, isLoopbackHost, validateEndpointTemplate } from '../../../src/core/endpoint';

describe('core/endpoint', () => {
  it('isLoopbackHost accepts only 127.0.0.1, ::1 and localhost', () => {
    for (const h of ['127.0.0.1', '::1', '[::1]', 'localhost', 'LOCALHOST']) {
      assert.ok(isLoopbackHost(h), h);
    }
    for (const h of ['127.0.0.2', '0.0.0.0', 'localhost.example.net', 'example.net', '::2', '']) {
      assert.equal(isLoopbackHost(h), false, h);
    }
  });

  it('accepts the cloud and the emulator forms', () => {
    for (const t of ['https://{titleId}.example.net', 'https://{titleId}.example.net:8443/', 'http://127.0.0.1:8080/{titleId}',
      'http://[::1]:9000/{titleId}/', 'http://localhost:1/api/{titleId}', 'https://gateway.example.net/{titleId}']) {
      assert.equal(validateEndpointTemplate(t), undefined, t);
    }
  });

  it('rejects hostile or unusable templates with a reason', () => {
    const bad = [
      '', '   ', 'example.net', '{titleId}.example.net', 'ftp://{titleId}.example.net', 'http://{titleId}.example.net',
      'http://10.0.0.1/{titleId}', 'https://{titleId}.example.net/{titleId}', 'https://example.net', 'https://x{titleId}.example.net',
      'https://example.{titleId}.net', 'https://{titleId}', 'https://user:pw@{titleId}.example.net', 'https://{titleId}.example.net@evil.net',
      'https://{titleId}.example.net?x=1', 'https://{titleId}.example.net#frag', 'https://{titleId}.example.net\\@evil.net',
      'https://{titleId}.ex%61mple.net', 'https://{titleId}.exämple.net', 'https://{titleId}.example.net /x',
      'https://{titleId}.example.net:99999', 'https://{titleId}.[::1]', 'http://{titleId}.localhost:8080', 'http://127.0.0.1/a{titleId}b',
      'https://{titleId}.example.net/{x}', 'javascript://{titleId}.example.net', `https://{titleId}.${'a'.repeat(3000)}.net`,
      'https://{titleId}.example.net\t', 'https://{titleId}.', 'https://{titleId}..example.net',
    ];
    for (const t of bad) {
      const err = validateEndpointTemplate(t);
      assert.ok(typeof err === 'string' && err.length > 10, `accepted: ${JSON.stringify(t)}`);
    }
  });

  it('builds base URLs ending in / with the title in the host label or path', () => {
    assert.equal(buildBaseUrl('https://{titleId}.example.net', 'F71AC').href, 'https://f71ac.example.net/');
    assert.equal(buildBaseUrl('http://127.0.0.1:8080/{titleId}', 'F71AC').href, 'http://127.0.0.1:8080/F71AC/');
    assert.equal(buildBaseUrl('http://[::1]:8080/p/{titleId}/', 'A248').href, 'http://[::1]:8080/p/A248/');
    assert.equal(new URL('Admin/DeleteMasterPlayerAccount', buildBaseUrl('http://127.0.0.1:1/{titleId}', 'A248')).pathname, '/A248/Admin/DeleteMasterPlayerAccount');
  });

  it('refuses hostile title IDs before building anything', () => {
    for (const id of ['evil.net/', 'F71AC.evil', 'a@b', 'F7#', 'F7/..', 'F7\\x', 'F7:1', '[::1]', 'xn--f7', '%2F', 'u:p@', ' F71AC', 'F'.repeat(300)]) {
      assert.throws(() => buildBaseUrl('https://{titleId}.example.net', id), (e: unknown) => e instanceof PlatformError && e.kind === 'validation' && /Title ID/.test(e.message), id);
    }
  });

  it('throws a validation PlatformError for a bad template', () => {
    assert.throws(() => buildBaseUrl('http://example.net/{titleId}', 'F71AC'), (e: unknown) => e instanceof PlatformError && e.kind === 'validation' && /https/.test(e.message));
  });
});
