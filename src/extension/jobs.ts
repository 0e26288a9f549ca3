// Receipts of master-account deletions this machine requested, persisted in globalState.
// They are the user's record that a deletion was queued (the service sends its e-mail
// later), so they outlive the title they were made for.
import * as vscode from 'vscode';

export interface DeletionJob {
  /** Absent when the service queued the deletion but returned no receipt. */
  jobReceiptId?: string;
  platformId: string;
  titleId: string;
  titleName: string;
  /** ISO 8601 UTC time the deletion was accepted. */
  requestedAt: string;
  titleIds: string[];
}

const STATE_KEY = 'platformExplorer.deletionJobs';

function fromStored(v: unknown): DeletionJob | undefined {
  if (typeof v !== 'object' || v === null) {
    return undefined;
  }
  const o = v as Record<string, unknown>;
  if ((o.jobReceiptId !== undefined && typeof o.jobReceiptId !== 'string') || typeof o.platformId !== 'string' || typeof o.titleId !== 'string') {
    return undefined;
  }
  return {
    jobReceiptId: o.jobReceiptId,
    platformId: o.platformId,
    titleId: o.titleId,
    titleName: typeof o.titleName === 'string' ? o.titleName : o.titleId,
    requestedAt: typeof o.requestedAt === 'string' ? o.requestedAt : '',
    titleIds: Array.isArray(o.titleIds) ? o.titleIds.filter((x): x is string => typeof x === 'string') : [],
  };
}

export class DeletionJobStore {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: vscode.Memento) {}

  all(): DeletionJob[] {
    const raw = this.memento.get<unknown>(STATE_KEY);
    return Array.isArray(raw) ? raw.map(fromStored).filter((j): j is DeletionJob => j !== undefined) : [];
  }

  forTitle(titleId: string): DeletionJob[] {
    const id = titleId.toUpperCase();
    return this.all().filter((j) => j.titleId === id);
  }

  get(jobReceiptId: string): DeletionJob | undefined {
    return this.all().find((j) => j.jobReceiptId === jobReceiptId);
  }

  async add(job: DeletionJob): Promise<void> {
    const list = this.all().filter((j) => job.jobReceiptId === undefined || j.jobReceiptId !== job.jobReceiptId);
    list.push({ ...job, titleId: job.titleId.toUpperCase(), titleIds: [...job.titleIds] });
    await this.memento.update(STATE_KEY, list);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
