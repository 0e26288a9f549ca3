// The local Platform service over node:http. Title routing: a path prefix
// `/{titleId}/<Area>/<Operation>`, or `/<Area>/<Operation>` when the Host's first label is a
// known title ID (as with the cloud's `https://{titleId}.<domain>`); both given must agree.

import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { operationAt } from '../core/api/operations';
import { controlRoute, isLoopbackAddress, runControl, Stats } from './controls';
import { checkedHosts, CONTROL_TOKEN_ENV, LOOPBACK_HOSTS, controlTokenProblem, hasControlToken, newControlToken } from './access';
import type { ControlContext } from './controls';
import { header } from './credentials';
import { Faults } from './faults';
import type { FaultHit } from './faults';
import { ApiError, foreignRequest, isJsonContentType, sendJson, success } from './http';
import { loadState, StateStore } from './persistence';
import { RateLimiter, type RateLimit } from './rateLimit';
import { credentialKind, DEFAULT_REQUEST_LOG_SIZE, maskPath, newDraft, RequestLog } from './requestLog';
import type { RequestDraft } from './requestLog';
import { builtInSeed, buildSeed, demoKeys } from './seed';
import type { SeedName, SeedSource } from './seed';
import { newPersistedState, PlatformService } from './service';
import { Snapshots, takeSnapshot } from './snapshots';
import type { SnapshotFile } from './snapshots';
import type { PersistedState, TitleState } from './state';
import { ClientGone, drip, faultAnswer, hostTitleLabel, parseJsonBody, readBody } from './wire';

export { MAX_BODY_BYTES } from './wire';

export interface EmulatorOptions {
  /**
   * 127.0.0.1 (default), ::1 or localhost; another address (0.0.0.0 in a container) only with
   * `allowedHosts`: then controls are not limited to loopback peers and the control token alone guards them.
   */
  host?: string;
  /** Host names besides loopback the emulator answers to (--allowed-host: the compose service name). */
  allowedHosts?: string[];
  /** The control token (--control-token, PLATFORM_EMULATOR_CONTROL_TOKEN); random for the run when absent. */
  controlToken?: string;
  /** The seed rate faults draw from (--fault-seed); random for the run when absent. */
  faultSeed?: number;
  /** 0 = any free port (default). */
  port?: number;
  /** Persist state here (atomic JSON file + outbox files); in memory when absent. */
  dataDir?: string;
  /** Seed used when there is no saved state (default demo): a built-in name or a seed file's content (seedSource). */
  seed?: SeedName | SeedSource;
  /** Start from this state (a --load snapshot file) instead of the seed or --data's state. */
  initialState?: PersistedState;
  /** Entries the request log keeps (default 10,000); 0 turns it off. */
  requestLogSize?: number;
  /** Called once listening, before the state is built (readiness tests poll from here). */
  onListening?: (origin: string) => void;
  /** Awaited after the state is built and before the emulator reports ready (tests hold a start here). */
  beforeReady?: () => Promise<void>;
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
  /** Never keep the process alive (the programmatic API: a suite that forgets stop() still exits). */
  unref?: boolean;
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
  /** `Authorization: Bearer <controlToken>` on every /_emulator/ control but ready. */
  controlToken: string;
  /** The seed rate faults draw from: the same seed and requests give the same faults. */
  faultSeed: number;
  /** Every service request of this run, masked when read (GET /_emulator/requests). */
  requestLog: RequestLog;
  /** The whole state now (what --snapshot-on-exit writes). */
  snapshot(): SnapshotFile;
  close(): Promise<void>;
}


export async function startEmulator(o: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const host = o.host ?? '127.0.0.1';
  const loopbackOnly = LOOPBACK_HOSTS.includes(host);
  const allowedHosts = checkedHosts(host, o.allowedHosts ?? []);
  const controlToken = o.controlToken ?? newControlToken();
  const tokenProblem = controlTokenProblem(controlToken);
  if (tokenProblem) throw new Error(tokenProblem);
  const seed: SeedSource = typeof o.seed === 'object' ? o.seed : builtInSeed(o.seed ?? 'demo');
  const log = o.log ?? (() => undefined);
  // Everything that can refuse the start without a port (a bad state file) does so first.
  const loaded = o.initialState ?? (o.dataDir ? loadState(o.dataDir) : undefined);

  const faults = new Faults(o.faultSeed);
  const stats = new Stats();
  const rateLimiter = new RateLimiter(o.rateLimit);
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  /** Set once every title accepts requests (GET /_emulator/ready answers 200 from then on). */
  const live: { svc?: PlatformService; ctx?: ControlContext } = {};
  const requestLog = new RequestLog(o.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE, () => [controlToken, ...(live.svc ? Object.values(live.svc.data.titles).map((t) => t.secretKey) : [])], () => faults.seed);
  const snapshots = new Snapshots();

  const sleep = (ms: number) => new Promise<void>((resolve) => {
    const t = setTimeout(() => { timers.delete(t); resolve(); }, ms);
    timers.add(t);
  });

  function send(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>, draft?: RequestDraft): void {
    if (res.destroyed || res.headersSent) {
      if (draft) requestLog.add(draft, 0);
      return;
    }
    const text = sendJson(res, status, body, headers);
    if (draft) {
      draft.response = text;
      requestLog.add(draft, status);
    }
  }

  function resolveTitle(titleSegment: string | undefined, hostHeader: string | undefined): TitleState {
    const titles = live.svc!.data.titles;
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

  async function serveOperation(req: IncomingMessage, res: ServerResponse, path: string, draft: RequestDraft | undefined): Promise<void> {
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
    let hit: FaultHit | undefined;
    const name = op === undefined ? undefined : operationAt(op);
    if (draft) {
      draft.operation = name === undefined ? undefined : op;
      // Only a well-formed title ID is kept apart: the segment is whatever the caller sent (a key pasted there too).
      const named = titleSegment ?? hostTitleLabel(req.headers.host);
      draft.titleId = named !== undefined && /^[0-9A-Fa-f]{4,16}$/.test(named) ? named.toUpperCase() : undefined;
    }
    if (req.method !== 'POST' || !op || name === undefined) {
      // As the service: a plain 404 with no service error name or code (a client then says to check the address).
      stats.count('unknown');
      send(res, 404, { code: 404, status: 'NotFound', errorMessage: `No API at ${req.method} ${path}; operations are POST /{titleId}/<Area>/<Operation>.` }, undefined, draft);
      return;
    }
    try {
      stats.count(op);
      hit = faults.take(op, draft?.titleId ?? (titleSegment ?? hostTitleLabel(req.headers.host))?.toUpperCase());
      if (draft && hit?.rule.kind) draft.fault = { kind: hit.rule.kind, rule: hit.index, faultSeed: faults.seed };
      const wait = faults.config.latencyMs + (hit?.latencyMs ?? 0);
      if (wait > 0) await sleep(wait);
      const fault = hit?.rule;
      if (fault?.kind === 'reset-before') {
        if (draft) requestLog.add(draft, 0);
        req.socket.destroy();
        return;
      }
      const raw = await readBody(req);
      if (draft) draft.request = raw;
      if (fault?.kind === 'timeout') {
        // Never answered; close() or the client ends it.
        if (draft) res.once('close', () => requestLog.add(draft, 0));
        return;
      }
      if (fault?.kind && ['429', '500', '503', 'garbage', 'html'].includes(fault.kind)) {
        const f = faultAnswer(fault);
        const code = asSuccess && f.status >= 400 && fault.kind !== 'html' ? 200 : f.status;
        if (!res.destroyed) {
          res.writeHead(code, { ...f.headers, 'Content-Length': String(Buffer.byteLength(f.body)) });
          res.end(f.body);
          if (draft) draft.response = f.body;
        }
        if (draft) requestLog.add(draft, res.headersSent ? code : 0);
        return;
      }
      rateLimiter.take((titleSegment ?? hostTitleLabel(req.headers.host) ?? '').toUpperCase(), op);
      const title = resolveTitle(titleSegment, req.headers.host);
      if (!isJsonContentType(req.headers['content-type'])) {
        throw new ApiError(400, 'InvalidContentType', 'The request Content-Type must be application/json.');
      }
      body = success(await live.svc!.handle(name, title, req.headers, parseJsonBody(raw)));
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      status = e.httpStatus;
      body = e.toWrapper();
      if (e.retryAfterSeconds !== undefined) headers = { 'Retry-After': String(Math.ceil(e.retryAfterSeconds)) };
    }
    if (hit?.rule.kind === 'reset-after') {
      if (draft) requestLog.add(draft, 0);
      req.socket.destroy();
      return;
    }
    const httpStatus = asSuccess ? 200 : status;
    if (name !== undefined) o.onAnswer?.(op!, status, body);
    if (hit?.rule.kind === 'drip') {
      const text = JSON.stringify(body);
      if (draft) draft.response = text;
      drip(res, httpStatus, text, timers);
      if (draft) requestLog.add(draft, httpStatus);
    } else send(res, httpStatus, body, headers, draft);
  }

  async function serveControl(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<void> {
    // On loopback, controls answer loopback peers only; bound to another address (a container), the token alone decides.
    if (loopbackOnly && !isLoopbackAddress(req.socket.remoteAddress)) {
      send(res, 403, new ApiError(403, 'NotAuthorized', 'Emulator controls answer loopback clients only.').toWrapper());
      return;
    }
    const route = controlRoute(req.method ?? 'GET', path)?.route;
    if (!route?.open && !hasControlToken(req.headers.authorization, controlToken)) {
      send(res, 401, new ApiError(401, 'NotAuthenticated', `Emulator controls need the header "Authorization: Bearer <control token>": the controlToken of the --json line or of the API, or the one set with ${CONTROL_TOKEN_ENV}.`).toWrapper(), { 'WWW-Authenticate': 'Bearer' });
      return;
    }
    // A plain text/plain form post needs no CORS preflight: controls that change state take JSON only.
    if (req.method !== 'GET' && !isJsonContentType(req.headers['content-type'])) {
      send(res, 415, new ApiError(415, 'InvalidContentType', 'Emulator controls take Content-Type: application/json.').toWrapper());
      return;
    }
    if (path === 'ready' && req.method === 'GET') {
      const { svc } = live;
      send(res, svc ? 200 : 503, { ready: svc !== undefined, titles: svc ? Object.keys(svc.data.titles) : [] }, svc ? undefined : { 'Retry-After': '1' });
      return;
    }
    const { ctx } = live;
    if (!ctx) {
      send(res, 503, starting().toWrapper(), { 'Retry-After': '1' });
      return;
    }
    if (path === 'requests/stream' && req.method === 'GET') {
      requestLog.stream(res, query.get('since') ?? (header(req.headers, 'last-event-id') || null));
      return;
    }
    try {
      const body = parseJsonBody(await readBody(req), true);
      send(res, 200, await runControl(ctx, req.method ?? 'GET', path, body, query));
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
    const control = path.startsWith('/_emulator/');
    const draft = requestLog.enabled && !control ? newDraft(req.method ?? '', path, credentialKind(req.headers)) : undefined;
    if (o.logRequests) res.on('finish', () => log(`${req.method} ${maskPath(path, requestLog.secrets())} ${res.statusCode} ${Date.now() - started}ms`));
    const foreign = foreignRequest(req.headers, port, allowedHosts);
    if (foreign) {
      send(res, foreign.httpStatus, foreign.toWrapper(), { Connection: 'close' }, draft);
      return;
    }
    if (!control && !live.svc) {
      send(res, 503, starting().toWrapper(), { 'Retry-After': '1' }, draft);
      return;
    }
    const work = control
      ? serveControl(req, res, path.slice('/_emulator/'.length), new URLSearchParams(q >= 0 ? url.slice(q + 1) : ''))
      : serveOperation(req, res, path, draft);
    work.catch((e: unknown) => {
      if (e instanceof ClientGone) {
        if (draft) requestLog.add(draft, 0);
        return;
      }
      log(`emulator error on ${req.method} ${path}: ${(e as Error).message}`);
      if (!res.headersSent && !res.destroyed) {
        send(res, 500, new ApiError(500, 'InternalServerError', 'The emulator hit an internal error; see its log.').toWrapper(), undefined, draft);
      } else {
        if (draft) requestLog.add(draft, 0);
        res.destroy();
      }
    });
  };
  const server = certificate ? createTlsServer({ cert: certificate.cert, key: certificate.key }, onRequest) : createServer(onRequest);
  server.on('secureConnection', () => stats.tlsHandshakes++);
  server.on('connection', (s: Socket) => {
    if (o.unref) s.unref();
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(e.code === 'EADDRINUSE'
      ? new Error(`Port ${o.port} on ${host} is in use by another program; choose another --port, or --port 0 for any free port.`)
      : e));
    server.listen(o.port ?? 0, host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  if (o.unref) server.unref();
  port = (server.address() as AddressInfo).port;
  // Bound to every interface: clients reach it by the first allowed name (the compose service name).
  const shownHost = host === '0.0.0.0' || host === '::' ? allowedHosts[0] : host;
  const origin = `${certificate ? 'https' : 'http'}://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
  o.onListening?.(origin);
  let store: StateStore;
  let service: PlatformService;
  try {
    const state = loaded ?? newPersistedState(seed.name, await buildSeed(seed, o.fixedKeys ? demoKeys(true) : {}));
    // The service replaces its data on reset, so the store reads it back through the service.
    store = new StateStore(o.dataDir, () => service.state, log);
    await store.init();
    service = new PlatformService(state, store, log);
    service.origin = origin;
    service.seedSource = seed;
    service.deletionDelayMs = o.deletionDelayMs ?? 5000;
    if (o.dataDir) log(loaded ? `state loaded from ${o.initialState ? 'the snapshot file' : o.dataDir}` : `state seeded (${seed.name}) in ${o.dataDir}`);
    if (!loaded || o.initialState) await service.persistNow();
    await o.beforeReady?.();
  } catch (e) {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
    throw e;
  }
  service.start();
  live.svc = service;
  live.ctx = { service, faults, stats, rateLimiter, requestLog, snapshots };
  let closing: Promise<void> | undefined;

  return {
    endpoint: `${origin}/{titleId}`,
    origin,
    titles: Object.values(service.data.titles).map((t) => ({ titleId: t.titleId, name: t.name, secretKey: t.secretKey })),
    caCertificate: certificate?.cert,
    controlToken,
    faultSeed: faults.seed,
    requestLog,
    snapshot: () => takeSnapshot(service),
    close(): Promise<void> {
      closing ??= (async () => {
        service.stop();
        requestLog.close();
        for (const t of timers) clearTimeout(t);
        timers.clear();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          for (const s of sockets) s.destroy();
        });
        await service.settled();
        await store.close();
      })();
      return closing;
    },
  };
}

function starting(): ApiError {
  return new ApiError(503, 'ServiceUnavailable', 'The emulator is starting; wait until GET /_emulator/ready answers 200.');
}
