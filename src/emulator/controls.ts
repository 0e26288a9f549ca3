// Test controls under /_emulator/ (loopback clients only): reset and seed, outbox, jobs,
// clock, stats, faults, launcher tokens, add-on and launcher switches, token expiry; those of
// data-subject requests (players, events, exports) in dataControls.ts.
// Besides the agreed controls: DELETE titles/<titleId>/addons/<name> removes an add-on.

import { DATA_CONTROL_ROUTES } from './dataControls';
import { ApiError, FieldCheck, invalidParams } from './http';
import { Faults, parseFaults } from './faults';
import { mintLauncherToken } from './jwt';
import { defaultAddon, SEED_NAMES } from './seed';
import type { RateLimiter } from './rateLimit';
import { requestFilter } from './requestLog';
import type { RequestLog } from './requestLog';
import type { Snapshots } from './snapshots';
import type { PlatformService } from './service';
import { ADDON_NAMES } from './state';
import type { AddonName } from './state';

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
/** Bounds on control values: dates beyond them stop being representable and break every answer. */
const MAX_CLOCK_ADVANCE_MS = 10 * YEAR_MS;
const MAX_CLOCK_OFFSET_MS = 100 * YEAR_MS;
const MAX_TOKEN_SECONDS = 10 * 365 * 24 * 60 * 60;

export class Stats {
  requests: Record<string, number> = {};
  total = 0;
  /** TLS handshakes completed (with --tls): one per connection when keep-alive works. */
  tlsHandshakes = 0;

  count(operation: string): void {
    this.requests[operation] = (this.requests[operation] ?? 0) + 1;
    this.total++;
  }

  reset(): void {
    this.requests = {};
    this.total = 0;
    this.tlsHandshakes = 0;
  }
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

export interface ControlContext {
  service: PlatformService;
  faults: Faults;
  stats: Stats;
  rateLimiter?: RateLimiter;
  requestLog: RequestLog;
  snapshots: Snapshots;
}

type Json = Record<string, unknown>;

function notFound(method: string, path: string): ApiError {
  return new ApiError(404, 'InvalidRequest', `No emulator control ${method} /_emulator/${path}.`);
}

interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** The path under /_emulator/, whole. */
  pattern: RegExp;
  /** A path of this route, for tests that call every route. */
  example: string;
  /** Answered without the control token: readiness, and download links (bearer links of their own). */
  open?: true;
  /** Undefined for the two the server answers itself (ready, requests/stream). */
  run?: (ctx: ControlContext, m: RegExpExecArray, body: Json, query: URLSearchParams) => Promise<unknown> | unknown;
}

const route = (method: Route['method'], path: string, run?: Route['run'], example = path): Route =>
  ({ method, pattern: new RegExp(`^${path}$`), example, run });

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
  { ...route('GET', 'ready'), open: true },
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
  ...DATA_CONTROL_ROUTES.map((r) => ({ ...route(r.method, r.path, (ctx: ControlContext, m: RegExpExecArray, body: Json, query: URLSearchParams) => r.run(ctx.service, m, body, query), r.example), ...(r.open ? { open: true as const } : {}) })),
];

/** The route of `method path`, or undefined. */
export function controlRoute(method: string, path: string): { route: Route; match: RegExpExecArray } | undefined {
  for (const r of CONTROL_ROUTES) {
    if (r.method !== method) continue;
    const match = r.pattern.exec(path);
    if (match) return { route: r, match };
  }
  return undefined;
}

/** Runs one control; returns the JSON to answer with (status 200). */
export async function runControl(ctx: ControlContext, method: string, path: string, body: Json, query = new URLSearchParams()): Promise<unknown> {
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
