// Shared by the data-request tests: core services on the emulator's demo titles (real HTTP on
// 127.0.0.1), the emulator's own count of requests per operation and PlatformId, and its players.
import { PlatformClient } from '../../../src/core/api/client';
import { createRequest, RequestStore, type DataRequest, type RequestAuth, type RequestServices, type ServiceEvent } from '../../../src/core/requests';
import { DEMO_TITLES } from '../../../src/emulator/seed';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliKeyStore, operatorFromKey } from '../../../src/core/operator';
import { CLI_ANCHORS, CONFIG_HOME, type TestEmulator } from '../deletion/support';

/** The key folder the CLI runs of these tests use ($XDG_CONFIG_HOME/platform-explorer). */
export const TEST_KEYS = cliKeyStore({ XDG_CONFIG_HOME: CONFIG_HOME });
const OPERATOR_PEM = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
mkdirSync(TEST_KEYS.where, { recursive: true, mode: 0o700 });
writeFileSync(join(TEST_KEYS.where, 'operator-key'), `${JSON.stringify({ version: 1, name: 'Test Operator', privateKey: OPERATOR_PEM })}\n`, { mode: 0o600, flag: 'wx' });
/** The operator of the CLI runs of these tests and of the in-process ones: the same key. */
export const TEST_OPERATOR = operatorFromKey(OPERATOR_PEM, 'Test Operator');
import { controlHeaders } from '../../../src/core/controlToken';

export const KEYS: Record<string, string> = Object.fromEntries(DEMO_TITLES.map((t) => [t.titleId, t.secretKey]));

/** The CLI's environment: each demo title's key in PLATFORM_SECRET_KEY_<TITLEID>. */
export const KEY_ENV: Record<string, string> = Object.fromEntries(DEMO_TITLES.map((t) => [`PLATFORM_SECRET_KEY_${t.titleId}`, t.secretKey]));

/** How the tests' stores seal and check state files: the demo titles' keys, anchored where the tests' CLI runs anchor. */
export function authWith(keys: Record<string, string> = KEYS, o: Partial<RequestAuth> = {}): RequestAuth {
  return { key: (titleId) => Promise.resolve(keys[titleId]), anchors: CLI_ANCHORS, ...o };
}
export const AUTH: RequestAuth = authWith();

/** Core services on the emulator: a client for each title in `keys` (default: every demo title). */
export function servicesOn(emu: TestEmulator, keys: Record<string, string> = KEYS): RequestServices & { close: () => Promise<void> } {
  const clients = new Map<string, PlatformClient>();
  const origin = new URL(emu.endpoint.replace('{titleId}', 'x')).origin;
  return {
    client: (titleId) => {
      if (keys[titleId] === undefined) return undefined;
      if (!clients.has(titleId)) clients.set(titleId, new PlatformClient({ titleId, endpoint: emu.endpoint, getSecretKey: () => Promise.resolve(keys[titleId]), retryBaseDelayMs: 1 }));
      return clients.get(titleId);
    },
    key: (titleId) => Promise.resolve(keys[titleId]),
    // The anchors the CLI runs of these tests use too, so both open the same journals alike.
    anchors: CLI_ANCHORS,
    operator: TEST_OPERATOR,
    keys: TEST_KEYS,
    events: async (type) => {
      const res = await fetch(`${origin}/_emulator/events?type=${encodeURIComponent(type)}`, { headers: controlHeaders(origin) });
      if (!res.ok) throw new Error(`events: HTTP ${res.status}`);
      return ((await res.json()) as { events: ServiceEvent[] }).events;
    },
    close: async () => { await Promise.all([...clients.values()].map((c) => c.close())); },
  };
}

/**
 * How many requests the emulator served per "Operation PlatformId" (and per "Operation" alone, under
 * the operation's name); with `accepted`, only those it answered 200.
 */
export async function servedPer(emu: TestEmulator, o: { accepted?: boolean } = {}): Promise<Map<string, number>> {
  const { entries } = await emu.control('requests?limit=100000') as { entries: { operation: string | null; request: unknown; status: number }[] };
  const out = new Map<string, number>();
  const add = (k: string): void => void out.set(k, (out.get(k) ?? 0) + 1);
  for (const e of entries) {
    if (e.operation === null || (o.accepted === true && e.status !== 200)) continue;
    // "Admin/GetPlayedTitleList" is counted as "GetPlayedTitleList".
    const op = e.operation.slice(e.operation.indexOf('/') + 1);
    add(op);
    const pid = (e.request as { PlatformId?: unknown } | null)?.PlatformId;
    if (typeof pid === 'string') add(`${op} ${pid.toUpperCase()}`);
  }
  return out;
}

export interface EmulatorPlayer {
  PlatformId: string;
  publisherId: string;
  titlesPlayed: string[];
  email: string | null;
  username: string | null;
  storefrontNames: string[];
  consoleLiveIds: string[];
}

export async function players(emu: TestEmulator): Promise<EmulatorPlayer[]> {
  return ((await emu.control('players')) as { players: EmulatorPlayer[] }).players;
}

/**
 * A new request on the counting emulator (useCountingEmulator's fixture) for one player's e-mail (a
 * player of both demo titles F71AC and A248), in a store under the fixture's folder sealed with AUTH.
 */
export async function requestForOnePlayer(f: { emu: TestEmulator; counter: { endpoint: string }; dir: string }, reference: string, asks: DataRequest['asks'] = ['access', 'erasure']): Promise<{ store: RequestStore; id: string; ana: EmulatorPlayer }> {
  const ana = (await players(f.emu)).find((p) => p.email !== null && p.titlesPlayed.length === 2)!;
  const store = await RequestStore.open(join(f.dir, 'store'), { auth: AUTH });
  const r = await createRequest(store, { reference, asks, identifiers: [{ kind: 'email', value: ana.email! }], titles: ['F71AC', 'A248'], endpoint: f.counter.endpoint });
  return { store, id: r.id, ana };
}
