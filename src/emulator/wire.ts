// The wire side of a service request: reading a bounded body, parsing it as JSON, the title
// label of a Host, and the answers of injected faults.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultRule } from './faults';
import { ApiError, invalidParams, isPlainObject } from './http';

/** Bodies above this answer 413; well above any real request of these operations. */
export const MAX_BODY_BYTES = 64 * 1024;
/** Past this the emulator stops draining an oversized body and drops the connection. */
const DRAIN_LIMIT_BYTES = 4 * 1024 * 1024;

/** The client went away mid-request: nothing to answer. */
export class ClientGone extends Error {}

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > DRAIN_LIMIT_BYTES) {
        req.socket.destroy();
        return;
      }
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) {
        reject(new ApiError(413, 'InvalidRequest', `The request body is ${size} bytes; the limit is ${MAX_BODY_BYTES} bytes. Send fewer identifiers per request.`));
      } else resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    });
    req.on('error', () => reject(new ClientGone()));
    req.on('close', () => { if (!req.complete) reject(new ClientGone()); });
  });
}

export function parseJsonBody(raw: Buffer, allowNonObject = false): Record<string, unknown> {
  if (raw.length === 0) return {};
  let v: unknown;
  try {
    v = JSON.parse(raw.toString('utf8'));
  } catch (e) {
    throw invalidParams({ RequestBody: [`The request body is not valid JSON (${(e as Error).message}); send a JSON object.`] }, 'The request body is not valid JSON.');
  }
  if (!isPlainObject(v)) {
    if (allowNonObject && v === null) return {};
    throw invalidParams({ RequestBody: ['The request body must be a JSON object.'] });
  }
  return v;
}

export function hostTitleLabel(host: string | undefined): string | undefined {
  if (!host || host.startsWith('[')) return undefined;
  const colon = host.indexOf(':');
  const name = colon >= 0 ? host.slice(0, colon) : host;
  const dot = name.indexOf('.');
  return (dot >= 0 ? name.slice(0, dot) : name).toUpperCase();
}

export function faultAnswer(rule: FaultRule): { status: number; body: string; headers: Record<string, string> } {
  const json = (status: number, w: ApiError) => ({ status, body: JSON.stringify(w.toWrapper()), headers: { 'Content-Type': 'application/json; charset=utf-8' } });
  switch (rule.kind) {
    case '429': {
      const after = rule.retryAfterSeconds ?? 1;
      const r = json(429, new ApiError(429, 'APIClientRequestRateLimitExceeded', 'The title has exceeded its API request rate; retry after the delay.', undefined, after));
      return { ...r, headers: { ...r.headers, 'Retry-After': String(Math.ceil(after)) } };
    }
    case '500':
      return json(500, new ApiError(500, 'InternalServerError', 'The service hit an internal error.'));
    case '503':
      return json(503, new ApiError(503, 'ServiceUnavailable', 'The service is temporarily unavailable.'));
    case 'garbage':
      return { status: 200, body: '{"code":200,"status":"OK","data":{"Data":[{"Platfo', headers: { 'Content-Type': 'application/json; charset=utf-8' } };
    default:
      return {
        status: 502,
        body: '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>edge-proxy</center>\r\n</body>\r\n</html>\r\n',
        headers: { 'Content-Type': 'text/html' },
      };
  }
}

const DRIP_INTERVAL_MS = 100;

/** Sends `text` one byte per 100 ms (the drip fault); its timer is in `timers` until it ends. */
export function drip(res: ServerResponse, status: number, text: string, timers: Set<NodeJS.Timeout>): void {
  const buf = Buffer.from(text);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': buf.length });
  res.flushHeaders();
  let i = 0;
  const t = setInterval(() => {
    if (res.destroyed) return;
    res.write(buf.subarray(i, i + 1));
    if (++i >= buf.length) {
      clearInterval(t);
      timers.delete(t);
      res.end();
    }
  }, DRIP_INTERVAL_MS);
  timers.add(t);
  res.on('close', () => { clearInterval(t); timers.delete(t); });
}
