// Seed files: JSON checked against SEED_SCHEMA and for consistency (unique IDs, known titles,
// valid times), every problem reported as `FILE:LINE: member: what is wrong`; then built into
// the emulator's data, generating what the file leaves to the emulator (keys, IDs, times).
import { readFileSync, statSync } from 'node:fs';
import { checkSchema } from './schemaCheck';
import { childPath, JsonSyntaxError, lineOf, parseLocated } from './jsonLines';
import { MAX_SEED_PLAYERS, SEED_SCHEMA } from './seedSchema';

/** Seed files above this are refused before parsing. */
const MAX_SEED_FILE_BYTES = 64 * 1024 * 1024;
/** At most this many problems are listed; the rest are counted. */
const MAX_LISTED = 20;

export interface SeedDataEntry { Value: string; LastUpdated?: string; Permission?: string }
export interface SeedItem { ItemId: string; ItemInstanceId?: string; ItemClass?: string; DisplayName?: string; PurchaseDate?: string; RemainingUses?: number; UnitCurrency?: string; UnitPrice?: number }
export interface SeedPlayerTitle {
  titlePlayerAccountId?: string; displayName?: string; created?: string; firstLogin?: string; lastLogin?: string;
  userData?: Record<string, string | SeedDataEntry>; userDataVersion?: number;
  readOnlyData?: Record<string, string | SeedDataEntry>; readOnlyDataVersion?: number;
  virtualCurrency?: Record<string, number>; inventory?: SeedItem[];
  characters?: { CharacterId?: string; CharacterName: string; CharacterType?: string; inventory?: SeedItem[] }[];
  statistics?: Record<string, { value: number; version?: number }>;
}
export interface SeedPlayer {
  platformId?: string; publisherId?: string; created?: string; username?: string; displayName?: string; bannedUntil?: string;
  totalValueToDateInUSD?: number; avatarUrl?: string; tags?: string[]; country?: string; contactEmail?: string; profileContactEmail?: string;
  consoleLive?: { sandbox: string; id: string }[]; storefrontNames?: string[]; launcherSubjects?: string[];
  titles?: Record<string, SeedPlayerTitle>;
  events?: SeedPlayerEvent[];
}
export interface SeedPlayerEvent { name: string; titleId: string; time: string; data?: Record<string, string> }
type AddonSeed<T> = 'default' | null | T;
export interface SeedTitle {
  titleId: string; name: string; publisherId?: string; secretKey?: string; notificationEmail?: string | null;
  launcher?: { enabled?: boolean; issuer?: string; audience?: string };
  allowedProfileConstraints?: string[];
  allowNonUniqueDisplayNames?: boolean;
  currencies?: { code: string; initial: number; rechargeMax?: number; rechargeSeconds?: number }[];
  addons?: {
    HandheldStore?: AddonSeed<{ ApplicationID: string; Environments?: Env[]; SecondarySubscriptionEnvironments?: Env[]; SubscriptionEnvironments?: Env[] }>;
    MobileStore?: AddonSeed<{ PackageName: string }>;
    ConsoleNetB?: AddonSeed<{ ProductId: string }>;
  };
  titleData?: Record<string, string>;
}
interface Env { ClientID: string; ClientSecret: string; ID: string }
export interface SeedSpec {
  publisherId?: string;
  titles: SeedTitle[];
  players?: SeedPlayer[];
  playerTemplates?: { count: number; start?: number; step?: number; player: SeedPlayer }[];
}

/** A seed file that cannot be used; the message lists each problem with its line. */
export class SeedFileError extends Error {}

/** Seed times end where a loaded state's do (stateCheck.ts), so a seeded state always loads again. */
const YEAR_9000 = Date.UTC(9000, 0, 1);

/**
 * What identifies `p` among the players of its publisher, each unique there: the member it is
 * written in (a path relative to the player) and how it reads in a message. Title display names
 * are unique per title.
 */
export function identities(p: SeedPlayer): [(string | number)[], string][] {
  const out: [(string | number)[], string][] = [
    ...(p.consoleLive ?? []).map((l, j): [(string | number)[], string] => [['consoleLive', j], `ConsoleLive ${l.sandbox} ${l.id}`]),
    ...(p.storefrontNames ?? []).map((n, j): [(string | number)[], string] => [['storefrontNames', j], `Storefront name ${n}`]),
    ...(p.launcherSubjects ?? []).map((s, j): [(string | number)[], string] => [['launcherSubjects', j], `launcher subject ${s}`]),
  ];
  if (p.username !== undefined) out.push([['username'], `username ${p.username}`]);
  if (p.contactEmail !== undefined) out.push([['contactEmail'], `e-mail ${p.contactEmail.toLowerCase()}`]);
  for (const [id, t] of Object.entries(p.titles ?? {})) {
    const name = t.displayName ?? p.displayName;
    if (name !== undefined) out.push([t.displayName !== undefined ? ['titles', id, 'displayName'] : ['displayName'], `display name ${name} in title ${id.toUpperCase()}`]);
  }
  return out;
}

/** Checks a parsed seed; problems as [path, message]. */
function consistency(spec: SeedSpec): [string, string][] {
  const out: [string, string][] = [];
  const titleIds = new Map<string, number>();
  spec.titles.forEach((t, i) => {
    const id = t.titleId.toUpperCase();
    if (titleIds.has(id)) out.push([`titles[${i}].titleId`, `title ${id} is already defined by titles[${titleIds.get(id)}]; title IDs must be unique`]);
    else titleIds.set(id, i);
  });
  const times = (o: object, path: string): void => {
    for (const [k, v] of Object.entries(o)) {
      const at = childPath(path, Array.isArray(o) ? Number(k) : k);
      if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v) && ['created', 'firstLogin', 'lastLogin', 'bannedUntil', 'LastUpdated', 'PurchaseDate', 'time'].includes(k)) {
        const ms = Date.parse(v);
        // Date.parse rolls 30 February over into March: the time must read back as written.
        if (!Number.isFinite(ms) || ms < 0 || ms >= YEAR_9000 || new Date(ms).toISOString().slice(0, 19) !== v.slice(0, 19)) out.push([at, `${JSON.stringify(v)} is not a time from 1970 to 8999`]);
      } else if (v && typeof v === 'object') times(v as object, at);
    }
  };
  times(spec, '');
  const players = (p: SeedPlayer, path: string) => {
    for (const id of Object.keys(p.titles ?? {})) {
      if (!titleIds.has(id.toUpperCase())) out.push([childPath(childPath(path, 'titles'), id), `title ${id} is not among the file's titles; add it to "titles" or remove it here`]);
    }
    const played = new Set(Object.keys(p.titles ?? {}).map((id) => id.toUpperCase()));
    p.events?.forEach((e, j) => {
      if (!played.has(e.titleId.toUpperCase())) out.push([childPath(childPath(childPath(path, 'events'), j), 'titleId'), `title ${e.titleId} is not among this player's titles; add it there or change the event's titleId`]);
    });
  };
  spec.players?.forEach((p, i) => players(p, `players[${i}]`));
  // Identities written out in the file: a second use is named at its line (templates are checked when built).
  const ids = new Map<string, string>();
  const taken = new Map<string, string>();
  spec.players?.forEach((p, i) => {
    const path = `players[${i}]`;
    if (typeof p.platformId === 'string' && p.platformId !== 'generate') {
      const id = p.platformId.toUpperCase();
      if (ids.has(id)) out.push([childPath(path, 'platformId'), `PlatformId ${id} is already used by ${ids.get(id)}; PlatformIds must be unique`]);
      else ids.set(id, path);
    }
    const ns = p.publisherId ?? spec.publisherId ?? '';
    const named = identities(p).map(([member, what]) => [member.reduce<string>(childPath, path), what]);
    for (const [at, what] of named) {
      const k = `${ns} ${what}`;
      if (taken.has(k)) out.push([at, `the ${what} is already linked to ${taken.get(k)}; each identity belongs to one player of a publisher`]);
      else taken.set(k, path);
    }
  });
  spec.playerTemplates?.forEach((t, i) => players(t.player, `playerTemplates[${i}].player`));
  const total = (spec.players?.length ?? 0) + (spec.playerTemplates ?? []).reduce((n, t) => n + t.count, 0);
  if (total > MAX_SEED_PLAYERS) out.push(['playerTemplates', `the seed makes ${total} players; the limit is ${MAX_SEED_PLAYERS}`]);
  return out;
}

/** Parses and checks seed text; `label` names it in errors (the file's path). */
export function parseSeedText(text: string, label: string): SeedSpec {
  let located;
  try {
    located = parseLocated(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new SeedFileError(`${label}:${e.line}: not valid JSON: ${e.message}`);
    throw e;
  }
  let problems: [string, string][] = checkSchema(SEED_SCHEMA, located.value).map((i) => [i.path, i.message]);
  if (problems.length === 0) problems = consistency(located.value as SeedSpec);
  if (problems.length > 0) {
    const lines = problems.slice(0, MAX_LISTED).map(([path, msg]) => `${label}:${lineOf(located.lines, path)}: ${path || '(the file)'}: ${msg}`);
    if (problems.length > MAX_LISTED) lines.push(`… and ${problems.length - MAX_LISTED} more problems`);
    const schemaHint = 'The format: platform-emulator --print-seed-schema.';
    throw new SeedFileError(`The seed file ${label} is not valid (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${lines.join('\n')}\n${schemaHint}`);
  }
  return located.value as SeedSpec;
}

export function readSeedFile(file: string): SeedSpec {
  let text: string;
  try {
    // Checked before reading: a device or a pipe (e.g. a link to /dev/zero) would be read forever.
    const st = statSync(file);
    if (!st.isFile()) throw new SeedFileError(`The seed file ${file} is not a regular file; give the path of a seed JSON file.`);
    if (st.size > MAX_SEED_FILE_BYTES) throw new SeedFileError(`The seed file ${file} is over ${MAX_SEED_FILE_BYTES / 1024 / 1024} MB; use playerTemplates for many similar players.`);
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof SeedFileError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new SeedFileError(code === 'ENOENT' ? `The seed file ${file} does not exist; give the path of a seed JSON file, or demo, empty or bench.` : `Cannot read the seed file ${file}: ${(e as Error).message}`);
  }
  if (text.length > MAX_SEED_FILE_BYTES) throw new SeedFileError(`The seed file ${file} is over ${MAX_SEED_FILE_BYTES / 1024 / 1024} MB; use playerTemplates for many similar players.`);
  return parseSeedText(text, file);
}

function fill(v: unknown, n: number): unknown {
  if (typeof v === 'string') return v.replace(/\{n(?::(\d{1,2}))?\}/g, (_m, w: string | undefined) => String(n).padStart(Number(w ?? 0), '0'));
  if (Array.isArray(v)) return v.map((x) => fill(x, n));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x, n)]));
  return v;
}

/** The file's players with each template expanded (`{n}` filled in). */
export function expandPlayers(spec: SeedSpec): { player: SeedPlayer; path: string }[] {
  const out = (spec.players ?? []).map((player, i) => ({ player, path: `players[${i}]` }));
  (spec.playerTemplates ?? []).forEach((t, k) => {
    for (let i = 0; i < t.count; i++) {
      out.push({ player: fill(t.player, (t.start ?? 0) + i * (t.step ?? 1)) as SeedPlayer, path: `playerTemplates[${k}] (n=${(t.start ?? 0) + i * (t.step ?? 1)})` });
    }
  });
  return out;
}
