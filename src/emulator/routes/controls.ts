// Test controls under /_emulator/ (loopback clients only unless bound elsewhere; the control
// token): reset and seed, outbox, jobs, clock, stats, faults, launcher tokens, add-on and launcher
// switches, token expiry; those of data-subject requests in data.ts, events.ts and exports.ts.
// serveControl is the door: loopback peer, token, content type, then the route's handler.
// Besides the agreed controls: DELETE titles/<titleId>/addons/<name> removes an add-on.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONTROL_TOKEN_ENV, hasControlToken, isLoopbackAddress } from '../access';
import { header } from '../credentials';
import { parseFaults } from '../faults';
import { ApiError, FieldCheck, invalidParams, isJsonContentType } from '../http';
import { mintLauncherToken } from '../jwt';
import { requestFilter } from '../requestLog';
import { defaultAddon, SEED_NAMES } from '../seed';
import type { PlatformService } from '../service';
import { ADDON_NAMES } from '../state';
import type { AddonName } from '../state';
import { parseJsonBody, readBody } from '../wire';
import { DATA_ROUTES } from './data';
import { EVENT_ROUTES } from './events';
import { EXPORT_ROUTES } from './exports';
import { openRoute, route, type ControlContext, type Json, type Route } from './route';
import type { Serving } from './serving';

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
/** Bounds on control values: dates beyond them stop being representable and break every answer. */
const MAX_CLOCK_ADVANCE_MS = 10 * YEAR_MS;
const MAX_CLOCK_OFFSET_MS = 100 * YEAR_MS;
const MAX_TOKEN_SECONDS = 10 * 365 * 24 * 60 * 60;

function notFound(method: string, path: string): ApiError {
  return new ApiError(404, 'InvalidRequest', `No emulator control ${method} /_emulator/${path}.`);
}

async function reseed(ctx: ControlContext, seed: string): Promise<unknown> {
  ctx.faults.clear();
  ctx.stats.reset();
  ctx.rateLimiter?.reset();
  await ctx.service.reseed(seed);
  return { ok: true, seed };
}

function advanceClock(ctx: ControlContext, body: Json): Promise<unknown> {
  const { service } = ctx;
  const ms = body.ms;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > MAX_CLOCK_ADVANCE_MS) {
    throw invalidParams({ ms: [`ms must be a number of milliseconds from 0 to ${MAX_CLOCK_ADVANCE_MS} (10 years).`] });
  }
  if (service.state.clockOffsetMs + ms > MAX_CLOCK_OFFSET_MS) {
    throw invalidParams({ ms: ['The clock is already 100 years ahead; POST /_emulator/reset to start again.'] });
  }
  return service.advanceClock(ms).then((completed) =>
    ({ now: new Date(service.now()).toISOString(), completedJobs: completed.jobs, completedExports: completed.exports }));
}

function readRequests(ctx: ControlContext, query: URLSearchParams): unknown {
  const limit = query.get('limit');
  if (limit !== null && !/^\d{1,6}$/.test(limit)) throw invalidParams({ limit: ['limit must be a whole number of entries.'] });
  const filter = requestFilter(query);
  try {
    const entries = ctx.requestLog.since(query.get('since'), limit === null ? undefined : Number(limit), filter);
    return { entries, next: entries.length > 0 ? entries[entries.length - 1].seq : Math.max(0, ctx.requestLog.nextSeq - 1) };
  } catch (e) {
    throw invalidParams({ since: [(e as Error).message] });
  }
}

async function titleSwitch(ctx: ControlContext, method: string, m: RegExpExecArray, body: Json): Promise<unknown> {
  const { service } = ctx;
  const title = service.data.titles[m[1].toUpperCase()];
  if (!title) throw invalidParams({ titleId: [`Unknown title ${m[1]}.`] });
  if (m[2] === 'launcher') {
    if (typeof body.enabled !== 'boolean') throw invalidParams({ enabled: ['enabled must be true or false.'] });
    title.launcher.enabled = body.enabled;
    await service.persistNow();
    return { ok: true, titleId: title.titleId, enabled: body.enabled };
  }
  const name = m[3] as AddonName;
  if (!ADDON_NAMES.includes(name)) throw invalidParams({ addon: [`addon must be one of ${ADDON_NAMES.join(', ')}.`] });
  // DELETE removes any add-on (HandheldStore has no delete operation) for Created:false tests.
  (title.addons as Record<AddonName, unknown>)[name] = method === 'DELETE' ? null : defaultAddon(title.titleId, name);
  await service.persistNow();
  return { ok: true, titleId: title.titleId, addon: name, present: method !== 'DELETE' };
}

/** Every control under /_emulator/: the server dispatches from here, and the tests call each one. */
export const CONTROL_ROUTES: readonly Route[] = [
  openRoute(route('GET', 'ready')),
  route('GET', 'requests/stream'),
  route('POST', 'reset', (ctx) => reseed(ctx, ctx.service.state.seed)),
  route('POST', 'seed', (ctx, _m, body) => {
    const seed = body.seed;
    if (typeof seed !== 'string' || !(SEED_NAMES as readonly string[]).includes(seed)) {
      throw invalidParams({ seed: [`seed must be one of ${SEED_NAMES.join(', ')}.`] });
    }
    return reseed(ctx, seed);
  }),
  route('GET', 'outbox', (ctx) => ({ messages: ctx.service.data.outbox })),
  route('GET', 'jobs', (ctx) => ({ jobs: ctx.service.jobsView() })),
  route('POST', 'clock/advance', (ctx, _m, body) => advanceClock(ctx, body)),
  route('GET', 'stats', ({ stats, rateLimiter }) =>
    ({ requests: stats.requests, total: stats.total, tlsHandshakes: stats.tlsHandshakes, throttled: rateLimiter?.throttled ?? 0 })),
  route('POST', 'stats/reset', ({ stats, rateLimiter }) => {
    stats.reset();
    if (rateLimiter) rateLimiter.throttled = 0;
    return { ok: true };
  }),
  route('POST', 'faults', ({ faults, rateLimiter }, _m, body) => {
    faults.configure(parseFaults(body));
    if (body.rateLimit !== undefined) rateLimiter?.configure(body.rateLimit);
    return { ok: true, ...faults.config, seed: faults.seed, rateLimit: rateLimiter?.config ?? null };
  }),
  route('POST', 'faults/clear', ({ faults, rateLimiter }) => {
    faults.clear();
    rateLimiter?.configure(null);
    return { ok: true };
  }),
  route('POST', 'tokens/expire', ({ service }) => {
    service.expireAllTokens();
    return { ok: true };
  }),
  route('POST', 'launcher-token', async ({ service }, _m, body) => ({ IdentityToken: await mintToken(service, body) })),
  route('GET', 'requests', (ctx, _m, _b, query) => readRequests(ctx, query)),
  route('POST', 'requests/clear', ({ requestLog }) => {
    requestLog.clear();
    return { ok: true };
  }),
  route('GET', 'snapshots', ({ snapshots }) => ({ snapshots: snapshots.list() })),
  route('POST', 'snapshots/([^/]+)', ({ snapshots, service }, m) => ({ ok: true, ...snapshots.save(m[1], service) }), 'snapshots/s1'),
  route('POST', 'snapshots/([^/]+)/restore', async ({ snapshots, service }, m) => ({ ok: true, ...(await snapshots.restore(m[1], service)) }), 'snapshots/s1/restore'),
  route('POST', 'titles/([^/]+)/(launcher)', (ctx, m, body) => titleSwitch(ctx, 'POST', m, body), 'titles/F71AC/launcher'),
  route('POST', 'titles/([^/]+)/(addons/([^/]+))', (ctx, m, body) => titleSwitch(ctx, 'POST', m, body), 'titles/F71AC/addons/HandheldStore'),
  route('DELETE', 'titles/([^/]+)/(addons/([^/]+))', (ctx, m, body) => titleSwitch(ctx, 'DELETE', m, body), 'titles/F71AC/addons/HandheldStore'),
  ...DATA_ROUTES,
  ...EVENT_ROUTES,
  ...EXPORT_ROUTES,
];

/** The route of `method path`, or undefined. */
function controlRoute(method: string, path: string): { route: Route; match: RegExpExecArray } | undefined {
  for (const r of CONTROL_ROUTES) {
    if (r.method !== method) continue;
    const match = r.pattern.exec(path);
    if (match) return { route: r, match };
  }
  return undefined;
}

/** Runs one control; returns the JSON to answer with (status 200). */
async function runControl(ctx: ControlContext, method: string, path: string, body: Json, query = new URLSearchParams()): Promise<unknown> {
  const found = controlRoute(method, path);
  if (!found?.route.run) throw notFound(method, path);
  return found.route.run(ctx, found.match, body, query);
}

async function mintToken(service: PlatformService, body: Json): Promise<string> {
  const check = new FieldCheck();
  const titleId = check.string(body, 'titleId', true);
  const subject = check.string(body, 'subject', true);
  const issuer = check.string(body, 'issuer', false);
  const audience = check.string(body, 'audience', false);
  const wrongKey = check.bool(body, 'wrongKey');
  for (const f of ['expiresInSeconds', 'notBefore']) {
    const v = body[f];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > MAX_TOKEN_SECONDS)) {
      check.add(f, `${f} must be a number of seconds (relative to now) within ±${MAX_TOKEN_SECONDS}.`);
    }
  }
  check.done();
  const title = service.data.titles[titleId!.toUpperCase()];
  if (!title) throw invalidParams({ titleId: [`Unknown title ${titleId}.`] });
  return mintLauncherToken(title.launcher, service.keyCache, {
    subject: subject!,
    nowMs: service.now(),
    expiresInSeconds: body.expiresInSeconds as number | undefined,
    notBefore: body.notBefore as number | undefined,
    issuer,
    audience,
    wrongKey,
  });
}

/** The answer to a request before the service is built. */
export function starting(): ApiError {
  return new ApiError(503, 'ServiceUnavailable', 'The emulator is starting; wait until GET /_emulator/ready answers 200.');
}

/** Why the control door refuses this request (status, answer, headers), or undefined to go on. */
function refusal(s: Serving, req: IncomingMessage, path: string): { status: number; error: ApiError; headers?: Record<string, string> } | undefined {
  // On loopback, controls answer loopback peers only; bound to another address (a container), the token alone decides.
  if (s.o.loopbackOnly && !isLoopbackAddress(req.socket.remoteAddress)) {
    return { status: 403, error: new ApiError(403, 'NotAuthorized', 'Emulator controls answer loopback clients only.') };
  }
  const found = controlRoute(req.method ?? 'GET', path)?.route;
  if (!found?.open && !hasControlToken(req.headers.authorization, s.o.controlToken)) {
    const error = new ApiError(401, 'NotAuthenticated', `Emulator controls need the header "Authorization: Bearer <control token>": the controlToken of the --json line or of the API, or the one set with ${CONTROL_TOKEN_ENV}.`);
    return { status: 401, error, headers: { 'WWW-Authenticate': 'Bearer' } };
  }
  // A plain text/plain form post needs no CORS preflight: controls that change state take JSON only.
  if (req.method !== 'GET' && !isJsonContentType(req.headers['content-type'])) {
    return { status: 415, error: new ApiError(415, 'InvalidContentType', 'Emulator controls take Content-Type: application/json.') };
  }
  return undefined;
}

/** Answers GET /_emulator/<path>?<query> and the other control requests. */
export async function serveControl(s: Serving, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<void> {
  const refused = refusal(s, req, path);
  if (refused) {
    s.send(res, refused.status, refused.error.toWrapper(), refused.headers);
    return;
  }
  if (path === 'ready' && req.method === 'GET') {
    const { svc } = s.live;
    s.send(res, svc ? 200 : 503, { ready: svc !== undefined, titles: svc ? Object.keys(svc.data.titles) : [] }, svc ? undefined : { 'Retry-After': '1' });
    return;
  }
  const { ctx } = s.live;
  if (!ctx) {
    s.send(res, 503, starting().toWrapper(), { 'Retry-After': '1' });
    return;
  }
  if (path === 'requests/stream' && req.method === 'GET') {
    s.requestLog.stream(res, query.get('since') ?? (header(req.headers, 'last-event-id') || null));
    return;
  }
  try {
    const body = parseJsonBody(await readBody(req), true);
    s.send(res, 200, await runControl(ctx, req.method ?? 'GET', path, body, query));
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    s.send(res, e.httpStatus, e.toWrapper());
  }
}
