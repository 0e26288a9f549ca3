// How PlatformClient reaches the service: a keep-alive pool, direct or through an HTTP(S) proxy
// in a CONNECT tunnel, trusting extra certificates; and the plain-English reading of what fails
// on that path (certificates, proxy answers). The tunnel protects only https targets: for an
// http:// service the proxy relays the request, secret key included, in clear. The product never
// gives a target on this machine a proxy (core/network resolveProxy); the `proxy` option here is
// used as given.
import * as tls from 'node:tls';
import { Pool, ProxyAgent, type Dispatcher } from 'undici';
import { proxyHostPort } from '../network';
import { PlatformError, type PlatformErrorInit } from './errors';

export interface TransportOptions {
  /** `http://` or `https://` proxy URL; `user:password@` in it is sent as Basic proxy credentials. */
  proxy?: string;
  /** The Proxy-Authorization header value (e.g. `Basic …`), when the URL carries no credentials. */
  proxyAuthorization?: string;
  /** Certificates (PEM) trusted in addition to the default ones. */
  ca?: string | readonly string[];
  /** Verify the service's (and an https proxy's) certificate; default true. */
  rejectUnauthorized?: boolean;
}

export interface PoolOptions {
  connections: number;
  keepAliveTimeout: number;
  connectTimeoutMs: number;
}

export interface Transport {
  dispatcher: Dispatcher;
  /** The proxy as HOST:PORT (never its credentials), or undefined when direct. */
  proxy: string | undefined;
  httpsProxy: boolean;
  /** Proxy credentials, for the client to mask out of every message. */
  secrets: string[];
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

/** A bad PlatformClient option: the message names the option and its rule, the hint the fix. */
export function optionError(field: string, rule: string, hint = `Correct ${field}.`): PlatformError {
  return new PlatformError({ kind: 'validation', message: `PlatformClient option ${field} ${rule}.`, hint });
}

/** The proxy URL, checked; the value itself is never echoed (it may hold credentials). */
function parseProxy(value: unknown): URL {
  const hint = 'Use the form http://HOST:PORT or https://HOST:PORT (credentials as http://user:password@HOST:PORT).';
  if (typeof value !== 'string' || value.trim() === '') {
    throw optionError('proxy', 'must be a non-empty URL', hint);
  }
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw optionError('proxy', 'is not a valid URL', hint);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw optionError('proxy', `must be an http:// or https:// URL, not ${url.protocol}//`, hint);
  }
  // An http(s) URL always has a host and at least the path "/" (new URL refuses one without a host).
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    throw optionError('proxy', 'must be only a scheme, a host and a port', hint);
  }
  try {
    decodeURIComponent(url.username + url.password);
  } catch {
    throw optionError('proxy', 'has credentials with a broken %-escape', 'Write % in a user name or password as %25.');
  }
  return url;
}

function parseCa(value: unknown): string[] {
  const list = typeof value === 'string' ? [value] : value;
  const hint = 'Give each certificate as PEM text (-----BEGIN CERTIFICATE----- …).';
  if (!Array.isArray(list)) {
    throw optionError('ca', 'must be a PEM string or a list of them', hint);
  }
  list.forEach((pem: unknown, i) => {
    if (typeof pem !== 'string' || !PEM_CERT.test(pem)) {
      throw optionError(Array.isArray(value) ? `ca[${i}]` : 'ca', 'is not a PEM certificate', hint);
    }
  });
  return list as string[];
}

/** The certificates Node trusts by default (with NODE_EXTRA_CA_CERTS where this Node can say). */
function defaultCertificates(): readonly string[] {
  const get = (tls as { getCACertificates?: (type: string) => string[] }).getCACertificates;
  return typeof get === 'function' ? get('default') : tls.rootCertificates;
}

/** Checks the options and builds the dispatcher; throws a PlatformError naming a bad option. */
export function createTransport(origin: string, o: TransportOptions, pool: PoolOptions): Transport {
  if (o.rejectUnauthorized !== undefined && typeof o.rejectUnauthorized !== 'boolean') {
    throw optionError('rejectUnauthorized', 'must be true or false', 'Leave it out to verify certificates (the default).');
  }
  if (o.proxyAuthorization !== undefined && (typeof o.proxyAuthorization !== 'string' || /[\r\n]/.test(o.proxyAuthorization))) {
    throw optionError('proxyAuthorization', 'must be one line of text', 'Give the Proxy-Authorization header value, e.g. Basic <base64 of user:password>.');
  }
  const connect: tls.ConnectionOptions & { timeout: number } = { timeout: pool.connectTimeoutMs, rejectUnauthorized: o.rejectUnauthorized !== false };
  if (o.ca !== undefined) {
    // One context for every connection: parsing a few hundred certificates per handshake would
    // cost more than the handshake. (Node ignores a PEM block it cannot read: it never throws here.)
    connect.secureContext = tls.createSecureContext({ ca: [...defaultCertificates(), ...parseCa(o.ca)] });
  }
  const shared = { connections: pool.connections, keepAliveTimeout: pool.keepAliveTimeout };
  if (o.proxy === undefined) {
    return { dispatcher: new Pool(origin, { ...shared, connect }), proxy: undefined, httpsProxy: false, secrets: [] };
  }
  const url = parseProxy(o.proxy);
  // undici sends URL credentials only when both parts are there; otherwise the header value is used.
  const urlCredentials = url.username !== '' && url.password !== '';
  const dispatcher = new ProxyAgent({
    ...shared,
    uri: url.href,
    ...(o.proxyAuthorization && !urlCredentials ? { token: o.proxyAuthorization } : {}),
    requestTls: connect,
    proxyTls: connect,
  });
  const secrets = [url.password, decodeURIComponent(url.password), o.proxyAuthorization ?? ''].filter((x) => x !== '');
  return { dispatcher, proxy: proxyHostPort(url), httpsProxy: url.protocol === 'https:', secrets };
}

// ---- What failed on the way -----------------------------------------------------------------

const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_GET_ISSUER_CERT', 'CERT_UNTRUSTED', 'CERT_SIGNATURE_FAILURE', 'CERT_REVOKED',
]);
const EXPIRED = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const WRONG_HOST = 'ERR_TLS_CERT_ALTNAME_INVALID';
const NOT_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'EPROTO']);
// Connecting failed before any byte went out: with a proxy, that connection is the proxy's.
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
// undici's words for a CONNECT the proxy answered with anything but 200.
const TUNNEL_REFUSED = /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling$/;

const TRUST_CA = 'If your network inspects HTTPS with its own certificate (a company proxy), trust that CA: in VS Code turn on "http.systemCertificates" with the CA in the OS store, or set NODE_EXTRA_CA_CERTS to its PEM file and restart. Turning verification off ("http.proxyStrictSSL": false) is a last resort: anyone in between could then read the secret key.';

export interface TransportFailure {
  error: PlatformErrorInit;
  /** True when the request certainly never reached the service. */
  notSent: boolean;
}

function codeOf(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The certificate and proxy failures of one attempt, each with what to do; undefined for
 * anything else. `service` is the service's HOST[:PORT], `proxy` the proxy's HOST:PORT.
 */
// eslint-disable-next-line complexity -- one branch per transport error code, in the order they must be tried (the proxy's before the service's)
export function classifyTransportError(err: unknown, operation: string, service: string, t: Transport): TransportFailure | undefined {
  const cause = (err as { cause?: unknown } | null)?.cause;
  const code = codeOf(err) === 'UND_ERR_PRX_TLS' ? codeOf(cause) : codeOf(err) ?? codeOf(cause);
  const whose = t.httpsProxy ? `${service} (or of the proxy ${t.proxy})` : service;
  const fail = (message: string, hint: string, retryable = false): TransportFailure =>
    ({ notSent: true, error: { kind: 'network', operation, message: `${operation}: ${message}`, hint, retryable } });
  if (code !== undefined && UNTRUSTED.has(code)) {
    return fail(`the certificate of ${whose} is not trusted (${code}): it is self-signed or issued by an authority this computer does not trust. Nothing was sent.`, TRUST_CA);
  }
  if (code !== undefined && EXPIRED.has(code)) {
    const what = code === 'CERT_HAS_EXPIRED' ? 'has expired' : 'is not valid yet';
    return fail(`the certificate of ${whose} ${what} (${code}). Nothing was sent.`,
      'Check this computer\'s date and time; if they are right, the certificate must be renewed by whoever runs that server. Do not turn verification off for this.');
  }
  if (code === WRONG_HOST) {
    const reason = (err as { reason?: unknown }).reason ?? (cause as { reason?: unknown } | undefined)?.reason;
    return fail(`the certificate presented for ${whose} is for another host name${typeof reason === 'string' ? ` (${reason})` : ''}. Nothing was sent.`,
      `Check the host in the service endpoint setting. ${TRUST_CA}`);
  }
  if (code !== undefined && NOT_TLS.has(code)) {
    return fail(`${service} did not answer in TLS (${code}). Nothing was sent.`, 'Check whether the service endpoint should start with http:// or https://.');
  }
  if (t.proxy === undefined) {
    return undefined;
  }
  const tunnel = err instanceof Error ? TUNNEL_REFUSED.exec(err.message) : null;
  if (tunnel?.[1] === '407') {
    return fail(`the proxy ${t.proxy} needs credentials (407 Proxy Authentication Required), or refused the ones given. Nothing reached the service.`,
      'Set "http.proxyAuthorization" in your user settings (e.g. Basic <base64 of user:password>), or put user:password@ in the proxy URL (http.proxy or HTTPS_PROXY).');
  }
  if (tunnel) {
    const status = Number(tunnel[1]);
    return fail(`the proxy ${t.proxy} would not open a connection to ${service} (it answered HTTP ${status}). Nothing reached the service.`,
      `Check that the proxy allows connections to ${service}, or list that host in "http.noProxy" to go direct.`, status >= 500);
  }
  if (code !== undefined && UNREACHABLE.has(code)) {
    return fail(`could not reach the proxy ${t.proxy} (${code}); the service was not contacted.`,
      'Check the proxy address in "http.proxy" (or HTTPS_PROXY) and that the proxy is running, or set "http.proxySupport" to "off" to go direct.', true);
  }
  return undefined;
}
