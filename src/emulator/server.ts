// The local Platform service over node:http: one small server that listens, builds the state and
// hands each request to its route module (routes/operations.ts for the service's operations,
// routes/controls.ts for /_emulator/ with data.ts, events.ts and exports.ts).

import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { checkedHosts, LOOPBACK_HOSTS, controlTokenProblem, newControlToken } from './access';
import { ApiError, foreignRequest } from './http';
import { loadState, StateStore } from './persistence';
import type { RateLimit } from './rateLimit';
import { credentialKind, maskPath, newDraft } from './requestLog';
import type { RequestLog } from './requestLog';
import { builtInSeed, buildSeed, demoKeys } from './seed';
import type { SeedName, SeedSource } from './seed';
import { newPersistedState, PlatformService } from './service';
import { Snapshots, takeSnapshot } from './snapshots';
import type { SnapshotFile } from './snapshots';
import type { PersistedState } from './state';
import { ClientGone } from './wire';
import { serveControl, starting } from './routes/controls';
import { serveOperation } from './routes/operations';
import { Serving } from './routes/serving';

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


interface Door {
  s: Serving;
  o: EmulatorOptions;
  log: (line: string) => void;
  allowedHosts: string[];
  /** Known once listening; requests arrive only after that. */
  port: number;
}

/** Hands one request to its route: a control under /_emulator/, or else an operation. */
function onRequest(d: Door, req: IncomingMessage, res: ServerResponse): void {
  const { s } = d;
  const started = Date.now();
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q >= 0 ? url.slice(0, q) : url;
  const control = path.startsWith('/_emulator/');
  const draft = s.requestLog.enabled && !control ? newDraft(req.method ?? '', path, credentialKind(req.headers)) : undefined;
  if (d.o.logRequests) res.on('finish', () => d.log(`${req.method} ${maskPath(path, s.requestLog.secrets())} ${res.statusCode} ${Date.now() - started}ms`));
  const foreign = foreignRequest(req.headers, d.port, d.allowedHosts);
  if (foreign) {
    s.send(res, foreign.httpStatus, foreign.toWrapper(), { Connection: 'close' }, draft);
    return;
  }
  if (!control && !s.live.svc) {
    s.send(res, 503, starting().toWrapper(), { 'Retry-After': '1' }, draft);
    return;
  }
  const work = control
    ? serveControl(s, req, res, path.slice('/_emulator/'.length), new URLSearchParams(q >= 0 ? url.slice(q + 1) : ''))
    : serveOperation(s, req, res, path, draft);
  work.catch((e: unknown) => {
    if (e instanceof ClientGone) {
      s.dropped(draft);
      return;
    }
    d.log(`emulator error on ${req.method} ${path}: ${(e as Error).message}`);
    if (!res.headersSent && !res.destroyed) {
      s.send(res, 500, new ApiError(500, 'InternalServerError', 'The emulator hit an internal error; see its log.').toWrapper(), undefined, draft);
    } else {
      s.dropped(draft);
      res.destroy();
    }
  });
}

function listen(server: Server, port: number | undefined, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(e.code === 'EADDRINUSE'
      ? new Error(`Port ${port} on ${host} is in use by another program; choose another --port, or --port 0 for any free port.`)
      : e));
    server.listen(port ?? 0, host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
}

function closeServer(server: Server, sockets: Set<Socket>): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    for (const socket of sockets) socket.destroy();
  });
}

/** The state (loaded, or built from the seed), its store and the service over them. */
async function buildService(o: EmulatorOptions, seed: SeedSource, loaded: PersistedState | undefined, origin: string, log: (line: string) => void): Promise<{ service: PlatformService; store: StateStore }> {
  const state = loaded ?? newPersistedState(seed.name, await buildSeed(seed, o.fixedKeys ? demoKeys(true) : {}));
  // The service replaces its data on reset, so the store reads it back through the service.
  const store: StateStore = new StateStore(o.dataDir, () => service.state, log);
  await store.init();
  const service = new PlatformService(state, store, log);
  service.origin = origin;
  service.seedSource = seed;
  service.deletionDelayMs = o.deletionDelayMs ?? 5000;
  if (o.dataDir) log(loaded ? `state loaded from ${o.initialState ? 'the snapshot file' : o.dataDir}` : `state seeded (${seed.name}) in ${o.dataDir}`);
  if (!loaded || o.initialState) await service.persistNow();
  return { service, store };
}

/** The options checked and filled in; everything that can refuse the start without a port (a bad state file) does so here. */
function startSettings(o: EmulatorOptions) {
  const host = o.host ?? '127.0.0.1';
  const controlToken = o.controlToken ?? newControlToken();
  const tokenProblem = controlTokenProblem(controlToken);
  if (tokenProblem) throw new Error(tokenProblem);
  return {
    host,
    allowedHosts: checkedHosts(host, o.allowedHosts ?? []),
    controlToken,
    seed: typeof o.seed === 'object' ? o.seed : builtInSeed(o.seed ?? 'demo'),
    log: o.log ?? (() => undefined),
    loaded: o.initialState ?? (o.dataDir ? loadState(o.dataDir) : undefined),
  };
}

/** The origin clients use: bound to every interface, the first allowed name (the compose service name). */
function originOf(host: string, allowedHosts: readonly string[], tls: boolean, port: number): string {
  const shownHost = host === '0.0.0.0' || host === '::' ? allowedHosts[0] : host;
  return `${tls ? 'https' : 'http'}://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
}

export async function startEmulator(o: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const { host, allowedHosts, controlToken, seed, log, loaded } = startSettings(o);

  const s = new Serving({ controlToken, loopbackOnly: LOOPBACK_HOSTS.includes(host), faultSeed: o.faultSeed, rateLimit: o.rateLimit, requestLogSize: o.requestLogSize, onAnswer: o.onAnswer });
  const sockets = new Set<Socket>();
  const certificate = o.tls ? await (await import('./tls')).makeCertificate() : undefined;
  const door: Door = { s, o, log, allowedHosts, port: 0 };
  const handler = (req: IncomingMessage, res: ServerResponse): void => onRequest(door, req, res);
  const server = certificate ? createTlsServer({ cert: certificate.cert, key: certificate.key }, handler) : createServer(handler);
  server.on('secureConnection', () => s.stats.tlsHandshakes++);
  server.on('connection', (socket: Socket) => {
    if (o.unref) socket.unref();
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await listen(server, o.port, host);
  if (o.unref) server.unref();
  door.port = (server.address() as AddressInfo).port;
  const origin = originOf(host, allowedHosts, certificate !== undefined, door.port);
  o.onListening?.(origin);
  let built: { service: PlatformService; store: StateStore };
  try {
    built = await buildService(o, seed, loaded, origin, log);
    await o.beforeReady?.();
  } catch (e) {
    await closeServer(server, sockets);
    throw e;
  }
  const { service, store } = built;
  service.start();
  const { faults, stats, rateLimiter, requestLog } = s;
  s.live.svc = service;
  s.live.ctx = { service, faults, stats, rateLimiter, requestLog, snapshots: new Snapshots() };
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
        s.clearTimers();
        await closeServer(server, sockets);
        await service.settled();
        await store.close();
      })();
      return closing;
    },
  };
}
