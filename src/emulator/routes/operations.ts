// The service's operations: POST /{titleId}/<Area>/<Operation>, or /<Area>/<Operation> when the
// Host's first label is a known title ID (as with the cloud's `https://{titleId}.<domain>`); both
// given must agree. Injected faults apply here, before and after the handler.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { operationAt, type OperationName } from '../../core/api/operations';
import type { FaultHit, FaultRule } from '../faults';
import { ApiError, isJsonContentType, success } from '../http';
import type { RequestDraft } from '../requestLog';
import type { PlatformService } from '../service';
import type { TitleState } from '../state';
import { drip, faultAnswer, hostTitleLabel, parseJsonBody, readBody } from '../wire';
import type { Serving } from './serving';

/** The fault kinds answered with a canned answer instead of the handler's. */
const CANNED_FAULTS: readonly string[] = ['429', '500', '503', 'garbage', 'html'];

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** One operation request, as the path and headers name it. */
interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  draft: RequestDraft | undefined;
  /** `<Area>/<Operation>` */
  op: string;
  name: OperationName;
  titleSegment: string | undefined;
  /** The title as the path or else the Host names it, as sent. */
  titleLabel: string | undefined;
  /** X-ReportErrorAsSuccess: true (every answer 200, the error in the body). */
  asSuccess: boolean;
}

function operationPath(path: string): { op?: string; titleSegment?: string } {
  const seg = path.split('/');
  if (seg.length === 4) return { titleSegment: seg[1], op: `${seg[2]}/${seg[3]}` };
  if (seg.length === 3) return { op: `${seg[1]}/${seg[2]}` };
  return {};
}

export function resolveTitle(svc: PlatformService, titleSegment: string | undefined, hostHeader: string | undefined): TitleState {
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

export async function serveOperation(s: Serving, req: IncomingMessage, res: ServerResponse, path: string, draft: RequestDraft | undefined): Promise<void> {
  const { op, titleSegment } = operationPath(path);
  const name = op === undefined ? undefined : operationAt(op);
  const titleLabel = titleSegment ?? hostTitleLabel(req.headers.host);
  if (draft) {
    draft.operation = name === undefined ? undefined : op;
    // Only a well-formed title ID is kept apart: the segment is whatever the caller sent (a key pasted there too).
    draft.titleId = titleLabel !== undefined && /^[0-9A-Fa-f]{4,16}$/.test(titleLabel) ? titleLabel.toUpperCase() : undefined;
  }
  if (req.method !== 'POST' || !op || name === undefined) {
    // As the service: a plain 404 with no service error name or code (a client then says to check the address).
    s.stats.count('unknown');
    s.send(res, 404, { code: 404, status: 'NotFound', errorMessage: `No API at ${req.method} ${path}; operations are POST /{titleId}/<Area>/<Operation>.` }, undefined, draft);
    return;
  }
  const asSuccess = String(req.headers['x-reporterrorassuccess'] ?? '').toLowerCase() === 'true';
  await serveCall(s, { req, res, draft, op, name, titleSegment, titleLabel, asSuccess });
}

async function serveCall(s: Serving, c: Call): Promise<void> {
  let hit: FaultHit | undefined;
  let answer: Answer;
  try {
    s.stats.count(c.op);
    hit = s.faults.take(c.op, c.draft?.titleId ?? c.titleLabel?.toUpperCase());
    if (c.draft && hit?.rule.kind) c.draft.fault = { kind: hit.rule.kind, rule: hit.index, faultSeed: s.faults.seed };
    const raw = await beforeHandler(s, c, hit);
    if (raw === undefined) return;
    answer = { status: 200, body: await runHandler(s, c, raw) };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const headers = e.retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(Math.ceil(e.retryAfterSeconds)) };
    answer = { status: e.httpStatus, body: e.toWrapper(), headers };
  }
  answerCall(s, c, hit, answer);
}

/** Waits, drops or answers as the fault says; the request body, or undefined when the fault answered. */
async function beforeHandler(s: Serving, c: Call, hit: FaultHit | undefined): Promise<Buffer | undefined> {
  const wait = s.faults.config.latencyMs + (hit?.latencyMs ?? 0);
  if (wait > 0) await s.sleep(wait);
  const kind = hit?.rule.kind;
  if (kind === 'reset-before') {
    s.dropped(c.draft);
    c.req.socket.destroy();
    return undefined;
  }
  const raw = await readBody(c.req);
  if (c.draft) c.draft.request = raw;
  if (kind === 'timeout') {
    // Never answered; close() or the client ends it.
    const { draft } = c;
    if (draft) c.res.once('close', () => s.dropped(draft));
    return undefined;
  }
  if (kind && CANNED_FAULTS.includes(kind)) {
    sendFault(s, c, hit!.rule);
    return undefined;
  }
  return raw;
}

function sendFault(s: Serving, c: Call, fault: FaultRule): void {
  const f = faultAnswer(fault);
  const code = c.asSuccess && f.status >= 400 && fault.kind !== 'html' ? 200 : f.status;
  if (!c.res.destroyed) {
    c.res.writeHead(code, { ...f.headers, 'Content-Length': String(Buffer.byteLength(f.body)) });
    c.res.end(f.body);
    if (c.draft) c.draft.response = f.body;
  }
  if (c.draft) s.requestLog.add(c.draft, c.res.headersSent ? code : 0);
}

async function runHandler(s: Serving, c: Call, raw: Buffer): Promise<unknown> {
  s.rateLimiter.take((c.titleLabel ?? '').toUpperCase(), c.op);
  const svc = s.live.svc!;
  const title = resolveTitle(svc, c.titleSegment, c.req.headers.host);
  if (!isJsonContentType(c.req.headers['content-type'])) {
    throw new ApiError(400, 'InvalidContentType', 'The request Content-Type must be application/json.');
  }
  return success(await svc.handle(c.name, title, c.req.headers, parseJsonBody(raw)));
}

function answerCall(s: Serving, c: Call, hit: FaultHit | undefined, answer: Answer): void {
  if (hit?.rule.kind === 'reset-after') {
    s.dropped(c.draft);
    c.req.socket.destroy();
    return;
  }
  const httpStatus = c.asSuccess ? 200 : answer.status;
  s.o.onAnswer?.(c.op, answer.status, answer.body);
  if (hit?.rule.kind === 'drip') {
    const text = JSON.stringify(answer.body);
    if (c.draft) c.draft.response = text;
    drip(c.res, httpStatus, text, s.timers);
    if (c.draft) s.requestLog.add(c.draft, httpStatus);
  } else s.send(c.res, httpStatus, answer.body, answer.headers, c.draft);
}
