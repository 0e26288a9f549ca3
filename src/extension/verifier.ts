// Verifies queued deletions on its own while the editor is open, with backoff: from 30 s,
// doubling to 30 min while nothing completes. What it checks with is passed in (verify).
import * as vscode from 'vscode';
import { awaitsVerification, nextVerifyDelay, type VerifyResult } from '../core/deletion/ledger';
import type { DeletionJobStore } from './jobs';
import { Disposable } from './lifecycle';
import type { Log } from './log';
import type { SecretKeys } from './secrets';
import { named, type TitleRecord, type TitleStore } from './titles';

export interface VerifierDeps {
  readonly jobs: DeletionJobStore;
  readonly titles: TitleStore;
  readonly secrets: SecretKeys;
  readonly log: Log;
  /** Verifies one title's queued deletions, quietly. */
  verify(titleId: string): Promise<VerifyResult>;
  /** Says what a pass found done, once (a message, which screen readers announce; a redrawn tree row is silent). */
  announce(message: string): void;
}

/** "Demo Racer (F71AC): 3 deletions verified deleted in the background: A, B, C." (the IDs when a few). */
function verifiedMessage(title: TitleRecord, ids: readonly string[]): string {
  if (ids.length === 1) return vscode.l10n.t('{0}: the deletion of PlatformId {1} is verified deleted (checked in the background).', named(title), ids[0]);
  return ids.length <= 5
    ? vscode.l10n.t('{0}: {1} deletions verified deleted (checked in the background): {2}.', named(title), ids.length, ids.join(', '))
    : vscode.l10n.t('{0}: {1} deletions verified deleted (checked in the background); Deletion Jobs lists them.', named(title), ids.length);
}

export class BackgroundVerifier extends Disposable {
  private timer: NodeJS.Timeout | undefined;
  private delayMs: number | undefined;

  constructor(private readonly d: VerifierDeps, private firstMs = 30_000) {
    super();
    this._register({ dispose: () => clearTimeout(this.timer) });
  }

  /** (Re)starts the schedule: after a batch, or when the ledger gains a queued deletion. */
  kick(): void {
    this.delayMs = undefined;
    this.schedule();
  }

  /** The first delay of the backoff (tests shorten it), and a new schedule from it. */
  setFirstDelay(ms: number): void {
    this.firstMs = ms;
    this.kick();
  }

  private schedule(): void {
    if (this.disposed) return;
    clearTimeout(this.timer);
    const titles = [...new Set(this.d.jobs.all().filter(awaitsVerification).map((e) => e.titleId))];
    if (titles.length === 0) return;
    const delay = this.delayMs ?? this.firstMs;
    this.timer = setTimeout(() => void this.tick(titles), delay);
    this.timer.unref?.();
  }

  private async tick(titles: string[]): Promise<void> {
    let progressed = false;
    for (const t of titles) {
      const title = this.d.titles.get(t);
      if (this.disposed || !title || !(await this.d.secrets.has(t))) continue;
      try {
        const { verified } = await this.d.verify(t);
        if (verified.length > 0) {
          progressed = true;
          this.d.announce(verifiedMessage(title, verified));
        }
      } catch (e) {
        this.d.log.warn(`Background verification of ${t} skipped: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    this.delayMs = nextVerifyDelay(this.delayMs ?? this.firstMs, progressed, this.firstMs);
    this.schedule();
  }
}
