// How a title's requests reach the service: VS Code's proxy and certificate settings (user
// level only, so a workspace cannot route a key through its own proxy) and the proxy variables
// of the environment, turned into the client's proxy/ca/rejectUnauthorized options.
import * as vscode from 'vscode';
import { proxyHostPort, resolveProxy, systemCertificates, type ProxySupport } from '../core/network';
import { CommandError } from './errors';

export interface Route {
  options: { proxy?: string; proxyAuthorization?: string; ca?: string[]; rejectUnauthorized?: boolean };
  /** The proxy as HOST:PORT (never its credentials), or undefined when direct. */
  via?: string;
  /** How requests go, for the log: never a credential. */
  summary: string;
  warnings: string[];
}

const SUPPORT: readonly string[] = ['off', 'on', 'fallback', 'override'];

function userValue<T>(key: string, fallback: T): T {
  const i = vscode.workspace.getConfiguration('http').inspect<T>(key);
  return i?.globalValue ?? i?.defaultValue ?? fallback;
}

let osCertificates: { certs: string[] | undefined } | undefined;

/** The OS store is read once per extension host: it is a few hundred certificates. */
function osStore(): string[] | undefined {
  osCertificates ??= { certs: systemCertificates() };
  return osCertificates.certs;
}

function parseProxy(value: string, source: string): URL {
  const fix = `Use an http:// or https:// proxy URL in "${source}", or set "http.proxySupport" to "off" to connect directly.`;
  let url: URL;
  try {
    url = new URL(value.includes('://') ? value : `http://${value}`);
  } catch {
    throw new CommandError(vscode.l10n.t('The proxy in "{0}" is not a valid URL.', source), fix);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CommandError(vscode.l10n.t('The proxy in "{0}" uses {1}//, which Platform Explorer does not support.', source, url.protocol), fix);
  }
  return url;
}

/** The route to `target`; the local emulator's titles, and any title on this machine's loopback, always go direct (resolveProxy). */
export function routeFor(target: URL, localEmulator: boolean): Route {
  if (localEmulator) {
    return { options: {}, summary: 'direct (local emulator)', warnings: [] };
  }
  const support = userValue<string>('proxySupport', 'override');
  const decision = resolveProxy({
    target,
    proxySupport: (SUPPORT.includes(support) ? support : 'override') as ProxySupport,
    proxySetting: userValue<string>('proxy', '') ?? '',
    noProxySetting: userValue<string[]>('noProxy', []) ?? [],
    env: process.env,
  });
  const route: Route = { options: {}, summary: `direct (${decision.source})`, warnings: [] };
  if (decision.proxy !== undefined) {
    const url = parseProxy(decision.proxy, decision.source);
    route.options.proxy = url.href;
    route.via = proxyHostPort(url);
    route.summary = `via proxy ${route.via} (${decision.source})`;
    const auth = userValue<string | null>('proxyAuthorization', null);
    if (typeof auth === 'string' && auth.trim() !== '') {
      route.options.proxyAuthorization = auth.trim();
    }
    if (userValue<boolean>('proxyStrictSSL', true) === false) {
      route.options.rejectUnauthorized = false;
      route.warnings.push('"http.proxyStrictSSL" is false: certificates are not verified through the proxy, so whoever runs it could read title secret keys. Trust its CA instead ("http.systemCertificates" or NODE_EXTRA_CA_CERTS) and turn verification back on.');
    }
  }
  // Certificates matter only where TLS is spoken: an https service or an https proxy.
  const tls = target.protocol === 'https:' || route.options.proxy?.startsWith('https:') === true;
  if (tls && userValue<boolean>('systemCertificates', true) !== false) {
    const certs = osStore();
    if (certs === undefined) {
      route.warnings.push(`"http.systemCertificates": this VS Code's Node ${process.version} cannot read the OS certificate store, so only Node's own CAs (and NODE_EXTRA_CA_CERTS) are trusted.`);
    } else if (certs.length > 0) {
      route.options.ca = certs;
      route.summary += `; ${certs.length} OS certificates trusted`;
    }
  }
  return route;
}
