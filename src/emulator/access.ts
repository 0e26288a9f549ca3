// The control token: every /_emulator/ route but ready (and the download links, bearer links of
// their own) needs `Authorization: Bearer TOKEN`. Random per run unless --control-token or
// PLATFORM_EMULATOR_CONTROL_TOKEN fixes it (a compose file). And where it listens: loopback, or
// another address (a container) only with the Host names clients use (--allowed-host).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

export { CONTROL_TOKEN_ENV } from '../core/controlToken';

export function newControlToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Why a fixed control token is refused, or undefined: 16 to 256 visible characters without spaces. */
export function controlTokenProblem(token: string): string | undefined {
  return /^[\x21-\x7e]{16,256}$/.test(token)
    ? undefined
    : 'The control token must be 16 to 256 visible ASCII characters without spaces (e.g. from openssl rand -hex 24).';
}

/** True when `authorization` is exactly "Bearer TOKEN" (compared in constant time). */
export function hasControlToken(authorization: string | undefined, token: string): boolean {
  const m = authorization === undefined ? null : /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  if (!m) return false;
  const a = Buffer.from(m[1]);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The addresses of a loopback-only emulator. */
export const LOOPBACK_HOSTS = ['127.0.0.1', '::1', 'localhost'];

/** The Host names to accept besides loopback; refuses a non-loopback bind without one. */
export function checkedHosts(host: string, allowed: readonly string[]): string[] {
  const loopbackOnly = LOOPBACK_HOSTS.includes(host);
  for (const name of allowed) {
    if (!/^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/.test(name) && isIP(name) === 0) {
      throw new Error(`--allowed-host ${JSON.stringify(name)} is not a host name or address; give the name clients use (e.g. the compose service name "emulator").`);
    }
  }
  if (loopbackOnly) return [...allowed];
  if (isIP(host) === 0) {
    throw new Error(`--host must be 127.0.0.1, ::1, localhost or an IP address to listen on (0.0.0.0 in a container), not ${JSON.stringify(host)}.`);
  }
  if (allowed.length === 0) {
    throw new Error(`--host ${host} needs --allowed-host NAME: the host name clients use (e.g. the compose service name), checked against each request's Host header. The control token guards /_emulator/ there.`);
  }
  // A specific address is a name clients may use too.
  return host === '0.0.0.0' || host === '::' ? [...allowed] : [...allowed, host];
}

/** True for 127.0.0.0/8 and ::1, including IPv4-mapped IPv6 forms. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase();
  if (a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice(7) : a;
  const parts = v4.split('.');
  return parts.length === 4 && parts[0] === '127' && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}
