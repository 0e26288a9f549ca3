// Seeds: `demo` (two titles of one publisher, a few dozen players with every kind of link),
// `empty` (the same titles, no players) and `bench` (the same titles, BENCH_PLAYER_COUNT
// players for `npm run bench`: even benchmark identifiers are linked, odd ones are not).
// The demo data is deterministic and exported so
// tests and the demo can name known linked and unlinked identifiers; only the launcher key
// pairs are generated fresh at seed time.

import { createHash, randomInt } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import { PROFILE_CONSTRAINT_FLAGS } from '../core/api/operations';
import type {
  AddonName,
  ItemState,
  AddonsState,
  EmulatorData,
  PlayerState,
  PlayerTitleState,
  TitleState,
} from './state';

export type SeedName = 'demo' | 'empty' | 'bench';
export const SEED_NAMES: readonly SeedName[] = ['demo', 'empty', 'bench'];

export const DEMO_PUBLISHER_ID = '5E1D0';
export const LAUNCHER_ISSUER = 'https://launcher-idp.emulator.local';

export interface DemoTitle {
  titleId: string;
  name: string;
  /** The key tests ask for with fixed keys; runs get random ones (demoKeys). */
  secretKey: string;
  notificationEmail: string;
  launcherAudience: string;
}

export const DEMO_TITLES: readonly DemoTitle[] = [
  {
    titleId: 'F71AC',
    name: 'Demo Racer',
    secretKey: 'EMUDEMOKEYF71AC7Q2M9X4T8W1R6Y3U5P0S2N8B4C7D1',
    notificationEmail: 'privacy@demo-racer.example',
    launcherAudience: 'platform-title-F71AC',
  },
  {
    titleId: 'A248',
    name: 'Demo Racer Arena',
    secretKey: 'EMUDEMOKEYA248K5H8J2L6N3P9Q4R7S1T5V8W2X6Y9Z3',
    notificationEmail: 'privacy@demo-racer-arena.example',
    launcherAudience: 'platform-title-A248',
  },
];

export interface DemoPlayer {
  platformId: string;
  displayName?: string;
  consoleLive: { sandbox: string; id: string }[];
  storefrontNames: string[];
  launcherSubject?: string;
  playedTitles: string[];
  banned: boolean;
}

const DEMO_PLAYER_COUNT = 36;
const DAY_MS = 24 * 60 * 60 * 1000;
const DEMO_EPOCH = Date.UTC(2025, 0, 6, 9, 30, 0);
const NAMES = ['Ana', 'Bo', 'Cy', 'Dee', 'Eli', 'Fay', 'Gus', 'Hal', 'Ivy', 'Jo', 'Kai', 'Lu'];

function demoPlatformId(i: number): string {
  const hex = createHash('sha256').update(`demo-player-${i}`).digest('hex').toUpperCase();
  // A few shorter IDs: the service has 14- and 15-character PlatformIds too.
  const length = i % 11 === 4 ? 14 : i % 11 === 7 ? 15 : 16;
  // No leading zero, so the ID never looks like a shorter one.
  return (hex[0] === '0' ? 'A' : hex[0]) + hex.slice(1, length);
}

function buildDemoPlayers(): DemoPlayer[] {
  const players: DemoPlayer[] = [];
  for (let i = 0; i < DEMO_PLAYER_COUNT; i++) {
    const name = `${NAMES[i % NAMES.length]}${Math.floor(i / NAMES.length) || ''}`;
    const consoleLive: { sandbox: string; id: string }[] = [];
    if (i % 2 === 0) consoleLive.push({ sandbox: 'RETAIL', id: String(2533274800000000 + i * 7919) });
    if (i % 5 === 0) consoleLive.push({ sandbox: 'XDKS.1', id: String(2814749700000000 + i * 104729) });
    const playedTitles = i % 7 === 6 ? ['A248'] : i % 3 === 0 ? ['F71AC', 'A248'] : ['F71AC'];
    players.push({
      platformId: demoPlatformId(i),
      displayName: i % 9 === 8 ? undefined : `${name} the Racer`,
      consoleLive,
      storefrontNames: i % 3 === 2 ? [] : [`racer_${name.toLowerCase()}_${i}`],
      launcherSubject: i % 4 === 3 ? undefined : `launcher-user-${String(i).padStart(4, '0')}`,
      playedTitles,
      banned: i === DEMO_PLAYER_COUNT - 2,
    });
  }
  return players;
}

/** The demo players (deterministic). */
export const DEMO_PLAYERS: readonly DemoPlayer[] = buildDemoPlayers();

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

function buildBenchPlayers(): DemoPlayer[] {
  const players: DemoPlayer[] = [];
  for (let i = 0; i < 2 * BENCH_PLAYER_COUNT; i += 2) {
    const hex = createHash('sha256').update(`bench-player-${i}`).digest('hex').toUpperCase();
    players.push({
      platformId: (hex[0] === '0' ? 'B' : hex[0]) + hex.slice(1, 16),
      displayName: `Bench ${i}`,
      consoleLive: [{ sandbox: 'RETAIL', id: benchConsoleLiveId(i) }],
      storefrontNames: [benchStorefrontName(i)],
      playedTitles: ['F71AC'],
      banned: false,
    });
  }
  return players;
}

/** Identifiers the demo seed does NOT link to any player. */
export const DEMO_UNLINKED = {
  consoleLiveIds: ['2533274899999991', '2533274899999992'],
  storefrontNames: ['nobody_here', 'ghost_racer'],
  launcherSubject: 'launcher-user-unlinked',
  platformId: 'ABCDEF0123456789',
} as const;

function titleState(t: DemoTitle, keys: { publicJwk: TitleState['launcher']['publicJwk']; privateJwk: TitleState['launcher']['privateJwk'] }): TitleState {
  return {
    titleId: t.titleId,
    name: t.name,
    publisherId: DEMO_PUBLISHER_ID,
    secretKey: t.secretKey,
    notificationEmail: t.notificationEmail,
    launcher: { enabled: true, issuer: LAUNCHER_ISSUER, audience: t.launcherAudience, ...keys },
    // Demo Racer allows every flag but the memberships; the arena only the display name.
    allowedProfileConstraints: t.titleId === 'F71AC'
      ? PROFILE_CONSTRAINT_FLAGS.filter((f) => f !== 'ShowMemberships')
      : ['ShowDisplayName'],
    currencies: t.titleId === 'F71AC'
      ? [{ code: 'GC', initial: 100 }, { code: 'EN', initial: 5, rechargeMax: 10, rechargeSeconds: 300 }]
      : [{ code: 'GC', initial: 50 }],
    addons: defaultAddons(t.titleId),
    titleData: t.titleId === 'F71AC'
      ? { Season: '3', MessageOfTheDay: 'Harbour night races this weekend', MaxCarsPerGarage: '12' }
      : { Season: '1' },
  };
}

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

const COUNTRIES = ['DE', 'US', 'JP', 'BR', 'FR', 'CA'];

function demoItems(titleId: string, index: number, purchased: number): ItemState[] {
  const items: ItemState[] = [{
    ItemId: 'car_starter', ItemInstanceId: createHash('sha256').update(`item-${titleId}-${index}-1`).digest('hex').slice(0, 16).toUpperCase(),
    ItemClass: 'Car', DisplayName: 'Starter Coupe', PurchaseDate: purchased, UnitCurrency: 'GC', UnitPrice: 0,
  }];
  if (index % 3 === 1) {
    items.push({
      ItemId: 'nitro_pack', ItemInstanceId: createHash('sha256').update(`item-${titleId}-${index}-2`).digest('hex').slice(0, 16).toUpperCase(),
      ItemClass: 'Consumable', DisplayName: 'Nitro Pack', PurchaseDate: purchased + DAY_MS, RemainingUses: 3, UnitCurrency: 'GC', UnitPrice: 25,
    });
  }
  return items;
}

function playerState(p: DemoPlayer, index: number, titles: Record<string, TitleState>): PlayerState {
  const created = DEMO_EPOCH + index * DAY_MS;
  const perTitle: Record<string, PlayerTitleState> = {};
  p.playedTitles.forEach((titleId, k) => {
    const first = created + k * 3 * DAY_MS;
    const last = first + (index % 6) * DAY_MS + 3_600_000;
    const currency: Record<string, number> = {};
    for (const c of titles[titleId].currencies) currency[c.code] = c.initial + index * 10;
    perTitle[titleId] = {
      titlePlayerAccountId: createHash('sha256').update(`tpa-${titleId}-${p.platformId}`).digest('hex').slice(0, 16).toUpperCase(),
      created: first,
      firstLogin: first,
      lastLogin: last,
      userData: {
        Garage: { Value: JSON.stringify({ cars: 1 + (index % 4) }), LastUpdated: last, Permission: 'Public' },
        LastTrack: { Value: ['Harbour', 'Canyon', 'Summit'][index % 3], LastUpdated: last },
        Settings: { Value: JSON.stringify({ units: index % 2 ? 'metric' : 'imperial' }), LastUpdated: first },
      },
      userDataVersion: 3 + index,
      virtualCurrency: currency,
      readOnlyData: {
        Rank: { Value: ['Rookie', 'Pro', 'Legend'][index % 3], LastUpdated: last },
        Season1Reward: { Value: index % 2 ? 'claimed' : 'unclaimed', LastUpdated: first, Permission: 'Public' },
      },
      readOnlyDataVersion: 1 + (index % 4),
      inventory: demoItems(titleId, index, first),
      characters: index % 2 === 0 ? [{
        CharacterId: createHash('sha256').update(`char-${titleId}-${p.platformId}`).digest('hex').slice(0, 16).toUpperCase(),
        CharacterName: `Driver ${index}`,
        CharacterType: 'Driver',
        inventory: demoItems(`${titleId}-char`, index, first).slice(0, 1),
      }] : [],
      statistics: {
        Wins: { value: index * 3, version: 1 },
        BestLapMs: { value: 60_000 + index * 731, version: 2 },
      },
    };
  });
  return {
    platformId: p.platformId,
    publisherId: DEMO_PUBLISHER_ID,
    created,
    username: p.displayName ? `user${index}` : undefined,
    displayName: p.displayName,
    bannedUntil: p.banned ? Date.UTC(2099, 0, 1) : undefined,
    // Whole US cents, as the service reports TotalValueToDateInUSD.
    totalValueToDateInUSD: (index % 5) * 499,
    avatarUrl: index % 4 === 0 ? `https://avatars.example/racer/${index}.png` : undefined,
    tags: index % 3 === 0 ? ['beta-tester', 'season-3'] : [],
    country: COUNTRIES[index % COUNTRIES.length],
    contactEmail: index % 4 === 0 ? `racer${index}@players.example` : undefined,
    consoleLive: p.consoleLive.map((l) => ({ ...l })),
    storefrontNames: [...p.storefrontNames],
    launcherSubjects: p.launcherSubject ? [p.launcherSubject] : [],
    titles: perTitle,
  };
}

/** A fresh ES256 launcher key pair as JWKs. */
export async function newLauncherKeys(): Promise<{ publicJwk: TitleState['launcher']['publicJwk']; privateJwk: TitleState['launcher']['privateJwk'] }> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  return { publicJwk: await exportJWK(publicKey), privateJwk: await exportJWK(privateKey) };
}

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * The demo titles' secret keys: random for each run (a published key would let any page that
 * reaches the emulator call its API), or the fixed DEMO_TITLES keys when tests ask for them.
 */
export function demoKeys(fixed: boolean): Record<string, string> {
  const random = () => Array.from({ length: 32 }, () => KEY_ALPHABET[randomInt(KEY_ALPHABET.length)]).join('');
  return Object.fromEntries(DEMO_TITLES.map((t) => [t.titleId, fixed ? t.secretKey : `EMU${t.titleId}${random()}`]));
}

/** `keys` by title ID (demoKeys); random when absent. */
export async function buildSeed(seed: SeedName, keys: Record<string, string> = demoKeys(false)): Promise<EmulatorData> {
  const titles: Record<string, TitleState> = {};
  for (const t of DEMO_TITLES) titles[t.titleId] = titleState({ ...t, secretKey: keys[t.titleId] ?? t.secretKey }, await newLauncherKeys());
  const players: Record<string, PlayerState> = {};
  if (seed === 'demo') {
    DEMO_PLAYERS.forEach((p, i) => { players[p.platformId] = playerState(p, i, titles); });
  } else if (seed === 'bench') {
    buildBenchPlayers().forEach((p, i) => { players[p.platformId] = playerState(p, i, titles); });
  }
  return { titles, players, jobs: [], outbox: [] };
}
