// Export jobs: queued by ExportMasterPlayerData, completed after the deletion delay (or a
// clock/advance) with a download link on the emulator's own origin, mailed to the title's
// notification address and emitted as player_data_exported. The link serves its document until it
// expires (EXPORT_LINK_TTL_MS of emulator time), as published; then it is refused.

import { randomBytes } from 'node:crypto';
import { emitEvent } from './events';
import { exportDocument } from './exportDocument';
import { ApiError } from './http';
import { JobQueue, mail, newJobReceiptId, type JobsContext } from './jobQueue';
import { isoUtc } from './state';
import { EXPORT_TOKEN_RE } from './stateCheck';
import type { EmittedEvent, ExportJob, PlayerState, TitleState } from './state';

/** How long a download link works (the service's last "hours to days"). */
const EXPORT_LINK_TTL_MS = 24 * 60 * 60 * 1000;
/** The path under the emulator's origin a download link points at. */
export const DOWNLOAD_PATH = '/_emulator/exports/';
/** Completed exports kept (the oldest go first); queued ones are always kept. */
export const MAX_KEPT_EXPORTS = 10_000;

export interface ExportsContext extends JobsContext {
  /** The emulator's origin (http://127.0.0.1:PORT), for the download links. */
  origin(): string;
  /** Time from an accepted export to its completion (the deletion delay). */
  delayMs(): number;
}

export class ExportJobs extends JobQueue<ExportJob> {
  constructor(protected override readonly ctx: ExportsContext) {
    super(ctx, 'export job');
  }

  private list(): ExportJob[] {
    return (this.ctx.data().exports ??= []);
  }

  protected queued(): ExportJob[] {
    return this.list().filter((j) => j.status === 'queued');
  }

  /** Queues the export of `player` through `title`; resolves once the job is on disk. */
  queue(player: PlayerState, title: TitleState): Promise<ExportJob> {
    const now = this.ctx.now();
    const job: ExportJob = {
      JobReceiptId: newJobReceiptId(), PlatformId: player.platformId, titleId: title.titleId,
      createdAt: now, dueAt: now + this.ctx.delayMs(), status: 'queued',
    };
    const list = this.list();
    // Expired documents can never be served: dropped, and the oldest completed jobs past the bound.
    for (const j of list) if (j.expiresAt !== undefined && j.expiresAt <= now) delete j.document;
    list.push(job);
    for (let i = 0; list.length > MAX_KEPT_EXPORTS && i < list.length;) {
      if (list[i].status === 'completed') list.splice(i, 1);
      else i++;
    }
    return this.persist(job);
  }

  protected complete(job: ExportJob, now: number): Promise<void> {
    const data = this.ctx.data();
    const token = randomBytes(24).toString('base64url');
    Object.assign(job, {
      status: 'completed', completedAt: now, token, expiresAt: now + EXPORT_LINK_TTL_MS,
      document: exportDocument(data, job.PlatformId, data.players[job.PlatformId], job, now),
    });
    const url = `${this.ctx.origin()}${DOWNLOAD_PATH}${token}`;
    const event: EmittedEvent = {
      type: 'player_data_exported', titleId: job.titleId, Timestamp: isoUtc(now),
      JobReceiptId: job.JobReceiptId, ExportDownloadUrl: url, RequestTime: isoUtc(job.createdAt), PlayerId: job.PlatformId,
    };
    emitEvent(data, event, job.PlatformId);
    this.ctx.store.markDirty();
    const title = data.titles[job.titleId];
    return mail(this.ctx, title?.notificationEmail ?? null, event, {
      subject: `Player data export ready (${job.JobReceiptId})`,
      body: [
        `The export of player ${job.PlatformId} requested through title ${title?.name ?? job.titleId} (${job.titleId}) is ready.`,
        `JobReceiptId: ${job.JobReceiptId}`,
        `Download (until ${isoUtc(now + EXPORT_LINK_TTL_MS)}): ${url}`,
      ].join('\n'),
      JobReceiptId: job.JobReceiptId,
    }, `export job ${job.JobReceiptId} completed for ${job.PlatformId}`);
  }

  /** The document behind a download link: served until it expires (as published), then 410; 404 for an unknown link. */
  download(token: string): unknown {
    const job = EXPORT_TOKEN_RE.test(token) ? this.list().find((j) => j.token === token) : undefined;
    if (!job) throw new ApiError(404, 'InvalidRequest', 'No export has this download link; check the link from the player_data_exported event or the e-mail.');
    const document = job.document;
    if (job.expiresAt === undefined || job.expiresAt <= this.ctx.now() || document === undefined) {
      delete job.document;
      throw new ApiError(410, 'InvalidRequest', 'This download link has expired; request a new export (ExportMasterPlayerData).');
    }
    // The first download is remembered (GET /_emulator/exports shows it); the link keeps serving.
    if (job.downloadedAt === undefined) {
      job.downloadedAt = this.ctx.now();
      this.ctx.store.markDirty();
    }
    return document;
  }
}
