// The programmatic API of the platform-emulator package (packages/emulator/index.d.ts declares it):
// the emulator in a user's own test process, driven through its own control routes over loopback
// HTTP with its control token, as any other client would.
import type * as Api from '../../packages/emulator/index';
import { startEmulator as startServer } from './server';
import type { EmulatorOptions } from './server';
import { builtInSeed, SEED_NAMES, seedSource } from './seed';
import type { SeedName, SeedSource } from './seed';
import { parseSeedText } from './seedfile/seedFile';

const WAIT_POLL_MS = 25;
const DEFAULT_WAIT_MS = 10_000;

function seedOf(seed: Api.StartOptions['seed']): SeedSource {
  if (seed === undefined) return builtInSeed('demo');
  if (typeof seed === 'string') return (SEED_NAMES as readonly string[]).includes(seed) ? builtInSeed(seed as SeedName) : seedSource(seed);
  if (seed === null || typeof seed !== 'object') throw new TypeError('seed must be "demo", "empty", "bench", a seed object or the path of a seed file.');
  return { name: 'object', spec: parseSeedText(JSON.stringify(seed), 'the seed object') };
}

function query(filter: Api.RequestFilter = {}, since?: number): string {
  const q = new URLSearchParams();
  if (since !== undefined) q.set('since', String(since));
  if (filter.operation !== undefined) q.set('operation', filter.operation);
  if (filter.titleId !== undefined) q.set('titleId', filter.titleId);
  if (filter.status !== undefined) q.set('status', String(filter.status));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export const startEmulator: typeof Api.startEmulator = async (options = {}) => {
  const o: EmulatorOptions = {
    seed: seedOf(options.seed),
    port: options.port ?? 0,
    host: options.host,
    controlToken: options.controlToken,
    faultSeed: options.faultSeed,
    deletionDelayMs: options.deletionDelayMs,
    requestLogSize: options.requestLogSize,
    // Never holds the user's test process open: a suite that forgets stop() still exits.
    unref: true,
  };
  const h = await startServer(o);
  const control = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${h.origin}/_emulator/${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${h.controlToken}` },
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
    const json = (await res.json()) as T & { errorMessage?: string; errorDetails?: unknown };
    if (!res.ok) throw new Error(`platform-emulator: ${path}: ${json.errorMessage ?? res.status}${json.errorDetails ? ` ${JSON.stringify(json.errorDetails)}` : ''}`);
    return json;
  };
  const requests = async (filter?: Api.RequestFilter, since?: number): Promise<Api.RequestEntry[]> =>
    (await control<{ entries: Api.RequestEntry[] }>('GET', `requests${query(filter, since)}`)).entries;
  return {
    endpoint: h.endpoint,
    origin: h.origin,
    titles: h.titles,
    controlToken: h.controlToken,
    faultSeed: h.faultSeed,
    stop: () => h.close(),
    snapshot: async (name) => strip(await control<Api.SnapshotInfo & { ok: true }>('POST', `snapshots/${encodeURIComponent(name)}`)),
    restore: async (name) => strip(await control<Api.SnapshotInfo & { ok: true }>('POST', `snapshots/${encodeURIComponent(name)}/restore`)),
    reset: async () => { await control('POST', 'reset'); },
    requests: (filter) => requests(filter),
    async waitForRequest(filter, opts = {}) {
      // Entries after `since` (default: from now on), polled until one matches or the time is up.
      const since = opts.since ?? h.requestLog.nextSeq - 1;
      const deadline = Date.now() + (opts.timeoutMs ?? DEFAULT_WAIT_MS);
      for (;;) {
        const found = await requests(filter, since);
        if (found.length > 0) return found[0];
        if (Date.now() >= deadline) throw new Error(`platform-emulator: no request matching ${JSON.stringify(filter ?? {})} within ${opts.timeoutMs ?? DEFAULT_WAIT_MS} ms`);
        await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
      }
    },
    faults: async (config) => { await control('POST', config === null ? 'faults/clear' : 'faults', config ?? undefined); },
    advanceClock: async (ms) => { await control('POST', 'clock/advance', { ms }); },
  };
};

function strip(a: Api.SnapshotInfo & { ok?: true }): Api.SnapshotInfo {
  const { ok: _ok, ...info } = a;
  return info;
}
