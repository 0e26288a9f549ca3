// Master account deletion jobs: queued by DeleteMasterPlayerAccount, completed after the deletion
// delay (or a clock/advance), each completion mailed to the title's notification address (outbox).

import { randomBytes } from 'node:crypto';
import type { StateStore } from './persistence';
import { isoUtc } from './state';
import type { DeletionJob, EmulatorData, Indexes, OutboxMessage, PlayerState } from './state';

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

export class DeletionJobs {
  /** Time from DeleteMasterPlayerAccount to completion. */
  deletionDelayMs = 5000;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly outboxWrites = new Set<Promise<void>>();

  constructor(private readonly ctx: JobsContext) {}

  /** Queues the deletion of `player`; resolves once the job is on disk (an acknowledged deletion survives a restart). */
  async queue(player: PlayerState, titleId: string, titleIds: string[], metaData: string | undefined): Promise<DeletionJob> {
    const now = this.ctx.now();
    const job: DeletionJob = {
      JobReceiptId: newJobReceiptId(),
      PlatformId: player.platformId,
      titleId,
      TitleIds: titleIds,
      createdAt: now,
      dueAt: now + this.deletionDelayMs,
      status: 'queued',
    };
    if (metaData !== undefined) job.MetaData = metaData;
    this.ctx.data().jobs.push(job);
    this.ctx.indexes().queuedJobByPlayer.set(job.PlatformId, job);
    this.schedule();
    this.ctx.store.markDirty();
    await this.ctx.store.flush();
    return job;
  }

  /** One timer for the earliest queued job; re-armed whenever jobs or the clock change. */
  schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed) return;
    let next = Infinity;
    for (const j of this.ctx.indexes().queuedJobByPlayer.values()) next = Math.min(next, j.dueAt);
    if (next === Infinity) return;
    const delay = Math.min(Math.max(0, next - this.ctx.now()), 2 ** 31 - 1);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.runDue().catch((e: unknown) => this.ctx.log(`deletion job failed: ${(e as Error).message}`));
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
    const due = [...this.ctx.indexes().queuedJobByPlayer.values()].filter((j) => j.dueAt <= now);
    for (const j of due) {
      const write = this.complete(j, now).finally(() => this.outboxWrites.delete(write));
      this.outboxWrites.add(write);
    }
    this.schedule();
    await this.settled();
    return due.map((j) => j.JobReceiptId);
  }

  /** Resolves once every completed job's outbox file and the state are on disk (also those a timer completed). */
  async settled(): Promise<void> {
    await Promise.all(this.outboxWrites);
    await this.ctx.store.flush();
  }

  private complete(job: DeletionJob, now: number): Promise<void> {
    const data = this.ctx.data();
    const player = data.players[job.PlatformId];
    if (player) {
      this.ctx.indexes().removePlayer(player);
      delete data.players[job.PlatformId];
    }
    job.status = 'completed';
    job.completedAt = now;
    this.ctx.indexes().queuedJobByPlayer.delete(job.PlatformId);
    const title = data.titles[job.titleId];
    const message: OutboxMessage = {
      to: title?.notificationEmail ?? 'unknown@emulator.local',
      subject: `Player account deletion completed (${job.JobReceiptId})`,
      body: [
        `The master player account deletion requested through title ${title?.name ?? job.titleId} (${job.titleId}) has completed.`,
        `JobReceiptId: ${job.JobReceiptId}`,
        `PlatformId: ${job.PlatformId}`,
        `Data was deleted from titles: ${job.TitleIds.join(', ') || '(none)'}`,
      ].join('\n'),
      JobReceiptId: job.JobReceiptId,
      titleId: job.titleId,
      sentAt: isoUtc(now),
    };
    data.outbox.push(message);
    this.ctx.store.markDirty();
    this.ctx.log(`deletion job ${job.JobReceiptId} completed for ${job.PlatformId}; mail to ${message.to}`);
    return this.ctx.store.writeOutbox(message);
  }
}
