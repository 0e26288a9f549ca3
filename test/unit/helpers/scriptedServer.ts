// A small HTTP server on 127.0.0.1 that answers each route from a script, for client tests.
// Answers per route are queued (used once each, in order), then fall back to the route's default.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedRequest {
  method: string;
  /** Path after the title prefix, e.g. `Server/GetPlatformIDsFromStorefrontNames`. */
  route: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

export interface ScriptedReply {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Wait this long before answering. */
  delayMs?: number;
  /**
   * reset: destroy the socket without answering; hang: never answer (for time-outs);
   * truncate: announce the full length, send half the body, then destroy the socket.
   */
  action?: 'reset' | 'hang' | 'truncate';
}

export type Reply = ScriptedReply | ((req: ScriptedRequest) => ScriptedReply);

export interface ScriptedServer {
  origin: string;
  /** Endpoint template with the title in the path, as the client takes it. */
  endpoint: string;
  requests: ScriptedRequest[];
  /** The most requests that were open at the same time. */
  maxInFlight(): number;
  /** Requests received for one route. */
  count(route: string): number;
  /** Queue answers for a route, used once each in order. */
  queue(route: string, ...replies: Reply[]): void;
  /** The answer for a route once its queue is empty. */
  setDefault(route: string, reply: Reply): void;
  close(): Promise<void>;
}

export function ok(data: unknown): ScriptedReply {
  return { status: 200, body: { code: 200, status: 'OK', data } };
}

export function fail(status: number, error: string, errorCode: number, extra: Record<string, unknown> = {}): ScriptedReply {
  return { status, body: { code: status, status: 'Error', error, errorCode, errorMessage: `${error} happened`, ...extra } };
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  const queues = new Map<string, Reply[]>();
  const defaults = new Map<string, Reply>();
  const requests: ScriptedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      // `/<titleId>/<Area>/<Operation>`: the route is everything after the title segment.
      const route = (req.url ?? '').split('?')[0].split('/').slice(2).join('/');
      const sreq: ScriptedRequest = { method: req.method ?? '', route, url: req.url ?? '', headers: req.headers, body, json };
      requests.push(sreq);
      const queued = queues.get(route)?.shift();
      const reply = queued ?? defaults.get(route) ?? { status: 404, body: { code: 404, status: 'NotFound', error: 'NotFound', errorCode: 1071, errorMessage: 'no such route' } };
      const r = typeof reply === 'function' ? reply(sreq) : reply;
      const answer = (): void => {
        if (r.action === 'hang') {
          return;
        }
        if (r.action === 'reset') {
          req.socket.destroy();
          return;
        }
        const text = typeof r.body === 'string' ? r.body : r.body === undefined ? '' : JSON.stringify(r.body);
        const buf = Buffer.from(text, 'utf8');
        res.writeHead(r.status ?? 200, { 'content-type': 'application/json', 'content-length': String(buf.length), ...r.headers });
        if (r.action === 'truncate') {
          res.write(buf.subarray(0, Math.floor(buf.length / 2)), () => req.socket.destroy());
          return;
        }
        res.end(buf);
      };
      if (r.delayMs !== undefined && r.delayMs > 0) {
        const t = setTimeout(() => {
          timers.delete(t);
          answer();
        }, r.delayMs);
        timers.add(t);
      } else {
        answer();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    endpoint: `${origin}/{titleId}`,
    requests,
    maxInFlight: () => maxInFlight,
    count: (route) => requests.filter((r) => r.route === route).length,
    queue: (route, ...replies) => queues.set(route, [...(queues.get(route) ?? []), ...replies]),
    setDefault: (route, reply) => defaults.set(route, reply),
    close: async () => {
      for (const t of timers) {
        clearTimeout(t);
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
