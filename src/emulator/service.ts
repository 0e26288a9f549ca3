// The emulated Platform service: state, clock, and dispatch from the operation table (credential
// and request checks), then one handler per operation. HTTP concerns (routing, bodies, faults)
// live in server.ts; credentials, deletion jobs and the launcher login in modules of their own.

import { randomBytes } from 'node:crypto';
import { OPERATIONS, type OperationName, type RequestOf, type ResultOf } from '../core/api/operations';
import { validate, type Schema } from '../core/api/schema';
import { accountInfoHandlers } from './areas/accountInfo';
import { adminHandlers } from './areas/admin';
import { addonHandlers } from './areas/addon';
import { authenticationHandlers } from './areas/authentication';
import type { Handlers, ServiceContext } from './areas/context';
import { dataRequestHandlers } from './areas/dataRequests';
import { serverHandlers } from './areas/server';
import { Credentials, type Headers } from './credentials';
import { badRequest, invalidParams } from './http';
import { ExportJobs } from './exports';
import { DeletionJobs } from './jobs';
import { LauncherKeyCache } from './jwt';
import type { StateStore } from './persistence';
import { buildSeed, builtInSeed, SEED_NAMES } from './seed';
import type { SeedName, SeedSource } from './seed';
import { Indexes } from './state';
import type { DeletionJob, EmulatorData, PersistedState, TitleState } from './state';

export function newPersistedState(seed: string, data: EmulatorData): PersistedState {
  return { version: 2, seed, tokenSecret: randomBytes(32).toString('base64'), tokensExpiredBefore: 0, clockOffsetMs: 0, data };
}

/** The request checked against the table's request schema: every problem, per field, in one InvalidParams. */
function checkRequest<N extends OperationName>(name: N, body: Record<string, unknown>): RequestOf<N> {
  const r = validate(body, OPERATIONS[name].request as Schema<RequestOf<N>>, '');
  if (r.issues.length > 0) {
    const details: Record<string, string[]> = {};
    // Keyed by the request member (the message names the entry: StorefrontNames[3]).
    for (const i of r.issues) (details[i.path.replace(/\[\d+\]/g, '') || 'RequestBody'] ??= []).push(`${i.message}.`);
    throw invalidParams(details);
  }
  return r.value;
}

export class PlatformService implements ServiceContext {
  private idx: Indexes;
  readonly credentials: Credentials;
  readonly jobs: DeletionJobs;
  readonly exports: ExportJobs;
  /** The emulator's origin, for export download links (set by the server once it listens). */
  origin = 'http://127.0.0.1';
  readonly keyCache = new LauncherKeyCache();

  constructor(
    public state: PersistedState,
    private readonly store: StateStore,
    log: (line: string) => void,
  ) {
    this.credentials = new Credentials(Buffer.from(state.tokenSecret, 'base64'), () => this.now(), () => this.state.tokensExpiredBefore);
    const jobs = { data: () => this.data, indexes: () => this.idx, now: () => this.now(), store, log };
    this.jobs = new DeletionJobs(jobs);
    this.exports = new ExportJobs({ ...jobs, origin: () => this.origin, delayMs: () => this.jobs.deletionDelayMs });
    this.idx = this.reindex();
  }

  get data(): EmulatorData {
    return this.state.data;
  }

  get indexes(): Indexes {
    return this.idx;
  }

  markDirty(): void {
    this.store.markDirty();
  }

  /** Time from DeleteMasterPlayerAccount to completion. */
  get deletionDelayMs(): number {
    return this.jobs.deletionDelayMs;
  }

  set deletionDelayMs(ms: number) {
    this.jobs.deletionDelayMs = ms;
  }

  /** Emulator time: the wall clock plus whatever clock/advance added. */
  now(): number {
    return Date.now() + this.state.clockOffsetMs;
  }

  private reindex(): Indexes {
    this.credentials.reindex(Object.values(this.data.titles));
    this.keyCache.clear();
    this.idx = new Indexes(this.data);
    return this.idx;
  }

  // ---- lifecycle -------------------------------------------------------------------

  /** The seed `reset` goes back to when the state names no built-in one (a seed file's). */
  seedSource: SeedSource | undefined;

  /** Replaces the data with a fresh seed (reset / seed controls); server-wide settings stay. */
  async reseed(seed: string): Promise<void> {
    const source = (SEED_NAMES as readonly string[]).includes(seed) ? builtInSeed(seed as SeedName) : this.seedSource ?? builtInSeed('demo');
    // The titles keep their keys: clients configured with them go on working after a reset.
    const data = await buildSeed(source, Object.fromEntries(Object.values(this.data.titles).map((t) => [t.titleId, t.secretKey])));
    await this.replace({ ...this.state, data, seed: source.name, clockOffsetMs: 0 });
  }

  /** Puts `state` in place (a reseed or a snapshot's restore): indexes, job timers, outbox files, disk. */
  async replace(state: PersistedState): Promise<void> {
    this.state = state;
    this.credentials.retarget(Buffer.from(state.tokenSecret, 'base64'));
    this.reindex();
    this.jobs.schedule();
    this.exports.schedule();
    await this.store.clearOutbox();
    for (const m of state.data.outbox) await this.store.writeOutbox(m);
    this.store.markDirty();
    await this.store.flush();
  }

  start(): void {
    this.jobs.schedule();
    this.exports.schedule();
  }

  stop(): void {
    this.jobs.stop();
    this.exports.stop();
  }

  expireAllTokens(): void {
    this.state.tokensExpiredBefore = this.now();
    this.store.markDirty();
  }

  /** Moves the clock on; exports due by then complete before deletions (they were asked for first). */
  async advanceClock(ms: number): Promise<{ jobs: string[]; exports: string[] }> {
    this.state.clockOffsetMs += ms;
    this.store.markDirty();
    const exports = await this.exports.runDue();
    return { jobs: await this.jobs.runDue(), exports };
  }

  /** Resolves once completed jobs' outbox files and the state are on disk. */
  async settled(): Promise<void> {
    await this.exports.settled();
    await this.jobs.settled();
  }

  async persistNow(): Promise<void> {
    this.store.markDirty();
    await this.store.flush();
  }

  jobsView(): DeletionJob[] {
    return this.data.jobs;
  }

  // ---- dispatch ----------------------------------------------------------------------

  /** Runs operation `name` for `title`: the credential, the request, then its handler. */
  async handle<N extends OperationName>(name: N, title: TitleState, headers: Headers, body: Record<string, unknown>): Promise<ResultOf<N>> {
    const spec = OPERATIONS[name];
    const caller = this.credentials.authenticate(spec, title, headers);
    const req = checkRequest(name, body);
    const entity = (req as { Entity?: { Type?: string } }).Entity;
    if (spec.entityType !== undefined && entity?.Type !== undefined && entity.Type !== spec.entityType) {
      throw badRequest('InvalidEntityType', `Entity.Type must be "${spec.entityType}" for ${spec.path}, not ${JSON.stringify(entity.Type)}.`);
    }
    const handler = this.handlers[name] as Handlers[N];
    return handler(title, req, caller);
  }

  private readonly handlers: Handlers = {
    ...authenticationHandlers(this),
    ...adminHandlers(this),
    ...accountInfoHandlers(this),
    ...dataRequestHandlers(this),
    ...serverHandlers(this),
    ...addonHandlers(this),
  };
}
