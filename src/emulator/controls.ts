// Test controls under /_emulator/ (loopback clients only): reset and seed, outbox, jobs,
// clock, stats, faults, launcher tokens, add-on and launcher switches, token expiry; those of
// data-subject requests (players, events, exports) in dataControls.ts.
// Besides the agreed controls: DELETE titles/<titleId>/addons/<name> removes an add-on.

import { runDataControl } from './dataControls';
import { ApiError, FieldCheck, invalidParams } from './http';
import { Faults, parseFaults } from './faults';
import { mintLauncherToken } from './jwt';
import { defaultAddon, SEED_NAMES } from './seed';
import type { RateLimiter } from './rateLimit';
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

/** Runs one control; returns the JSON to answer with (status 200). */
export async function runControl(ctx: ControlContext, method: string, path: string, body: Json, query = new URLSearchParams()): Promise<unknown> {
  const { service, faults, stats, rateLimiter } = ctx;
  const route = `${method} ${path}`;
  switch (route) {
    case 'POST reset':
      faults.clear();
      stats.reset();
      rateLimiter?.reset();
      await service.reseed(service.state.seed);
      return { ok: true, seed: service.state.seed };
    case 'POST seed': {
      const seed = body.seed;
      if (typeof seed !== 'string' || !(SEED_NAMES as readonly string[]).includes(seed)) {
        throw invalidParams({ seed: [`seed must be one of ${SEED_NAMES.join(', ')}.`] });
      }
      faults.clear();
      stats.reset();
      await service.reseed(seed);
      return { ok: true, seed };
    }
    case 'GET outbox':
      return { messages: service.data.outbox };
    case 'GET jobs':
      return { jobs: service.jobsView() };
    case 'POST clock/advance': {
      const ms = body.ms;
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > MAX_CLOCK_ADVANCE_MS) {
        throw invalidParams({ ms: [`ms must be a number of milliseconds from 0 to ${MAX_CLOCK_ADVANCE_MS} (10 years).`] });
      }
      if (service.state.clockOffsetMs + ms > MAX_CLOCK_OFFSET_MS) {
        throw invalidParams({ ms: ['The clock is already 100 years ahead; POST /_emulator/reset to start again.'] });
      }
      const completed = await service.advanceClock(ms);
      return { now: new Date(service.now()).toISOString(), completedJobs: completed.jobs, completedExports: completed.exports };
    }
    case 'GET stats':
      return { requests: stats.requests, total: stats.total, tlsHandshakes: stats.tlsHandshakes, throttled: rateLimiter?.throttled ?? 0 };
    case 'POST stats/reset':
      stats.reset();
      if (rateLimiter) rateLimiter.throttled = 0;
      return { ok: true };
    case 'POST faults':
      faults.config = parseFaults(body);
      if (body.rateLimit !== undefined) rateLimiter?.configure(body.rateLimit);
      return { ok: true, ...faults.config, rateLimit: rateLimiter?.config ?? null };
    case 'POST faults/clear':
      faults.clear();
      rateLimiter?.configure(null);
      return { ok: true };
    case 'POST tokens/expire':
      service.expireAllTokens();
      return { ok: true };
    case 'POST launcher-token':
      return { IdentityToken: await mintToken(service, body) };
    case 'GET requests': {
      const limit = query.get('limit');
      if (limit !== null && !/^\d{1,6}$/.test(limit)) throw invalidParams({ limit: ['limit must be a whole number of entries.'] });
      try {
        const entries = ctx.requestLog.since(query.get('since'), limit === null ? undefined : Number(limit));
        return { entries, next: entries.length > 0 ? entries[entries.length - 1].seq : Math.max(0, ctx.requestLog.nextSeq - 1) };
      } catch (e) {
        throw invalidParams({ since: [(e as Error).message] });
      }
    }
    case 'POST requests/clear':
      ctx.requestLog.clear();
      return { ok: true };
    case 'GET snapshots':
      return { snapshots: ctx.snapshots.list() };
  }
  const snap = /^snapshots\/([^/]+)(\/restore)?$/.exec(path);
  if (snap && method === 'POST') {
    const name = snap[1];
    return { ok: true, ...(snap[2] ? await ctx.snapshots.restore(name, service) : ctx.snapshots.save(name, service)) };
  }
  const m = /^titles\/([^/]+)\/(addons\/([^/]+)|launcher)$/.exec(path);
  if ((method === 'POST' || (method === 'DELETE' && m?.[3])) && m) {
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
  const answer = await runDataControl(service, method, path, body, query);
  if (answer !== undefined) return answer;
  throw notFound(method, path);
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
