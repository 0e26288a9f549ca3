// The request log: every service request (not the /_emulator/ controls) with its time, operation,
// title, credential kind (never its value), status, error, duration and both bodies. Kept raw in a
// bounded ring (the hot path only appends) and masked when read: secret-named members, the titles'
// keys, tokens and JWTs become "***" before anything leaves the process.
import type { ServerResponse } from 'node:http';
import { redactText } from '../core/redact';
import type { CredentialKind, RequestEntry, RequestFilter } from '../../packages/emulator/index';
import { invalidParams } from './http';

export type { CredentialKind };

/** One request as the server serves it, then as kept (all members set at creation: one object shape). */
export interface RequestDraft {
  started: number;
  method: string;
  path: string;
  operation: string | undefined;
  titleId: string | undefined;
  credential: CredentialKind;
  request: Buffer | undefined;
  response: string | undefined;
  /** The fault rule that hit it (its index as configured). */
  fault: { kind: string; rule: number; faultSeed: number } | undefined;
  /** Set once logged: each request is logged exactly once, whichever way it ended. */
  logged: boolean;
  seq: number;
  status: number;
  durationMs: number;
}

/** A new draft of a request that arrived now. */
export function newDraft(method: string, path: string, credential: CredentialKind): RequestDraft {
  return { started: Date.now(), method, path, operation: undefined, titleId: undefined, credential, request: undefined, response: undefined, fault: undefined, logged: false, seq: 0, status: 0, durationMs: 0 };
}

type Stored = RequestDraft;

/** One entry as served: bodies masked, parsed when they are JSON (the package's declared RequestEntry). */
export type RequestLogEntry = RequestEntry;

export const DEFAULT_REQUEST_LOG_SIZE = 10_000;
/** Past this many bytes of bodies the oldest entries go too, whatever the entry count. */
const MAX_LOG_BYTES = 64 * 1024 * 1024;
/** Bodies are clipped to this many characters in an entry. */
const MAX_BODY_CHARS = 64 * 1024;
/** A stream whose reader falls this far behind is ended (it can reconnect with Last-Event-ID). */
const MAX_STREAM_BACKLOG = 4 * 1024 * 1024;
const SECRET_MEMBER = /secret|password|ticket|token(?!expiration)|^x-?authorization$/i;
/** Runs of token characters; each run is judged on its own (linear: no pattern backtracks across a run). */
const RUN = /[\w.-]+/g;

export class RequestLog {
  /** A circular buffer: `count` entries from `head`, oldest first. */
  private ring: (Stored | undefined)[] = [];
  private head = 0;
  private count = 0;
  private bytes = 0;
  private next = 1;
  private readonly streams = new Set<ServerResponse>();

  /** `secrets()`: values masked wherever they appear (the titles' secret keys). */
  constructor(readonly capacity: number, readonly secrets: () => readonly string[], private readonly faultSeed: () => number = () => 0) {}

  get enabled(): boolean {
    return this.capacity > 0;
  }

  /** The sequence number the next entry gets. */
  get nextSeq(): number {
    return this.next;
  }

  /** Logs a request as answered with `status` (0: no answer: the connection was reset or closed). */
  add(d: RequestDraft, status: number): void {
    if (d.logged) return;
    d.logged = true;
    const e: Stored = d;
    e.seq = this.next++;
    e.status = status;
    e.durationMs = Date.now() - d.started;
    const size = (d.request?.length ?? 0) + (d.response?.length ?? 0);
    while (this.count > 0 && (this.count >= this.capacity || this.bytes + size > MAX_LOG_BYTES)) this.dropOldest();
    this.ring[(this.head + this.count) % this.capacity] = e;
    this.count++;
    this.bytes += size;
    if (this.streams.size > 0) {
      const frame = sseFrame(this.view(e));
      for (const res of this.streams) this.write(res, frame);
    }
  }

  private dropOldest(): void {
    const old = this.ring[this.head]!;
    this.bytes -= (old.request?.length ?? 0) + (old.response?.length ?? 0);
    this.ring[this.head] = undefined;
    this.head = (this.head + 1) % this.capacity;
    this.count--;
  }

  private stored(): Stored[] {
    const out: Stored[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.ring[(this.head + i) % this.capacity]!);
    return out;
  }

  /** Entries after `since` (a sequence number, or an ISO time: those at or after it) that match `filter`. */
  since(since: string | null, limit = this.capacity, filter: RequestFilter = {}): RequestLogEntry[] {
    let from = this.stored().filter((e) => matchesFilter(e, filter));
    if (since !== null && since !== '') {
      if (/^\d+$/.test(since)) from = from.filter((e) => e.seq > Number(since));
      else {
        const t = Date.parse(since);
        if (!Number.isFinite(t)) throw new Error(`since must be a sequence number or an ISO time, not ${JSON.stringify(since.slice(0, 40))}`);
        from = from.filter((e) => e.started >= t);
      }
    }
    return from.slice(0, limit).map((e) => this.view(e));
  }

  /** Server-sent events: the entries after `since`, then each new one as it is logged. */
  stream(res: ServerResponse, since: string | null): void {
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
    res.write(': platform-emulator request log\n\n');
    for (const e of this.since(since)) this.write(res, sseFrame(e));
    this.streams.add(res);
    res.on('close', () => this.streams.delete(res));
  }

  clear(): void {
    this.ring = [];
    this.head = 0;
    this.count = 0;
    this.bytes = 0;
  }

  close(): void {
    for (const res of this.streams) res.end();
    this.streams.clear();
  }

  private write(res: ServerResponse, frame: string): void {
    if (res.writableLength > MAX_STREAM_BACKLOG) {
      this.streams.delete(res);
      res.end();
      return;
    }
    res.write(frame);
  }

  private view(e: Stored): RequestLogEntry {
    const secrets = this.secrets();
    const response = maskBody(e.response, secrets);
    const err = response && typeof response === 'object' && !Array.isArray(response) ? (response as Record<string, unknown>) : {};
    return {
      seq: e.seq,
      time: new Date(e.started).toISOString(),
      method: e.method,
      path: maskPath(e.path, secrets),
      operation: e.operation ?? null,
      titleId: e.titleId ?? null,
      credential: e.credential,
      status: e.status,
      error: typeof err.error === 'string' ? err.error : null,
      errorCode: typeof err.errorCode === 'number' ? err.errorCode : null,
      durationMs: e.durationMs,
      fault: e.fault ?? null,
      faultSeed: this.faultSeed(),
      request: maskBody(e.request?.toString('utf8'), secrets),
      response,
    };
  }
}

/** Which entries a reader wants (GET /_emulator/requests?operation=&titleId=&status=, the API's requests(filter)). */
export type { RequestFilter };

function matchesFilter(e: Stored, f: RequestFilter): boolean {
  return (f.operation === undefined || e.operation === f.operation)
    && (f.titleId === undefined || e.titleId === f.titleId.toUpperCase())
    && (f.status === undefined || e.status === f.status);
}

/** The filter in a query string; throws naming the member when one is malformed. */
export function requestFilter(q: URLSearchParams): RequestFilter {
  const f: RequestFilter = {};
  const operation = q.get('operation');
  const titleId = q.get('titleId');
  const status = q.get('status');
  if (operation !== null) f.operation = operation;
  if (titleId !== null) f.titleId = titleId;
  if (status !== null) {
    if (!/^\d{1,3}$/.test(status)) throw invalidParams({ status: ['status must be an HTTP status (0 for none).'] });
    f.status = Number(status);
  }
  return f;
}

function sseFrame(e: RequestLogEntry): string {
  return `id: ${e.seq}\nevent: request\ndata: ${JSON.stringify(e)}\n\n`;
}

/** The kind of the first credential header present, in the order the service checks them. */
export function credentialKind(headers: Record<string, string | string[] | undefined>): CredentialKind {
  if (headers['x-secretkey']) return 'secretKey';
  if (headers['x-entitytoken']) return 'entityToken';
  if (headers['x-authorization']) return 'sessionTicket';
  return 'none';
}

/**
 * Text with every known secret and key-shaped value masked by core/redact's rules (auth header
 * values, JWTs, long random runs, the titles' keys), then the emulator's own tokens (claims, then
 * a 43-character signature), whatever member or path they came in.
 */
function maskText(text: string, secrets: readonly string[]): string {
  return redactText(text, secrets, Number.MAX_SAFE_INTEGER).replace(RUN, (run) => (looksLikeToken(run) ? '***' : run));
}

/** A path masked segment by segment ("/" is in the base64 alphabet: the whole path would read as one run). */
export function maskPath(path: string, secrets: readonly string[]): string {
  return path.split('/').map((segment) => maskText(segment, secrets)).join('/');
}

/** A JWT (a segment starting eyJ) or one of the emulator's tokens (claims, then a 43-character signature). */
function looksLikeToken(run: string): boolean {
  if (run.length < 20 || !run.includes('.')) return false;
  const parts = run.split('.');
  for (let i = 0; i < parts.length; i++) {
    if (parts[i].startsWith('eyJ') && i + 1 < parts.length) return true;
    if (i > 0 && parts[i].length === 43 && parts[i - 1].length >= 20) return true;
  }
  return false;
}

function maskValue(v: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof v === 'string') return maskText(v, secrets);
  if (depth > 64 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => maskValue(x, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    out[k] = SECRET_MEMBER.test(k) && (typeof x === 'string' || typeof x === 'number') ? '***' : maskValue(x, secrets, depth + 1);
  }
  return out;
}

/** A body as an entry shows it: JSON parsed and masked member by member; other text masked and clipped. */
export function maskBody(text: string | undefined, secrets: readonly string[]): unknown {
  if (text === undefined || text === '') return null;
  try {
    return maskValue(JSON.parse(text), secrets, 0);
  } catch { /* not JSON: shown as masked text */ }
  // Masked before clipping, so no secret is cut in two and shown in part.
  const masked = maskText(text, secrets);
  return masked.length > MAX_BODY_CHARS ? `${masked.slice(0, MAX_BODY_CHARS)}… (${masked.length - MAX_BODY_CHARS} more characters)` : masked;
}
