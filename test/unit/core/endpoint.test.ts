import * as assert from 'node:assert/strict';
import { PlatformError } from '../../../src/core/api/errors';
import { buildBaseUrl, isLoopbackHost, validateEndpointTemplate } from '../../../src/core/api/endpoint';

describe('core/api/endpoint', () => {
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

  it('rejects hostile or unusable templates with the reason that names the fix', () => {
    const bad: [string, RegExp][] = [
      ['', /is empty/], ['   ', /is empty/], [undefined as unknown as string, /is empty/],
      ['https://{titleId}.example.net /x', /spaces or line breaks/], ['https://{titleId}.example.net\t', /spaces or line breaks/], ['https://{titleId}.example.net\n', /spaces or line breaks/],
      [`https://{titleId}.${'a'.repeat(3000)}.net`, /longer than 2048/],
      ['https://{titleId}.exämple.net', /non-ASCII/],
      ['https://{titleId}.example.net\\@evil.net', /"\\" or %-encoded/], ['https://{titleId}.ex%61mple.net', /"\\" or %-encoded/],
      ['example.net', /not an absolute URL/], ['{titleId}.example.net', /not an absolute URL/],
      ['https://{titleId}.example.net?x=1', /query \(\?\) or fragment/], ['https://{titleId}.example.net#frag', /query \(\?\) or fragment/],
      ['https://user:pw@{titleId}.example.net', /user name or password/], ['https://{titleId}.example.net@evil.net', /user name or password/],
      ['https://example.net', /no \{titleId\} placeholder/], ['https://{titleId}.example.net/{titleId}', /more than once/],
      ['https://{titleId}.example.net/{x}', /braces other than/],
      ['https://x{titleId}.example.net', /whole first label/], ['https://example.{titleId}.net', /whole first label/], ['https://{titleId}', /whole first label/],
      ['https://{titleId}.[::1]', /whole first label/],
      ['http://127.0.0.1/a{titleId}b', /whole path segment/],
      ['https://{titleId}.example.net:99999', /not a valid URL/],
      ['ftp://{titleId}.example.net', /uses "ftp:"\. Use https/], ['javascript://{titleId}.example.net', /uses "javascript:"/],
      ['http://{titleId}.example.net', /http for a remote host/], ['http://10.0.0.1/{titleId}', /http for a remote host/],
      ['http://{titleId}.localhost:8080', /http for a remote host/],
      ['https://{titleId}.', /needs the service's domain name/], ['https://{titleId}..example.net', /needs the service's domain name/],
    ];
    for (const [t, reason] of bad) assert.match(validateEndpointTemplate(t) ?? 'accepted', reason, JSON.stringify(t));
    // The scheme is case-insensitive; the host of an https endpoint need not be loopback.
    assert.equal(validateEndpointTemplate('HTTPS://{titleId}.example.net'), undefined);
    assert.equal(validateEndpointTemplate('HTTP://LOCALHOST:8080/{titleId}'), undefined);
    assert.equal(validateEndpointTemplate(`https://{titleId}.${'a'.repeat(2000)}.net`.slice(0, 2048)), undefined);
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
