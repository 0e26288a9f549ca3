// A journal's anchor: outside the journal file, where a cut or a restored copy of the file cannot
// reach it, the batch's latest state on this machine: how many lines its journal holds and the last
// line's MAC (chained, so it stands for every line before it). Written after each line is on disk
// and before the send it records, so the journal is never behind its anchor unless something rolled
// it back; it may be one line ahead (a kill between the two writes). One folder of small files,
// one per batch, the user's own (0700): the CLI's in its per-user state folder, the editor's in its
// global storage. No secret is in it. The folder also holds each open batch's lock, so two copies
// of one journal (under different paths) are never run at once.
import { lstat, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeWhole } from '../files/ownFiles';
import { holdLock } from './lock';
import { ownProblem } from '../files/ownFile';
import { JournalError } from './records';

export interface Anchor {
  batchId: string;
  titleId: string;
  /** Lines in the journal (its records), and the last one's MAC. */
  lines: number;
  mac: string;
  /** The absolute path the journal was last written under, and when (for messages, and to find a journal gone from its folder). */
  path: string;
  at: string;
}

/** Where anchors are kept. */
export interface AnchorStore {
  /** The folder (or place) anchors are kept, for messages. */
  readonly where: string;
  get(batchId: string): Promise<Anchor | undefined>;
  /** Durable once resolved. */
  set(anchor: Anchor): Promise<void>;
  /** Every anchor kept (a batch whose journal is gone still has one). */
  list(): Promise<Anchor[]>;
  /** Holds batch `batchId` for this process until the returned function is called; refused while another process holds it. */
  hold(batchId: string, journalPath: string): Promise<() => Promise<void>>;
}

const BATCH_ID_RE = /^[A-Za-z0-9-]{1,64}$/;

/** An anchor file's content when it is one, else undefined. */
function parseAnchor(text: string, batchId: string): Anchor | undefined {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  // Stryker disable next-line ConditionalExpression: a number, string or boolean has no batchId either, so the next test refuses it
  if (typeof v !== 'object' || v === null || v.batchId !== batchId || typeof v.titleId !== 'string') return undefined;
  if (!Number.isSafeInteger(v.lines) || (v.lines as number) < 1 || typeof v.mac !== 'string' || !/^[0-9a-f]{64}$/.test(v.mac)) return undefined;
  if (typeof v.path !== 'string' || typeof v.at !== 'string') return undefined;
  return { batchId, titleId: v.titleId, lines: v.lines as number, mac: v.mac, path: v.path, at: v.at };
}

/** Anchors as files `<batchId>.json` in one folder of the user's own. */
export class FolderAnchorStore implements AnchorStore {
  private ready: Promise<void> | undefined;

  constructor(readonly where: string) {}

  /** Creates the folder (0700) once, and refuses one that is not the user's own. */
  private ensure(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.where, { recursive: true, mode: 0o700 });
      const p = ownProblem(await lstat(this.where), true);
      if (p !== undefined) {
        throw new JournalError(`The journals' anchor folder ${this.where} ${p.problem}; nothing was sent. ${p.chmod ? 'Run chmod go-w on it, or remove it' : 'Remove it'} so that it is made again as a folder only you can write.`);
      }
    })();
    // A refusal is not remembered: the next call checks again.
    this.ready.catch(() => { this.ready = undefined; });
    return this.ready;
  }

  private file(batchId: string): string {
    if (!BATCH_ID_RE.test(batchId)) throw new JournalError(`The batch ID ${JSON.stringify(batchId.slice(0, 80))} is not one this tool writes.`);
    return join(this.where, `${batchId}.json`);
  }

  async get(batchId: string): Promise<Anchor | undefined> {
    await this.ensure();
    const path = this.file(batchId);
    const st = await lstat(path).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw new JournalError(`Cannot read the anchor ${path}: ${e.code ?? e.message}`);
    });
    if (st === undefined) return undefined;
    const p = ownProblem(st, false);
    if (p !== undefined) throw new JournalError(`The anchor ${path} of batch ${batchId} ${p.problem}, so it cannot be trusted; nothing was sent. Remove it (the journal is then checked as on a new machine).`);
    const anchor = parseAnchor(await readFile(path, 'utf8'), batchId);
    if (anchor === undefined) throw new JournalError(`The anchor ${path} of batch ${batchId} is damaged; nothing was sent. Remove it (the journal is then checked as on a new machine).`);
    return anchor;
  }

  async set(anchor: Anchor): Promise<void> {
    await this.ensure();
    // Whole or not at all: a temp file synced, then renamed over (a link planted at the path is replaced, not followed).
    await writeWhole(this.file(anchor.batchId), `${JSON.stringify(anchor)}\n`);
  }

  async list(): Promise<Anchor[]> {
    await this.ensure();
    const out: Anchor[] = [];
    for (const name of (await readdir(this.where)).sort()) {
      const m = /^([A-Za-z0-9-]{1,64})\.json$/.exec(name);
      const a = m === null ? undefined : await this.get(m[1]);
      if (a !== undefined) out.push(a);
    }
    return out;
  }

  async hold(batchId: string, journalPath: string): Promise<() => Promise<void>> {
    await this.ensure();
    const release = await holdLock(`${this.file(batchId)}.lock`, (pid) => (
      `Batch ${batchId} (journal ${journalPath}) is in use by process ${pid}${pid === process.pid ? ' (this one)' : ''}, under another copy or name of its journal; wait for that run to finish. Two runs of one batch could send a deletion twice.`
    ));
    // Held: no live process writes this batch's anchor, so temp files of killed writers can go.
    const prefix = `.${batchId}.`;
    for (const name of await readdir(this.where).catch(() => [])) {
      if (name.startsWith(prefix) && name.endsWith('.tmp')) await rm(join(this.where, name), { force: true });
    }
    return release;
  }
}
