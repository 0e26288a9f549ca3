// Where requests live: one folder per request under a store folder the user chooses (a team keeps
// them with its audit records). A folder holds the state file (request.json), the request's
// deletion journals and, once closed, its evidence. Folders and files must be the user's own, not
// writable by others and not symbolic links (core/ownFiles.ts); the state file is written whole,
// sealed and anchored outside the store (seal.ts): a step that acts (loadChecked) refuses one changed
// by anything but the tool. `load` reads it unchecked, for showing only.
import { lstat, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Journal, type BatchRecord, type JournalRecord } from '../deletion';
import { lockJournal } from '../deletion/lock';
import { quoteForMessage } from '../ids';
import { ownFileProblem, ownFolderProblem, writeWhole } from '../files/ownFiles';
import { REQUEST_ID_RE } from './model';
import { anchorSeal, checkSeal, sealState, type RequestAuth } from './seal';
import type { JournalAccess, JournalName, RequestJournal, RequestStorage } from './storage';
import { RequestError, type ActionKind, type DataRequest } from './types';

export const STATE_FILE = 'request.json';
export const EVIDENCE_JSON = 'evidence.json';
export const EVIDENCE_MD = 'evidence.md';

/** A journal of the request: `kind-TITLE[-n].journal.jsonl`. */
export const JOURNAL_RE = /^(export|events|erasure)-([0-9A-F]{4,16})(?:-(\d{1,4}))?\.journal\.jsonl$/;

const journalOptions = (a: JournalAccess): { key: JournalAccess['key']; anchors: JournalAccess['anchors']; noAnchor?: boolean } =>
  ({ key: a.key, anchors: a.anchors, ...(a.noAnchor === true ? { noAnchor: true } : {}) });

export class RequestStore implements RequestStorage {
  readonly dir: string;
  /** How state files are sealed and checked (none: the store can show requests, not change them). */
  readonly auth: RequestAuth | undefined;

  private constructor(dir: string, auth: RequestAuth | undefined) {
    this.dir = dir;
    this.auth = auth;
  }

  /** Opens (creating it, mode 700, when missing) the store folder; refuses one that is not the user's own. */
  static async open(dir: string, o: { label?: string; auth?: RequestAuth } = {}): Promise<RequestStore> {
    const path = resolve(dir);
    const label = o.label ?? 'The requests folder';
    if ((await lstat(path).catch(() => undefined)) === undefined) await mkdir(path, { recursive: true, mode: 0o700 });
    const why = await ownFolderProblem(path, `${label} ${dir}`);
    if (why !== undefined) throw new RequestError(why);
    return new RequestStore(path, o.auth);
  }

  private needAuth(): RequestAuth {
    if (this.auth === undefined) throw new RequestError(`The requests folder ${this.dir} was opened without the titles' keys and anchors: requests can be shown, not changed.`);
    return this.auth;
  }

  folder(id: string): string {
    if (!REQUEST_ID_RE.test(id)) throw new RequestError(`"${quoteForMessage(id)}" is not a request id (they look like dr-20261102-a1b2c3); list them with request show.`);
    return join(this.dir, id);
  }

  /** The journal of one kind of action sent with one title's key. */
  journalPath(id: string, kind: ActionKind, titleId: string): string {
    return join(this.folder(id), `${kind}-${titleId.toUpperCase()}.journal.jsonl`);
  }

  evidencePath(id: string, which: 'json' | 'md'): string {
    return join(this.folder(id), which === 'json' ? EVIDENCE_JSON : EVIDENCE_MD);
  }

  /** Creates the folder of a new request (never an existing one) and writes its state. */
  async create(r: DataRequest): Promise<void> {
    const folder = this.folder(r.id);
    const auth = this.needAuth();
    const path = join(folder, STATE_FILE);
    // Sealed first: a request no key can seal is refused before its folder is made.
    const before = r.seal;
    const text = await sealState(r, auth, path);
    try {
      await mkdir(folder, { mode: 0o700 });
    } catch (e) {
      r.seal = before;
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new RequestError(`A request folder ${folder} already exists; nothing was written. Try again (a new id is drawn each time).`);
      throw e;
    }
    await this.check(r.id, STATE_FILE);
    await writeWhole(path, text);
    await anchorSeal(r, auth, path);
  }

  /** Checks a file of a request's folder (and the folder) before it is read or written. */
  async check(id: string, name: string): Promise<void> {
    const folder = this.folder(id);
    const missing = `Request ${id}: no such request in ${this.dir}; list them with request show.`;
    const bad = await ownFolderProblem(folder, `Request ${id}`, missing);
    if (bad !== undefined) throw new RequestError(bad);
    const why = await ownFileProblem(join(folder, name), `Request ${id}: ${name}`);
    if (why !== undefined) throw new RequestError(why);
  }

  /** The state file, checked against its seal and its anchor (seal.ts): what every step that acts reads. */
  async loadChecked(id: string): Promise<DataRequest> {
    const auth = this.needAuth();
    const r = await this.load(id);
    await checkSeal(r, auth, join(this.folder(id), STATE_FILE));
    return r;
  }

  /** The state file as it is (not authenticated): for showing a request, never for acting on it. */
  async load(id: string): Promise<DataRequest> {
    await this.check(id, STATE_FILE);
    const path = join(this.folder(id), STATE_FILE);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      throw new RequestError(`Request ${id}: its state file ${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
    }
    let r: DataRequest;
    try {
      r = JSON.parse(text) as DataRequest;
    } catch {
      throw new RequestError(`Request ${id}: its state file ${path} is not JSON (damaged or edited); restore it from your backup.`);
    }
    const why = stateProblem(r, id);
    if (why !== undefined) throw new RequestError(`Request ${id}: its state file ${path} ${why}; restore it from your backup.`);
    return r;
  }

  /** Writes the state file whole (temp file, synced, renamed over), sealed as the next save, then its anchor. */
  async save(r: DataRequest): Promise<void> {
    const auth = this.needAuth();
    await this.check(r.id, STATE_FILE);
    const path = join(this.folder(r.id), STATE_FILE);
    await writeWhole(path, await sealState(r, auth, path));
    await anchorSeal(r, auth, path);
  }

  /** Every request in the store, oldest first; folders that cannot be read are listed with why. */
  async list(): Promise<{ requests: DataRequest[]; problems: string[] }> {
    const requests: DataRequest[] = [];
    const problems: string[] = [];
    for (const name of (await readdir(this.dir)).sort()) {
      if (!REQUEST_ID_RE.test(name)) continue;
      try {
        requests.push(await this.load(name));
      } catch (e) {
        problems.push((e as Error).message);
      }
    }
    requests.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    return { requests, problems };
  }

  async journalNames(id: string): Promise<JournalName[]> {
    const names = (await readdir(this.folder(id)).catch(() => [] as string[])).sort();
    return names.flatMap((name) => {
      const m = JOURNAL_RE.exec(name);
      return m === null ? [] : [{ name, kind: m[1] as ActionKind, titleId: m[2] }];
    });
  }

  async openJournal(id: string, name: string, access: JournalAccess): Promise<RequestJournal> {
    await this.check(id, name);
    return Journal.open(join(this.folder(id), name), journalOptions(access));
  }

  async createJournal(id: string, kind: ActionKind, titleId: string, batch: BatchRecord, access: JournalAccess): Promise<string> {
    const taken = new Set((await this.journalNames(id)).map((j) => j.name));
    let name = `${kind}-${titleId}.journal.jsonl`;
    for (let n = 2; taken.has(name); n++) name = `${kind}-${titleId}-${n}.journal.jsonl`;
    await this.check(id, name);
    const j = await Journal.open(join(this.folder(id), name), { ...journalOptions(access), create: batch });
    await j.close();
    return name;
  }

  async readJournal(id: string, name: string, access: JournalAccess): Promise<{ batch: BatchRecord; records: readonly JournalRecord[] } | undefined> {
    await this.check(id, name);
    return Journal.read(join(this.folder(id), name), access.key, access.anchors);
  }

  async removeJournals(id: string): Promise<void> {
    for (const j of await this.journalNames(id)) await rm(join(this.folder(id), j.name), { force: true });
  }

  async writeEvidence(id: string, json: string, markdown: string): Promise<void> {
    for (const name of [EVIDENCE_JSON, EVIDENCE_MD]) await this.check(id, name);
    await writeWhole(this.evidencePath(id, 'json'), json);
    await writeWhole(this.evidencePath(id, 'md'), markdown);
  }

  async readEvidence(id: string, which: 'json' | 'md'): Promise<string | undefined> {
    await this.check(id, which === 'json' ? EVIDENCE_JSON : EVIDENCE_MD);
    return readFile(this.evidencePath(id, which), 'utf8').catch(() => undefined);
  }

  /** One process at a time changes a request (the journals have their own locks too). */
  async lock(id: string): Promise<() => Promise<void>> {
    await this.check(id, STATE_FILE);
    try {
      return await lockJournal(join(this.folder(id), STATE_FILE));
    } catch (e) {
      throw new RequestError(`Request ${id} is busy: ${(e as Error).message.replace(/^The journal /, 'its state file ')}`);
    }
  }
}

/** What is wrong with a state file's content, or undefined. */
export function stateProblem(r: DataRequest, id: string): string | undefined {
  if (typeof r !== 'object' || r === null || r.version !== 1) return 'is not a request state file of this version';
  if (r.id !== id) return `names another request (${quoteForMessage(String(r.id))})`;
  if (typeof r.reference !== 'string' || typeof r.received !== 'string' || typeof r.due !== 'string') return 'has no reference or dates';
  if (!Array.isArray(r.asks) || !Array.isArray(r.identifiers) || !Array.isArray(r.titles) || !Array.isArray(r.actions)) return 'has no asks, identifiers, titles or actions';
  return undefined;
}
