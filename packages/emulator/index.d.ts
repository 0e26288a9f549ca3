// The programmatic API of platform-emulator: the emulator in your own test process.
//   import { startEmulator } from 'platform-emulator';       (ESM)
//   const { startEmulator } = require('platform-emulator');  (CommonJS)
// src/emulator/api.ts implements exactly these types (the repository's typecheck holds it to them).

/** A title of the seed, with the secret key of this run. */
export interface EmulatorTitle {
  titleId: string;
  name: string;
  secretKey: string;
}

/** A seed object: the format of a seed file (`platform-emulator --print-seed-schema`). */
export interface SeedObject {
  titles: Array<{
    titleId: string;
    name?: string;
    /** A literal key, or "generate" (default) for a random one per run. */
    secretKey?: string;
    publisherId?: string;
    notificationEmail?: string | null;
    /** The service answers AccountNotFound to every TitleDisplayName lookup on such a title. */
    allowNonUniqueDisplayNames?: boolean;
    [member: string]: unknown;
  }>;
  players?: Array<Record<string, unknown>>;
  [member: string]: unknown;
}

export interface StartOptions {
  /** 'demo' (default), 'empty', 'bench', a seed object, or the path of a seed file (.json). */
  seed?: 'demo' | 'empty' | 'bench' | SeedObject | string;
  /** 0 (default): any free port. */
  port?: number;
  /** 127.0.0.1 (default), ::1 or localhost. */
  host?: string;
  /** Fix the control token (default: random for the run). */
  controlToken?: string;
  /** The seed rate faults draw from (default: random; read it back as faultSeed to replay a run). */
  faultSeed?: number;
  /** Time from a deletion or export request to its completion, in ms (default 5000). */
  deletionDelayMs?: number;
  /** Entries the request log keeps (default 10,000). */
  requestLogSize?: number;
}

export type CredentialKind = 'secretKey' | 'entityToken' | 'sessionTicket' | 'none';

/** One service request as the request log shows it: secrets, tokens and key-shaped values masked. */
export interface RequestEntry {
  seq: number;
  time: string;
  method: string;
  path: string;
  /** `<Area>/<Operation>`, or null for a path that is no operation. */
  operation: string | null;
  titleId: string | null;
  credential: CredentialKind;
  /** The HTTP status answered; 0 when the connection was reset or closed unanswered. */
  status: number;
  error: string | null;
  errorCode: number | null;
  durationMs: number;
  /** The fault injected into it, if any: its kind, the rule's index, the generator's seed. */
  fault: { kind: string; rule: number; faultSeed: number } | null;
  /** The seed rate faults draw from in this run. */
  faultSeed: number;
  request: unknown;
  response: unknown;
}

export interface RequestFilter {
  /** `<Area>/<Operation>`, e.g. 'Server/GetPlatformIDsFromStorefrontNames'. */
  operation?: string;
  titleId?: string;
  status?: number;
}

export type FaultKind = '429' | '500' | '503' | 'reset-before' | 'reset-after' | 'garbage' | 'html' | 'timeout' | 'drip';

export type Latency =
  | { kind: 'fixed'; ms: number }
  | { kind: 'uniform'; minMs: number; maxMs: number }
  | { kind: 'normal'; meanMs: number; stdDevMs: number };

export interface FaultRule {
  /** What the request gets; leave out for a rule that only adds latency. */
  kind?: FaultKind;
  /** `<Area>/<Operation>` the rule applies to (default: every operation). */
  operation?: string;
  /** The title the rule applies to (default: every title). */
  titleId?: string;
  /** Chance from 0 to 1 that a matching request is hit (default 1). */
  probability?: number;
  /** Uses left; -1 for forever (default 1, or -1 with a probability). */
  times?: number;
  /** Added before a hit request is served. */
  latency?: Latency;
  retryAfterSeconds?: number;
}

export interface FaultConfig {
  /** Fixed latency on every request (ms). */
  latencyMs?: number;
  rules: FaultRule[];
  /** Draw from this seed instead of the run's (a failing run's faultSeed, to replay it). */
  seed?: number;
}

export interface SnapshotInfo {
  name: string;
  takenAt: string;
  titles: number;
  players: number;
  queuedJobs: number;
}

export interface RunningEmulator {
  /** The endpoint template, e.g. http://127.0.0.1:PORT/{titleId}. */
  readonly endpoint: string;
  /** e.g. http://127.0.0.1:PORT */
  readonly origin: string;
  readonly titles: readonly EmulatorTitle[];
  /** `Authorization: Bearer <controlToken>` opens /_emulator/ to another client. */
  readonly controlToken: string;
  /** The seed rate faults draw from: start another run with it to replay the same faults. */
  readonly faultSeed: number;
  /** Stops it; resolves once its port is closed. Safe to call twice. */
  stop(): Promise<void>;
  /** Saves the whole state under `name`. */
  snapshot(name: string): Promise<SnapshotInfo>;
  /** Brings back the state saved as `name`; the same state every time. */
  restore(name: string): Promise<SnapshotInfo>;
  /** Back to the seed: state, faults, statistics. */
  reset(): Promise<void>;
  /** The request log, oldest first, narrowed by `filter`. */
  requests(filter?: RequestFilter): Promise<RequestEntry[]>;
  /** The first request matching `filter` that arrives after this call (or already arrived since `since`); rejects after timeoutMs (default 10 s). */
  waitForRequest(filter?: RequestFilter, options?: { timeoutMs?: number; since?: number }): Promise<RequestEntry>;
  /** Sets the fault rules (replacing the previous ones); null clears them. */
  faults(config: FaultConfig | null): Promise<void>;
  /** Moves the emulator's clock: queued deletions and exports complete when due. */
  advanceClock(ms: number): Promise<void>;
}

/** Starts an emulator in this process; it never keeps the process alive on its own. */
export declare function startEmulator(options?: StartOptions): Promise<RunningEmulator>;
