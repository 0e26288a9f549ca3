// The local Platform service over node:http. Title routing: a path prefix
// `/{titleId}/<Area>/<Operation>`, or `/<Area>/<Operation>` when the Host's first label is a
// known title ID (as with the cloud's `https://{titleId}.<domain>`); both given must agree.

import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { operationAt } from '../core/api/operations';
import { isLoopbackAddress, runControl, Stats } from './controls';
import type { ControlContext } from './controls';
import { Faults } from './faults';
import type { FaultRule } from './faults';
import { ApiError, foreignRequest, invalidParams, isJsonContentType, isPlainObject, sendJson, success } from './http';
import { loadState, StateStore } from './persistence';
import { RateLimiter, type RateLimit } from './rateLimit';
import { buildSeed, demoKeys } from './seed';
import type { SeedName } from './seed';
import { newPersistedState, PlatformService } from './service';
import type { TitleState } from './state';

export interface EmulatorOptions {
  /** Loopback only: 127.0.0.1 (default), ::1 or localhost. */
  host?: string;
  /** 0 = any free port (default). */
  port?: number;
  /** Persist state here (atomic JSON file + outbox files); in memory when absent. */
  dataDir?: string;
  /** Seed used when there is no saved state (default demo). */
  seed?: SeedName;
  /** The seed's fixed, documented secret keys (for tests) instead of random ones for this run. */
  fixedKeys?: boolean;
  /** Time from DeleteMasterPlayerAccount to completion (default 5000). */
  deletionDelayMs?: number;
  log?: (line: string) => void;
  /** Also log one line per service request (no headers, no bodies). */
  logRequests?: boolean;
  /** Sees every operation's answer envelope as sent (the contract tests check each one). */
  onAnswer?: (operation: string, httpStatus: number, body: unknown) => void;
  /** Serve HTTPS with a self-signed certificate made at start for 127.0.0.1, ::1 and localhost. */
  tls?: boolean;
  /** Throttle each title's operation past this many requests per window (--rate-limit N/SECONDS). */
  rateLimit?: RateLimit;
}

export interface EmulatorTitle {
  titleId: string;
  name: string;
  secretKey: string;
}

export interface EmulatorHandle {
  /** URL template, e.g. http://127.0.0.1:PORT/{titleId} */
  endpoint: string;
  /** e.g. http://127.0.0.1:PORT */
  origin: string;
  titles: EmulatorTitle[];
  /** With `tls`: the PEM certificate a client must trust. */
  caCertificate?: string;
  close(): Promise<void>;
}

/** Bodies above this answer 413; well above any real request of these operations. */
export const MAX_BODY_BYTES = 64 * 1024;
/** Past this the emulator stops draining an oversized body and drops the connection. */
const DRAIN_LIMIT_BYTES = 4 * 1024 * 1024;
const DRIP_INTERVAL_MS = 100;
const LOOPBACK_HOSTS = ['127.0.0.1', '::1', 'localhost'];

/** The client went away mid-request: nothing to answer. */
class ClientGone extends Error {}

function readBody(req: IncomingMessage): Promise<Buffer> {
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

function parseJsonBody(raw: Buffer, allowNonObject = false): Record<string, unknown> {
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

function hostTitleLabel(host: string | undefined): string | undefined {
  if (!host || host.startsWith('[')) return undefined;
  const colon = host.indexOf(':');
  const name = colon >= 0 ? host.slice(0, colon) : host;
  const dot = name.indexOf('.');
  return (dot >= 0 ? name.slice(0, dot) : name).toUpperCase();
}

function faultAnswer(rule: FaultRule): { status: number; body: string; headers: Record<string, string> } {
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

export async function startEmulator(o: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const host = o.host ?? '127.0.0.1';
  if (!LOOPBACK_HOSTS.includes(host)) {
    throw new Error(`The emulator listens on loopback only; host must be one of ${LOOPBACK_HOSTS.join(', ')}, not ${host}.`);
  }
  const seed = o.seed ?? 'demo';
  const log = o.log ?? (() => undefined);

  const loaded = o.dataDir ? loadState(o.dataDir) : undefined;
  const state = loaded ?? newPersistedState(seed, await buildSeed(seed, demoKeys(o.fixedKeys ?? false)));
  // The service replaces its data on reset, so the store reads it back through the service.
  const store: StateStore = new StateStore(o.dataDir, () => svc.state, log);
  await store.init();
  const svc = new PlatformService(state, store, log);
  svc.deletionDelayMs = o.deletionDelayMs ?? 5000;
  if (o.dataDir) log(loaded ? `state loaded from ${o.dataDir}` : `state seeded (${seed}) in ${o.dataDir}`);
  if (!loaded) await svc.persistNow();

  const faults = new Faults();
  const stats = new Stats();
  const rateLimiter = new RateLimiter(o.rateLimit);
  const ctx: ControlContext = { service: svc, faults, stats, rateLimiter };
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const sleep = (ms: number) => new Promise<void>((resolve) => {
    const t = setTimeout(() => { timers.delete(t); resolve(); }, ms);
    timers.add(t);
  });

  function send(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
    if (res.destroyed || res.headersSent) return;
    sendJson(res, status, body, headers);
  }

  function drip(res: ServerResponse, status: number, text: string): void {
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

  function resolveTitle(titleSegment: string | undefined, hostHeader: string | undefined): TitleState {
    const titles = svc.data.titles;
    const label = hostTitleLabel(hostHeader);
    const hostTitle = label !== undefined && titles[label] ? label : undefined;
    if (titleSegment === undefined) {
      if (!hostTitle) throw new ApiError(400, 'InvalidTitleId', 'No title in the request: use /{titleId}/<Area>/<Operation> or a host whose first label is the title ID.');
      return titles[hostTitle];
    }
    const id = titleSegment.toUpperCase();
    if (hostTitle && hostTitle !== id) {
      throw new ApiError(400, 'InvalidTitleId', `The title in the path (${titleSegment}) does not match the title of the host (${hostTitle}).`);
    }
    const title = titles[id];
    if (!title) throw new ApiError(400, 'InvalidTitleId', `Title ${titleSegment} does not exist on this service; check the title ID.`);
    return title;
  }

  async function serveOperation(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const asSuccess = String(req.headers['x-reporterrorassuccess'] ?? '').toLowerCase() === 'true';
    const seg = path.split('/');
    let op: string | undefined;
    let titleSegment: string | undefined;
    if (seg.length === 4) {
      titleSegment = seg[1];
      op = `${seg[2]}/${seg[3]}`;
    } else if (seg.length === 3) op = `${seg[1]}/${seg[2]}`;
    let status = 200;
    let body: unknown;
    let headers: Record<string, string> | undefined;
    let fault: FaultRule | undefined;
    const name = op === undefined ? undefined : operationAt(op);
    try {
      if (req.method !== 'POST' || !op || name === undefined) {
        stats.count('unknown');
        throw new ApiError(404, 'InvalidRequest', `No API at ${req.method} ${path}; operations are POST /{titleId}/<Area>/<Operation>.`);
      }
      stats.count(op);
      fault = faults.take(op);
      if (faults.config.latencyMs > 0) await sleep(faults.config.latencyMs);
      if (fault?.kind === 'reset-before') {
        req.socket.destroy();
        return;
      }
      const raw = await readBody(req);
      if (fault?.kind === 'timeout') return; // never answered; close() or the client ends it
      if (fault && ['429', '500', '503', 'garbage', 'html'].includes(fault.kind)) {
        const f = faultAnswer(fault);
        const code = asSuccess && f.status >= 400 && fault.kind !== 'html' ? 200 : f.status;
        if (!res.destroyed) {
          res.writeHead(code, { ...f.headers, 'Content-Length': String(Buffer.byteLength(f.body)) });
          res.end(f.body);
        }
        return;
      }
      rateLimiter.take((titleSegment ?? hostTitleLabel(req.headers.host) ?? '').toUpperCase(), op);
      const title = resolveTitle(titleSegment, req.headers.host);
      if (!isJsonContentType(req.headers['content-type'])) {
        throw new ApiError(400, 'InvalidContentType', 'The request Content-Type must be application/json.');
      }
      body = success(await svc.handle(name, title, req.headers, parseJsonBody(raw)));
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      status = e.httpStatus;
      body = e.toWrapper();
      if (e.retryAfterSeconds !== undefined) headers = { 'Retry-After': String(Math.ceil(e.retryAfterSeconds)) };
    }
    if (fault?.kind === 'reset-after') {
      req.socket.destroy();
      return;
    }
    const httpStatus = asSuccess ? 200 : status;
    if (name !== undefined) o.onAnswer?.(op!, status, body);
    if (fault?.kind === 'drip') drip(res, httpStatus, JSON.stringify(body));
    else send(res, httpStatus, body, headers);
  }

  async function serveControl(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (!isLoopbackAddress(req.socket.remoteAddress)) {
      send(res, 403, new ApiError(403, 'NotAuthorized', 'Emulator controls answer loopback clients only.').toWrapper());
      return;
    }
    // A plain text/plain form post needs no CORS preflight: controls that change state take JSON only.
    if (req.method !== 'GET' && !isJsonContentType(req.headers['content-type'])) {
      send(res, 415, new ApiError(415, 'InvalidContentType', 'Emulator controls take Content-Type: application/json.').toWrapper());
      return;
    }
    try {
      const body = parseJsonBody(await readBody(req), true);
      send(res, 200, await runControl(ctx, req.method ?? 'GET', path, body));
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      send(res, e.httpStatus, e.toWrapper());
    }
  }

  const certificate = o.tls ? await (await import('./tls')).makeCertificate() : undefined;
  let port = 0; // known once listening; requests arrive only after that
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const started = Date.now();
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q >= 0 ? url.slice(0, q) : url;
    if (o.logRequests) res.on('finish', () => log(`${req.method} ${path} ${res.statusCode} ${Date.now() - started}ms`));
    const foreign = foreignRequest(req.headers, port);
    if (foreign) {
      send(res, foreign.httpStatus, foreign.toWrapper(), { Connection: 'close' });
      return;
    }
    const work = path.startsWith('/_emulator/') ? serveControl(req, res, path.slice('/_emulator/'.length)) : serveOperation(req, res, path);
    work.catch((e: unknown) => {
      if (e instanceof ClientGone) return;
      log(`emulator error on ${req.method} ${path}: ${(e as Error).message}`);
      if (!res.headersSent && !res.destroyed) {
        send(res, 500, new ApiError(500, 'InternalServerError', 'The emulator hit an internal error; see its log.').toWrapper());
      } else res.destroy();
    });
  };
  const server = certificate ? createTlsServer({ cert: certificate.cert, key: certificate.key }, onRequest) : createServer(onRequest);
  server.on('secureConnection', () => stats.tlsHandshakes++);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  svc.start();
  port = (server.address() as AddressInfo).port;
  const origin = `${certificate ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;

  return {
    endpoint: `${origin}/{titleId}`,
    origin,
    titles: Object.values(svc.data.titles).map((t) => ({ titleId: t.titleId, name: t.name, secretKey: t.secretKey })),
    caCertificate: certificate?.cert,
    close(): Promise<void> {
      closing ??= (async () => {
        svc.stop();
        for (const t of timers) clearTimeout(t);
        timers.clear();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          for (const s of sockets) s.destroy();
        });
        await svc.settled();
        await store.close();
      })();
      return closing;
    },
  };
}
