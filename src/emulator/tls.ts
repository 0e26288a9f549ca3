// Certificates made at start for the emulator's --tls, and for tests that need a bad one
// (expired, other host). Loaded only when TLS is asked for: selfsigned pulls in a Reflect polyfill.
import { generate } from 'selfsigned';

export interface CertificateOptions {
  /** Names the certificate is valid for: IP addresses or DNS names (default 127.0.0.1, ::1, localhost). */
  hosts?: readonly string[];
  notBefore?: Date;
  notAfter?: Date;
}

export interface Certificate {
  /** PEM of the self-signed certificate: what a client trusts (`ca`). */
  cert: string;
  /** PEM of its private key: stays in the server's memory. */
  key: string;
}

const LOOPBACK_NAMES = ['127.0.0.1', '::1', 'localhost'] as const;
const DAY_MS = 24 * 60 * 60 * 1000;
const IP = /^[\d.]+$|:/;

/** A self-signed P-256 server certificate, valid from an hour ago for a week unless told otherwise. */
export async function makeCertificate(o: CertificateOptions = {}): Promise<Certificate> {
  const hosts = o.hosts ?? LOOPBACK_NAMES;
  const now = Date.now();
  const pems = await generate([{ name: 'commonName', value: hosts.find((h) => !IP.test(h)) ?? hosts[0] }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: o.notBefore ?? new Date(now - 60 * 60 * 1000),
    notAfterDate: o.notAfter ?? new Date(now + 7 * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: hosts.map((h) => (IP.test(h) ? { type: 7, ip: h } : { type: 2, value: h })) },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
