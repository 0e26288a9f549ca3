// What an export's download link serves: everything the emulator holds for a master account, in
// every title of its publisher, as plain JSON. Nothing secret is in the player's records (keys,
// launcher keys and add-on secrets belong to titles, tokens are never stored), and none is added.
import { eventsAt, isoUtc } from './state';
import type { EmulatorData, ItemState, PlayerState, UserDataEntry } from './state';

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : isoUtc(ms));

function dataEntries(m: Record<string, UserDataEntry> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(m ?? {}).map(([k, e]) => [k, { Value: e.Value, LastUpdated: isoUtc(e.LastUpdated), Permission: e.Permission ?? null }]));
}

function items(list: ItemState[] | undefined): unknown[] {
  return (list ?? []).map((i) => ({ ...i, PurchaseDate: isoUtc(i.PurchaseDate) }));
}

/** The export of `player` (or, when the account is gone by the time the job runs, a document saying so). */
export function exportDocument(data: EmulatorData, platformId: string, player: PlayerState | undefined, job: { JobReceiptId: string; createdAt: number }, now: number): unknown {
  const head = { format: 'platform-emulator-player-export', version: 1, JobReceiptId: job.JobReceiptId, PlatformId: platformId, RequestTime: isoUtc(job.createdAt), ExportedAt: isoUtc(now) };
  if (!player) return { ...head, account: null, note: 'The account no longer existed when the export ran (its master account deletion completed first).' };
  const titles = Object.entries(player.titles).filter(([id]) => data.titles[id]?.publisherId === player.publisherId);
  return {
    ...head,
    publisherId: player.publisherId,
    account: {
      created: isoUtc(player.created), username: player.username ?? null, email: player.contactEmail ?? null,
      displayName: player.displayName ?? null, avatarUrl: player.avatarUrl ?? null, country: player.country ?? null,
      tags: player.tags ?? [], bannedUntil: iso(player.bannedUntil), totalValueToDateInUSD: player.totalValueToDateInUSD,
      linkedAccounts: { consoleLive: player.consoleLive, storefrontNames: player.storefrontNames, launcherSubjects: player.launcherSubjects },
    },
    titles: Object.fromEntries(titles.map(([id, t]) => [id, {
      titleName: data.titles[id].name,
      titlePlayerAccountId: t.titlePlayerAccountId,
      displayName: t.displayName ?? player.displayName ?? null,
      created: isoUtc(t.created), firstLogin: isoUtc(t.firstLogin), lastLogin: isoUtc(t.lastLogin),
      userData: dataEntries(t.userData), userDataVersion: t.userDataVersion,
      readOnlyData: dataEntries(t.readOnlyData), readOnlyDataVersion: t.readOnlyDataVersion ?? 0,
      virtualCurrency: t.virtualCurrency,
      inventory: items(t.inventory),
      characters: (t.characters ?? []).map((c) => ({ ...c, inventory: items(c.inventory) })),
      statistics: t.statistics ?? {},
    }])),
    events: eventsAt(player, now).map((e) => ({ name: e.name, titleId: e.titleId, time: isoUtc(e.time), data: e.data ?? {} })),
  };
}
