// What deletion and export jobs share: queued with a due time, completed by one timer for the
// earliest (re-armed whenever the jobs or the clock change, unref'd so it never keeps the process
// alive) or by clock/advance, each completion's mail written before runDue resolves.
import { randomBytes } from 'node:crypto';
import type { StateStore } from './persistence';
import type { EmittedEvent, EmulatorData, Indexes, OutboxMessage } from './state';

/** Real JobReceiptIds are 32 upper-case hex characters. */
export function newJobReceiptId(): string {
  return randomBytes(16).toString('hex').toUpperCase();
}

export interface JobsContext {
  data(): EmulatorData;
  indexes(): Indexes;
  now(): number;
  readonly store: StateStore;
  log(line: string): void;
}

export abstract class JobQueue<J extends { JobReceiptId: string; dueAt: number }> {
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly writes = new Set<Promise<void>>();

  constructor(protected readonly ctx: JobsContext, private readonly what: string) {}

  /** The jobs still queued. */
  protected abstract queued(): Iterable<J>;
  /** Completes `job` now; resolves once its mail is written. */
  protected abstract complete(job: J, now: number): Promise<void>;

  schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed) return;
    let next = Infinity;
    for (const j of this.queued()) next = Math.min(next, j.dueAt);
    if (next === Infinity) return;
    const delay = Math.min(Math.max(0, next - this.ctx.now()), 2 ** 31 - 1);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.runDue().catch((e: unknown) => this.ctx.log(`${this.what} failed: ${(e as Error).message}`));
    }, delay);
    this.timer.unref();
  }

  stop(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Completes every queued job that is due; resolves when their outbox files are written. */
  async runDue(): Promise<string[]> {
    const now = this.ctx.now();
    const due = [...this.queued()].filter((j) => j.dueAt <= now);
    for (const j of due) {
      const write = this.complete(j, now).finally(() => this.writes.delete(write));
      this.writes.add(write);
    }
    this.schedule();
    await this.settled();
    return due.map((j) => j.JobReceiptId);
  }

  /** Resolves once every completed job's outbox file and the state are on disk (also those a timer completed). */
  async settled(): Promise<void> {
    await Promise.all(this.writes);
    await this.ctx.store.flush();
  }

  /** Puts a new job on disk before it is acknowledged (an acknowledged job survives a restart). */
  protected async persist(job: J): Promise<J> {
    this.schedule();
    this.ctx.store.markDirty();
    await this.ctx.store.flush();
    return job;
  }
}

/**
 * The e-mail that goes with `event` to the title's notification address, in the outbox (and its
 * file); a title without an address gets none (the event is the only signal then).
 */
export function mail(
  ctx: Pick<JobsContext, 'data' | 'store' | 'log'>, to: string | null, event: EmittedEvent,
  m: { subject: string; body: string; JobReceiptId: string }, what: string,
): Promise<void> {
  if (to === null) {
    ctx.log(`${what}; no mail: title ${event.titleId} has no notification address`);
    return Promise.resolve();
  }
  const { type, titleId, Timestamp, ...members } = event;
  const message: OutboxMessage = { ...members, to, subject: m.subject, body: m.body, JobReceiptId: m.JobReceiptId, titleId, sentAt: Timestamp, type };
  ctx.data().outbox.push(message);
  ctx.store.markDirty();
  ctx.log(`${what}; mail to ${to}`);
  return ctx.store.writeOutbox(message);
}
