// Seeds: the built-in `demo` (two titles of one publisher, 36 players with every kind of link, and
// a third title of another publisher with a second account of Ana: DEMO_SECOND_ACCOUNT),
// `empty` (the same titles, no players) and `bench` (the same titles, BENCH_PLAYER_COUNT players
// for `npm run bench`: even benchmark identifiers are linked, odd ones are not) are seed files
// like any user's (seeds/*.json, bundled); `--seed FILE` reads one from disk (seedfile/).
// Only the secret keys ("generate") and the launcher key pairs are made fresh at seed time.

import { createHash, randomInt } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import { PROFILE_CONSTRAINT_FLAGS } from '../core/api/operations';
import { expandPlayers, identities, parseSeedText, readSeedFile, SeedFileError } from './seedfile/seedFile';
import type { SeedDataEntry, SeedItem, SeedPlayer, SeedSpec, SeedTitle } from './seedfile/seedFile';
import type { AddonName, AddonsState, EmulatorData, ItemState, PlayerState, TitleState, UserDataEntry } from './state';
import demoSeed from './seeds/demo.json';
import emptySeed from './seeds/empty.json';
import benchSeed from './seeds/bench.json';

export type SeedName = 'demo' | 'empty' | 'bench';
export const SEED_NAMES: readonly SeedName[] = ['demo', 'empty', 'bench'];

const DEMO_PUBLISHER_ID = '5E1D0';
export const LAUNCHER_ISSUER = 'https://launcher-idp.emulator.local';

/** A seed to build: a built-in one by name, or a file's checked content. */
export interface SeedSource {
  /** The built-in name, or `file:PATH`. */
  name: string;
  spec: SeedSpec;
}

const BUILT_IN: Record<SeedName, unknown> = { demo: demoSeed, empty: emptySeed, bench: benchSeed };

/** A built-in seed (checked like a file: a broken one fails every test at once). */
export function builtInSeed(name: SeedName): SeedSource {
  return { name, spec: parseSeedText(JSON.stringify(BUILT_IN[name], null, 1), `seeds/${name}.json`) };
}

/** `--seed VALUE`: a built-in name, else a seed file's path. */
export function seedSource(value: string): SeedSource {
  if ((SEED_NAMES as readonly string[]).includes(value)) return builtInSeed(value as SeedName);
  return { name: `file:${value}`, spec: readSeedFile(value) };
}

export { SeedFileError };

export interface DemoTitle {
  titleId: string;
  name: string;
  /** The key tests ask for with fixed keys; runs get random ones (demoKeys). */
  secretKey: string;
  /** null: the title has no notification address (ExportMasterPlayerData answers 1006). */
  notificationEmail: string | null;
  launcherAudience: string;
}

export const DEMO_TITLES: readonly DemoTitle[] = [
  { titleId: 'F71AC', name: 'Demo Racer', secretKey: 'EMUDEMOKEYF71AC7Q2M9X4T8W1R6Y3U5P0S2N8B4C7D1', notificationEmail: 'privacy@demo-racer.example', launcherAudience: 'platform-title-F71AC' },
  { titleId: 'A248', name: 'Demo Racer Arena', secretKey: 'EMUDEMOKEYA248K5H8J2L6N3P9Q4R7S1T5V8W2X6Y9Z3', notificationEmail: null, launcherAudience: 'platform-title-A248' },
  // Another publisher's title, holding a second account of a demo person (DEMO_SECOND_ACCOUNT).
  { titleId: 'C3A5E', name: 'Kart Rivals', secretKey: 'EMUDEMOKEYC3A5E4M7Q1W8E3R6T9Y2U5I8O1P4A7S', notificationEmail: 'privacy@kart-rivals.example', launcherAudience: 'platform-title-C3A5E' },
];

/** The publisher of the third demo title (C3A5E). */
const DEMO_OTHER_PUBLISHER_ID = '7B2E4';

export interface DemoPlayer {
  platformId: string;
  username?: string;
  email?: string;
  displayName?: string;
  consoleLive: { sandbox: string; id: string }[];
  storefrontNames: string[];
  launcherSubject?: string;
  playedTitles: string[];
  banned: boolean;
}

const demoPlayer = (p: SeedPlayer): DemoPlayer => ({
  platformId: p.platformId!,
  username: p.username,
  email: p.contactEmail,
  displayName: p.displayName,
  consoleLive: p.consoleLive ?? [],
  storefrontNames: p.storefrontNames ?? [],
  launcherSubject: p.launcherSubjects?.[0],
  playedTitles: Object.keys(p.titles ?? {}),
  banned: p.bannedUntil !== undefined,
});
const demoSpec = demoSeed as unknown as SeedSpec;
const ofDemoPublisher = (p: SeedPlayer): boolean => (p.publisherId ?? demoSpec.publisherId) === DEMO_PUBLISHER_ID;

/** The demo players of the demo publisher (titles F71AC and A248; from seeds/demo.json), for tests and the demo to name. */
export const DEMO_PLAYERS: readonly DemoPlayer[] = demoSpec.players!.filter(ofDemoPublisher).map(demoPlayer);

/**
 * The second account of one demo person (Ana, DEMO_PLAYERS[0]): in the third title (C3A5E, of
 * another publisher), with the same e-mail and its own Storefront name.
 */
export const DEMO_SECOND_ACCOUNT: DemoPlayer & { of: string; titleId: string; publisherId: string } = {
  ...demoPlayer(demoSpec.players!.find((p) => !ofDemoPublisher(p))!),
  of: demoSpec.players![0].platformId!,
  titleId: 'C3A5E',
  publisherId: DEMO_OTHER_PUBLISHER_ID,
};

/** Players of the bench seed: one per even index below 2 x BENCH_PLAYER_COUNT. */
export const BENCH_PLAYER_COUNT = 5000;

/** The i-th benchmark Storefront name; linked by the bench seed when i is even. */
export function benchStorefrontName(i: number): string {
  return `bench_racer_${i}`;
}

/** The i-th benchmark ConsoleLive ID (RETAIL); linked by the bench seed when i is even. */
export function benchConsoleLiveId(i: number): string {
  return String(2533274900000000 + i);
}

/** Identifiers the demo seed does NOT link to any player. */
export const DEMO_UNLINKED = {
  consoleLiveIds: ['2533274899999991', '2533274899999992'],
  storefrontNames: ['nobody_here', 'ghost_racer'],
  launcherSubject: 'launcher-user-unlinked',
  platformId: 'ABCDEF0123456789',
} as const;

/** The add-on configuration a title starts with (also used to re-create one). */
export function defaultAddon<N extends AddonName>(titleId: string, name: N): AddonsState[N] {
  return defaultAddons(titleId)[name];
}

function defaultAddons(titleId: string): AddonsState {
  const env = (n: number, kind: string) => ({
    ClientID: `${titleId.toLowerCase()}-${kind}-client-${n}`,
    ClientSecret: createHash('sha256').update(`${titleId}-${kind}-${n}-secret`).digest('base64url'),
    ID: `${kind}-env-${n}`,
  });
  return {
    HandheldStore: {
      ApplicationID: createHash('sha256').update(`app-${titleId}`).digest('hex').slice(0, 16).toUpperCase(),
      Environments: [env(1, 'prod'), env(2, 'cert')],
      SecondarySubscriptionEnvironments: [],
      SubscriptionEnvironments: [env(1, 'sub')],
    },
    MobileStore: { PackageName: `com.example.${titleId.toLowerCase()}` },
    ConsoleNetB: { ProductId: `DEMO-${titleId}-B` },
  };
}

/** A fresh ES256 launcher key pair as JWKs. */
async function newLauncherKeys(): Promise<{ publicJwk: TitleState['launcher']['publicJwk']; privateJwk: TitleState['launcher']['privateJwk'] }> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  return { publicJwk: await exportJWK(publicKey), privateJwk: await exportJWK(privateKey) };
}

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function randomKey(titleId: string): string {
  return `EMU${titleId}${Array.from({ length: 32 }, () => KEY_ALPHABET[randomInt(KEY_ALPHABET.length)]).join('')}`;
}

/**
 * The demo titles' secret keys: random for each run (a published key would let any page that
 * reaches the emulator call its API), or the fixed DEMO_TITLES keys when tests ask for them.
 */
export function demoKeys(fixed: boolean): Record<string, string> {
  return Object.fromEntries(DEMO_TITLES.map((t) => [t.titleId, fixed ? t.secretKey : randomKey(t.titleId)]));
}

const hashId = (text: string, length = 16): string => {
  const hex = createHash('sha256').update(text).digest('hex').toUpperCase();
  return (hex[0] === '0' ? 'A' : hex[0]) + hex.slice(1, length);
};
const ms = (iso: string | undefined, fallback: number): number => (iso === undefined ? fallback : Date.parse(iso));

// eslint-disable-next-line complexity -- one member of the title per optional seed member (?? defaults, counted as branches)
function titleState(t: SeedTitle, publisherId: string, key: string | undefined, launcherKeys: Awaited<ReturnType<typeof newLauncherKeys>>): TitleState {
  const id = t.titleId.toUpperCase();
  const addons = defaultAddons(id);
  for (const name of ['HandheldStore', 'MobileStore', 'ConsoleNetB'] as const) {
    const a = t.addons?.[name];
    if (a !== undefined && a !== 'default') (addons as unknown as Record<string, unknown>)[name] = a === null || name !== 'HandheldStore' ? a : {
      Environments: [], SecondarySubscriptionEnvironments: [], SubscriptionEnvironments: [], ...(a as object),
    };
  }
  return {
    titleId: id,
    name: t.name,
    publisherId: (t.publisherId ?? publisherId).toUpperCase(),
    secretKey: key ?? (t.secretKey === undefined || t.secretKey === 'generate' ? randomKey(id) : t.secretKey),
    notificationEmail: t.notificationEmail === undefined ? `privacy@title-${id.toLowerCase()}.example` : t.notificationEmail,
    launcher: { enabled: t.launcher?.enabled ?? true, issuer: t.launcher?.issuer ?? LAUNCHER_ISSUER, audience: t.launcher?.audience ?? `platform-title-${id}`, ...launcherKeys },
    allowedProfileConstraints: t.allowedProfileConstraints ?? [...PROFILE_CONSTRAINT_FLAGS],
    ...(t.allowNonUniqueDisplayNames ? { allowNonUniqueDisplayNames: true } : {}),
    currencies: (t.currencies ?? []).map((c) => ({ ...c })),
    addons,
    titleData: { ...(t.titleData ?? {}) },
  };
}

function entries(m: Record<string, string | SeedDataEntry> | undefined, at: number): Record<string, UserDataEntry> {
  return Object.fromEntries(Object.entries(m ?? {}).map(([k, v]) => {
    const e = typeof v === 'string' ? { Value: v } : v;
    const out: UserDataEntry = { Value: e.Value, LastUpdated: ms(e.LastUpdated, at) };
    if (e.Permission !== undefined) out.Permission = e.Permission;
    return [k, out];
  }));
}

function items(list: SeedItem[] | undefined, at: number, idBase: string): ItemState[] {
  return (list ?? []).map((i, k) => {
    const out: ItemState = {
      ItemId: i.ItemId, ItemInstanceId: i.ItemInstanceId ?? hashId(`item-${idBase}-${k}`), ItemClass: i.ItemClass ?? '',
      DisplayName: i.DisplayName ?? i.ItemId, PurchaseDate: ms(i.PurchaseDate, at), UnitCurrency: i.UnitCurrency ?? 'GC', UnitPrice: i.UnitPrice ?? 0,
    };
    if (i.RemainingUses !== undefined) out.RemainingUses = i.RemainingUses;
    return out;
  });
}

// eslint-disable-next-line complexity -- one member of the player per optional seed member (?? defaults, counted as branches)
function playerState(p: SeedPlayer, platformId: string, publisherId: string, titles: Record<string, TitleState>, now: number): PlayerState {
  const created = ms(p.created, now);
  const perTitle: PlayerState['titles'] = {};
  for (const [rawId, t] of Object.entries(p.titles ?? {})) {
    const id = rawId.toUpperCase();
    const first = ms(t.firstLogin ?? t.created, created);
    const last = ms(t.lastLogin, first);
    const currency: Record<string, number> = {};
    for (const c of titles[id].currencies) currency[c.code] = c.initial;
    perTitle[id] = {
      titlePlayerAccountId: t.titlePlayerAccountId ?? hashId(`tpa-${id}-${platformId}`),
      ...(t.displayName !== undefined ? { displayName: t.displayName } : {}),
      created: ms(t.created, first), firstLogin: first, lastLogin: last,
      userData: entries(t.userData, last), userDataVersion: t.userDataVersion ?? 0,
      virtualCurrency: { ...currency, ...(t.virtualCurrency ?? {}) },
      readOnlyData: entries(t.readOnlyData, last), readOnlyDataVersion: t.readOnlyDataVersion ?? 0,
      inventory: items(t.inventory, first, `${id}-${platformId}`),
      characters: (t.characters ?? []).map((c, k) => ({
        CharacterId: c.CharacterId ?? hashId(`char-${id}-${platformId}-${k}`), CharacterName: c.CharacterName,
        CharacterType: c.CharacterType ?? '', inventory: items(c.inventory, first, `${id}-${platformId}-c${k}`),
      })),
      statistics: Object.fromEntries(Object.entries(t.statistics ?? {}).map(([k, s]) => [k, { value: s.value, version: s.version ?? 1 }])),
    };
  }
  const out: PlayerState = {
    platformId, publisherId: (p.publisherId ?? publisherId).toUpperCase(), created,
    totalValueToDateInUSD: p.totalValueToDateInUSD ?? 0, tags: p.tags ?? [],
    consoleLive: (p.consoleLive ?? []).map((l) => ({ ...l })), storefrontNames: [...(p.storefrontNames ?? [])],
    launcherSubjects: [...(p.launcherSubjects ?? [])], titles: perTitle,
    events: (p.events ?? []).map((e) => ({ name: e.name, titleId: e.titleId.toUpperCase(), time: ms(e.time, now), ...(e.data ? { data: { ...e.data } } : {}) })),
  };
  for (const k of ['username', 'displayName', 'avatarUrl', 'country', 'contactEmail', 'profileContactEmail'] as const) if (p[k] !== undefined) out[k] = p[k];
  if (p.bannedUntil !== undefined) out.bannedUntil = ms(p.bannedUntil, now);
  return out;
}

/** The data of `seed`; `keys` by title ID (kept across resets) override the file's. */
export async function buildSeed(seed: SeedName | SeedSource, keys: Record<string, string> = {}): Promise<EmulatorData> {
  const source = typeof seed === 'string' ? builtInSeed(seed) : seed;
  const spec = source.spec;
  const publisherId = spec.publisherId ?? DEMO_PUBLISHER_ID;
  const titles: Record<string, TitleState> = {};
  for (const t of spec.titles) titles[t.titleId.toUpperCase()] = titleState(t, publisherId, keys[t.titleId.toUpperCase()], await newLauncherKeys());
  const players: Record<string, PlayerState> = {};
  const taken = new Map<string, string>();
  const now = Date.now();
  const problem = (path: string, msg: string) => new SeedFileError(`The seed ${source.name.replace(/^file:/, '')} is not valid: ${path}: ${msg}.`);
  // Generated PlatformIds depend on the player's place in the file only (not on the file's path),
  // so a seed file gives the same IDs on every machine.
  const idBase = source.name.startsWith('file:') ? 'seed' : source.name;
  expandPlayers(spec).forEach(({ player, path }, i) => {
    const id = (player.platformId === undefined || player.platformId === 'generate' ? hashId(`${idBase}-player-${i}`) : player.platformId).toUpperCase();
    if (players[id]) throw problem(path, `PlatformId ${id} is used by another player too`);
    const p = playerState(player, id, publisherId, titles, now);
    for (const [, key] of identities(player)) {
      const k = `${p.publisherId} ${key}`;
      if (taken.has(k)) throw problem(path, `the ${key} is already linked to player ${taken.get(k)}`);
      taken.set(k, id);
    }
    players[id] = p;
  });
  return { titles, players, jobs: [], outbox: [], exports: [], events: [] };
}
