// What every route of one run shares: the request log, faults, counters, the live service once
// built, the timers a close clears, and `send` (answer JSON and log the request).

import type { ServerResponse } from 'node:http';
import { sendJson } from '../http';
import { Faults } from '../faults';
import { RateLimiter, type RateLimit } from '../rateLimit';
import { DEFAULT_REQUEST_LOG_SIZE, RequestLog, type RequestDraft } from '../requestLog';
import type { PlatformService } from '../service';
import type { ControlContext } from './route';
import { Stats } from './route';

export interface ServingOptions {
  controlToken: string;
  /** Controls answer loopback peers only (the emulator is bound to a loopback address). */
  loopbackOnly: boolean;
  faultSeed?: number;
  /** Entries the request log keeps (default 10,000); 0 turns it off. */
  requestLogSize?: number;
  rateLimit?: RateLimit;
  /** Sees every operation's answer envelope as sent (the contract tests check each one). */
  onAnswer?: (operation: string, httpStatus: number, body: unknown) => void;
}

export class Serving {
  readonly faults: Faults;
  readonly stats = new Stats();
  readonly rateLimiter: RateLimiter;
  readonly timers = new Set<NodeJS.Timeout>();
  /** Set once every title accepts requests (GET /_emulator/ready answers 200 from then on). */
  readonly live: { svc?: PlatformService; ctx?: ControlContext } = {};
  readonly requestLog: RequestLog;

  constructor(readonly o: ServingOptions) {
    this.faults = new Faults(o.faultSeed);
    this.rateLimiter = new RateLimiter(o.rateLimit);
    this.requestLog = new RequestLog(o.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE, () => this.secrets(), () => this.faults.seed);
  }

  /** The keys the request log masks besides key-shaped values: the control token and every title's key. */
  secrets(): string[] {
    const { svc } = this.live;
    return [this.o.controlToken, ...(svc ? Object.values(svc.data.titles).map((t) => t.secretKey) : [])];
  }

  send(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>, draft?: RequestDraft): void {
    if (res.destroyed || res.headersSent) {
      if (draft) this.requestLog.add(draft, 0);
      return;
    }
    const text = sendJson(res, status, body, headers);
    if (draft) {
      draft.response = text;
      this.requestLog.add(draft, status);
    }
  }

  /** Logs `draft` as never answered (status 0), when there is one. */
  dropped(draft: RequestDraft | undefined): void {
    if (draft) this.requestLog.add(draft, 0);
  }

  sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const t = setTimeout(() => { this.timers.delete(t); resolve(); }, ms);
      this.timers.add(t);
    });
  }

  clearTimers(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
