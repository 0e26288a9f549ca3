// Resolution: every configured title that has a key is asked about every identifier (lookups are
// title-specific), paced per title: Storefront names and ConsoleLive IDs in lookups of 25,
// e-mails, usernames, title display names and PlatformIds one GetUserAccountInfo each. The accounts
// found are then de-duplicated (a PlatformId is one master account, whichever titles found it) and
// each is checked once with GetPlayedTitleList, which shows the titles of its publisher it touches.
import { PlatformError } from '../api/errors';
import { ErrorCodes } from '../api/types';
import { Pacer } from '../pacing/pacer';
import { isPlatformId } from '../ids';
import { checkPlayedTitles } from '../playedTitles';
import { serviceText, shownPlatformId } from '../serviceText';
import type { Account, DataRequest, Finding, Identifier, RequestClient, RequestServices, Resolution, ResolutionCall } from './types';
import { DISPLAY_NAME_SKIPPED } from './words';

/** GetUserAccountInfo requests in flight per title at most. */
const ACCOUNT_INFO_CONCURRENCY = 4;

const FIELD: Record<'platformid' | 'email' | 'username' | 'displayname', 'PlatformId' | 'Email' | 'Username' | 'TitleDisplayName'> = {
  platformid: 'PlatformId', email: 'Email', username: 'Username', displayname: 'TitleDisplayName',
};

const errorText = (e: unknown): string => serviceText(e instanceof Error ? e.message : String(e), { max: 300 });
const isThrottle = (e: unknown): e is PlatformError => e instanceof PlatformError && (e.httpStatus === 429 || e.errorCode === ErrorCodes.APIClientRequestRateLimitExceeded);
/** A refused key or title stops that title's lookups: every identifier would fail alike. */
const stopsTitle = (e: unknown): boolean => e instanceof PlatformError && (e.kind === 'cancelled' || e.httpStatus === 401 || e.httpStatus === 403);

interface TitleRun {
  titleId: string;
  client: RequestClient;
  findings: Finding[];
  calls: ResolutionCall[];
  /** Lookups not sent (display names on a title that allows non-unique ones). */
  skipped: NonNullable<Resolution['lookupsSkipped']>;
  /** The title allows non-unique display names (the request says so). */
  displayNamesNotUnique: boolean;
  signal?: AbortSignal;
  now: () => Date;
}

/** A lookup's PlatformId as kept: a well-formed one upper-cased; anything else is not an account. */
function accountId(v: unknown): string | null {
  const shown = shownPlatformId(v);
  return shown !== null && isPlatformId(shown) ? shown.toUpperCase() : null;
}

async function bulkLookups(t: TitleRun, ids: readonly Identifier[], indexOf: Map<Identifier, number>): Promise<void> {
  const groups = new Map<string, Identifier[]>();
  for (const x of ids) {
    if (x.kind !== 'storefront' && x.kind !== 'consolelive') continue;
    const key = x.kind === 'storefront' ? 'storefront' : `consolelive:${x.sandbox ?? 'RETAIL'}`;
    groups.set(key, [...(groups.get(key) ?? []), x]);
  }
  for (const [key, group] of groups) {
    const byValue = new Map(group.map((x) => [x.value, indexOf.get(x)!]));
    const operation = key === 'storefront' ? 'GetPlatformIDsFromStorefrontNames' : 'GetPlatformIDsFromConsoleLiveIDs';
    const onResolved = (m: ReadonlyMap<string, string | null>): void => {
      const found: number[] = [];
      for (const [value, pid] of m) {
        const i = byValue.get(value);
        if (i === undefined) continue;
        found.push(i);
        t.findings.push({ identifier: i, titleId: t.titleId, platformId: accountId(pid) });
      }
      t.calls.push({ at: t.now().toISOString(), titleId: t.titleId, operation, identifiers: found, outcome: 'answered' });
    };
    const values = [...byValue.keys()];
    try {
      if (key === 'storefront') await t.client.getPlatformIdsFromStorefrontNames(values, { signal: t.signal, onResolved });
      else await t.client.getPlatformIdsFromConsoleLiveIds(values, key.slice('consolelive:'.length), { signal: t.signal, onResolved });
    } catch (e) {
      if (t.signal?.aborted === true) throw e;
      const answered = new Set(t.findings.filter((f) => f.titleId === t.titleId).map((f) => f.identifier));
      const failed = values.map((v) => byValue.get(v)!).filter((i) => !answered.has(i));
      t.calls.push({ at: t.now().toISOString(), titleId: t.titleId, operation, identifiers: failed, outcome: `failed: ${errorText(e)}` });
      for (const i of failed) t.findings.push({ identifier: i, titleId: t.titleId, platformId: null, error: errorText(e) });
    }
  }
}

async function accountInfoLookups(t: TitleRun, ids: readonly Identifier[], indexOf: Map<Identifier, number>): Promise<void> {
  const todo = ids.filter((x) => x.kind in FIELD && !(x.kind === 'displayname' && t.displayNamesNotUnique));
  for (const x of ids) if (x.kind === 'displayname' && t.displayNamesNotUnique) t.skipped.push({ identifier: indexOf.get(x)!, titleId: t.titleId, reason: DISPLAY_NAME_SKIPPED });
  const pacer = new Pacer({ maxInFlight: ACCOUNT_INFO_CONCURRENCY });
  let stopped: string | undefined;
  const one = async (x: Identifier): Promise<void> => {
    const i = indexOf.get(x)!;
    const record = (platformId: string | null, outcome: string, error?: string): void => {
      t.calls.push({ at: t.now().toISOString(), titleId: t.titleId, operation: 'GetUserAccountInfo', identifiers: [i], outcome });
      t.findings.push({ identifier: i, titleId: t.titleId, platformId, ...(error !== undefined ? { error } : {}) });
    };
    for (let attempt = 0; ; attempt++) {
      if (!(await pacer.acquire(t.signal))) throw new PlatformError({ kind: 'cancelled', message: 'Cancelled while resolving; nothing was sent.', hint: 'Run it again when ready.' });
      try {
        // Checked once the slot is ours: a lookup that waited for it while the title was stopped is not sent.
        if (stopped !== undefined) return record(null, `not sent: ${stopped}`, stopped);
        const r = await t.client.getUserAccountInfo({ [FIELD[x.kind as keyof typeof FIELD]]: x.value }, { signal: t.signal });
        pacer.onSuccess();
        const pid = accountId(r?.UserInfo?.PlatformId);
        return record(pid, pid === null ? 'answered without a PlatformId' : 'found');
      } catch (e) {
        if (e instanceof PlatformError && e.errorCode === ErrorCodes.AccountNotFound) return record(null, 'not-found');
        if (isThrottle(e) && attempt < 20) {
          pacer.onThrottle(e.retryAfterSeconds);
          continue;
        }
        if (t.signal?.aborted === true) throw e;
        if (stopsTitle(e)) stopped = errorText(e);
        return record(null, `failed: ${errorText(e)}`, errorText(e));
      } finally {
        pacer.release();
      }
    }
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < todo.length) await one(todo[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(ACCOUNT_INFO_CONCURRENCY, todo.length) }, worker));
}

/** Resolves a request's identifiers in every configured title with a key (titles in parallel, each paced). */
export async function resolveRequest(r: DataRequest, services: RequestServices): Promise<Resolution> {
  const now = services.now ?? (() => new Date());
  const indexOf = new Map(r.identifiers.map((x, i) => [x, i]));
  const titlesSkipped: Resolution['titlesSkipped'] = [];
  const runs: TitleRun[] = [];
  for (const titleId of r.titles) {
    const client = services.client(titleId);
    if (client === undefined) titlesSkipped.push({ titleId, reason: 'no secret key for this title' });
    else runs.push({ titleId, client, findings: [], calls: [], skipped: [], displayNamesNotUnique: r.displayNamesNotUnique?.includes(titleId) === true, signal: services.signal, now });
  }
  await Promise.all(runs.map(async (t) => {
    await Promise.all([bulkLookups(t, r.identifiers, indexOf), accountInfoLookups(t, r.identifiers, indexOf)]);
  }));
  const findings = runs.flatMap((t) => t.findings).sort((a, b) => a.identifier - b.identifier || r.titles.indexOf(a.titleId) - r.titles.indexOf(b.titleId));
  const calls = runs.flatMap((t) => t.calls);
  const lookupsSkipped = runs.flatMap((t) => t.skipped);

  // One account per PlatformId; the first configured title that found it sends its actions.
  const accounts = new Map<string, Account>();
  for (const titleId of r.titles) {
    for (const f of findings) {
      if (f.titleId !== titleId || f.platformId === null) continue;
      const a = accounts.get(f.platformId) ?? { platformId: f.platformId, titleIds: [], foundIn: [], identifiers: [], senderTitleId: titleId };
      if (!a.foundIn.includes(titleId)) a.foundIn.push(titleId);
      if (!a.identifiers.includes(f.identifier)) a.identifiers.push(f.identifier);
      accounts.set(f.platformId, a);
    }
  }
  const gone: string[] = [];
  const bySender = new Map<string, Account[]>();
  for (const a of accounts.values()) bySender.set(a.senderTitleId, [...(bySender.get(a.senderTitleId) ?? []), a]);
  await Promise.all([...bySender].map(async ([titleId, list]) => {
    const client = services.client(titleId)!;
    const checked = await checkPlayedTitles(client, list.map((a) => a.platformId), {
      signal: services.signal,
      onChecked: (platformId, check) => {
        calls.push({ at: now().toISOString(), titleId, operation: 'GetPlayedTitleList', platformId, outcome: check.status === 'failed' ? `failed: ${serviceText(check.reason, { max: 300 })}` : check.status });
      },
    });
    for (const a of list) {
      const c = checked.get(a.platformId);
      if (c?.status === 'found') a.titleIds = c.titleIds.map((x) => serviceText(x, { max: 64 }));
      else if (c?.status === 'not-found') gone.push(a.platformId);
      else a.error = c?.status === 'failed' ? serviceText(c.reason, { max: 300 }) : 'not checked';
    }
  }));
  for (const a of accounts.values()) a.identifiers.sort((x, y) => x - y);
  return {
    at: now().toISOString(), titlesAsked: runs.map((t) => t.titleId), titlesSkipped, findings,
    accounts: [...accounts.values()].filter((a) => !gone.includes(a.platformId)), gone, calls,
    ...(lookupsSkipped.length > 0 ? { lookupsSkipped } : {}),
  };
}
