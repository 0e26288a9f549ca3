// Which proxy a request takes and which extra certificates it trusts, decided the way VS Code
// decides for its own requests (@vscode/proxy-agent), from values the caller reads and passes in.
import * as tls from 'node:tls';

export type ProxySupport = 'off' | 'on' | 'fallback' | 'override';

export interface ProxyInputs {
  /** Where the request goes. */
  target: URL;
  /** http.proxySupport: 'off' means direct whatever else is set. */
  proxySupport: ProxySupport;
  /** http.proxy ('' when unset). */
  proxySetting: string;
  /** http.noProxy; when non-empty, NO_PROXY is not read. */
  noProxySetting: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
}

export interface ProxyDecision {
  /** The proxy URL (may carry credentials: never log it), or undefined for direct. */
  proxy?: string;
  /** Where the decision came from: the setting or variable name, for the log. */
  source: string;
}

/** The variables VS Code reads, in its order, for every scheme. */
const PROXY_VARS = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'];

/** True when `host:port` matches a NO_PROXY-style list: `*`, `name`, `.name` (suffix), `name:port`. */
export function bypassesProxy(list: readonly string[], hostname: string, port: string): boolean {
  // Stryker disable next-line Regex: a URL's hostname has brackets only around an IPv6 address, at its two ends
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return list.map((s) => s.trim().toLowerCase()).filter((s) => s !== '').some((entry) => {
    if (entry === '*') {
      return true;
    }
    // [v6]:port, a bare v6 address (several colons), or name:port.
    const [name, entryPort] = entry.startsWith('[') ? [entry.slice(1, entry.indexOf(']')), entry.split(']:')[1]]
      : entry.indexOf(':') !== entry.lastIndexOf(':') ? [entry, undefined] : entry.split(':', 2);
    const domain = name.startsWith('.') ? name : `.${name}`;
    return `.${host}`.endsWith(domain) && (entryPort === undefined || entryPort === port);
  });
}

/**
 * True for a host on this machine: 127.0.0.0/8, ::1 (also IPv4-mapped 127.x), 0.0.0.0, localhost
 * and any *.localhost name. Broader than endpoint.isLoopbackHost (where plain http is allowed):
 * a proxy would reach its own machine's loopback with these, not this one's.
 */
export function isOnThisMachine(hostname: string): boolean {
  // Stryker disable next-line Regex: a URL's hostname has brackets only around an IPv6 address, at its two ends
  const h = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h === '0.0.0.0' || h === '::1' || h === '::') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)) return true;
  // IPv4-mapped, as the URL parser writes it (::ffff:7f00:1) or dotted.
  return /^::ffff:(7f[0-9a-f]{2}:[0-9a-f]{1,4}|127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.test(h);
}

/**
 * The route to `i.target`. A target on this machine always goes direct, whatever the settings
 * (as VS Code's own requests do): through a proxy it would reach the proxy's loopback, and for
 * an http:// title the key would cross the proxy in clear.
 */
export function resolveProxy(i: ProxyInputs): ProxyDecision {
  if (isOnThisMachine(i.target.hostname)) {
    return { source: 'a loopback target always goes direct' };
  }
  if (i.proxySupport === 'off') {
    return { source: 'http.proxySupport is off' };
  }
  const port = i.target.port || (i.target.protocol === 'https:' ? '443' : '80');
  const noProxy = i.noProxySetting.filter((s) => s.trim() !== '');
  // Stryker disable next-line StringLiteral: with neither variable set, any entry that is no host name matches nothing, as the empty one does
  const envNoProxy = (i.env.no_proxy ?? i.env.NO_PROXY ?? '').split(',');
  if (noProxy.length > 0) {
    if (bypassesProxy(noProxy, i.target.hostname, port)) {
      return { source: 'http.noProxy' };
    }
  } else if (bypassesProxy(envNoProxy, i.target.hostname, port)) {
    return { source: 'NO_PROXY' };
  }
  if (i.proxySetting.trim() !== '') {
    return { proxy: i.proxySetting.trim(), source: 'http.proxy' };
  }
  const name = PROXY_VARS.find((v) => (i.env[v] ?? '').trim() !== '');
  return name === undefined ? { source: 'no proxy set' } : { proxy: i.env[name]!.trim(), source: name };
}

/** HOST:PORT of a proxy URL, with the scheme's default port spelled out; never the credentials. */
export function proxyHostPort(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

/** The OS store's certificates, or undefined when this Node cannot read them (before 22.15 / 23.5). */
export function systemCertificates(): string[] | undefined {
  const get = (tls as { getCACertificates?: (type: string) => string[] }).getCACertificates;
  return typeof get === 'function' ? get('system') : undefined;
}
