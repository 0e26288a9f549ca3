// One control route under /_emulator/: its method, path pattern and handler. The route modules
// (controls.ts, data.ts, events.ts, exports.ts) each export a table of these; controls.ts joins them.

import type { Faults } from '../faults';
import type { RateLimiter } from '../rateLimit';
import type { RequestLog } from '../requestLog';
import type { PlatformService } from '../service';
import type { Snapshots } from '../snapshots';

export type Json = Record<string, unknown>;

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

/** What a control handler works on: the live service and the run's own parts. */
export interface ControlContext {
  service: PlatformService;
  faults: Faults;
  stats: Stats;
  rateLimiter?: RateLimiter;
  requestLog: RequestLog;
  snapshots: Snapshots;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** The path under /_emulator/, whole. */
  pattern: RegExp;
  /** A path of this route, for tests that call every route. */
  example: string;
  /** Answered without the control token: readiness, and download links (bearer links of their own). */
  open?: true;
  /** Undefined for the two the control door answers itself (ready, requests/stream). */
  run?: (ctx: ControlContext, m: RegExpExecArray, body: Json, query: URLSearchParams) => Promise<unknown> | unknown;
}

export const route = (method: Route['method'], path: string, run?: Route['run'], example = path): Route =>
  ({ method, pattern: new RegExp(`^${path}$`), example, run });

/** A route answered without the control token. */
export const openRoute = (r: Route): Route => ({ ...r, open: true });
