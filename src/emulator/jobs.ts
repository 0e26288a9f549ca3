// Master account deletion jobs: queued by DeleteMasterPlayerAccount, completed after the deletion
// delay (or a clock/advance), each completion mailed to the title's notification address (outbox)
// and emitted as the title_deleted_master_player event.

import { emitEvent } from './events';
import { JobQueue, mail, newJobReceiptId, type JobsContext } from './jobQueue';
import { isoUtc } from './state';
import type { DeletionJob, EmittedEvent, PlayerState } from './state';

export class DeletionJobs extends JobQueue<DeletionJob> {
  /** Time from DeleteMasterPlayerAccount to completion. */
  deletionDelayMs = 5000;

  constructor(ctx: JobsContext) {
    super(ctx, 'deletion job');
  }

  protected queued(): Iterable<DeletionJob> {
    return this.ctx.indexes().queuedJobByPlayer.values();
  }

  /** Queues the deletion of `player`; resolves once the job is on disk (an acknowledged deletion survives a restart). */
  queue(player: PlayerState, titleId: string, titleIds: string[], metaData: string | undefined): Promise<DeletionJob> {
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
    return this.persist(job);
  }

  protected complete(job: DeletionJob, now: number): Promise<void> {
    const data = this.ctx.data();
    const player = data.players[job.PlatformId];
    if (player) {
      this.ctx.indexes().removePlayer(player);
      delete data.players[job.PlatformId];
    }
    job.status = 'completed';
    job.completedAt = now;
    this.ctx.indexes().queuedJobByPlayer.delete(job.PlatformId);
    const event: EmittedEvent = {
      type: 'title_deleted_master_player', titleId: job.titleId, Timestamp: isoUtc(now),
      ReceiptId: job.JobReceiptId, MetaData: job.MetaData ?? null, PlayerId: job.PlatformId,
    };
    emitEvent(data, event, job.PlatformId);
    this.ctx.store.markDirty();
    const title = data.titles[job.titleId];
    return mail(this.ctx, title?.notificationEmail ?? null, event, {
      subject: `Player account deletion completed (${job.JobReceiptId})`,
      body: [
        `The master player account deletion requested through title ${title?.name ?? job.titleId} (${job.titleId}) has completed.`,
        `JobReceiptId: ${job.JobReceiptId}`,
        `PlatformId: ${job.PlatformId}`,
        `Data was deleted from titles: ${job.TitleIds.join(', ') || '(none)'}`,
      ].join('\n'),
      JobReceiptId: job.JobReceiptId,
    }, `deletion job ${job.JobReceiptId} completed for ${job.PlatformId}`);
  }
}
