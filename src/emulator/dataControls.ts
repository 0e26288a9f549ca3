// Test controls for data-subject requests (/_emulator/, loopback only): every player with the
// identifiers a ticket may name, the service's emitted events, export jobs and their download
// links, and a title's notification address.
import { EVENT_TYPES, eventsOf } from './events';
import { DOWNLOAD_PATH } from './exports';
import { invalidParams } from './http';
import type { PlatformService } from './service';
import { titleDisplayName } from './state';

type Json = Record<string, unknown>;

/** GET players: each player with its publisher, the titles played and every identifier it can be found by. */
function listPlayers(service: PlatformService): unknown {
  return {
    players: Object.values(service.data.players).map((p) => ({
      PlatformId: p.platformId,
      publisherId: p.publisherId,
      titlesPlayed: Object.keys(p.titles),
      email: p.contactEmail ?? null,
      username: p.username ?? null,
      /** The player's display name in each title played (GetUserAccountInfo's TitleDisplayName). */
      displayNames: Object.fromEntries(Object.entries(p.titles).map(([id, t]) => [id, titleDisplayName(p, t) ?? null])),
      storefrontNames: p.storefrontNames,
      consoleLiveIds: p.consoleLive.map((l) => l.id),
      consoleLive: p.consoleLive,
      launcherSubjects: p.launcherSubjects,
      eventCount: p.events?.length ?? 0,
    })),
  };
}

/** Runs a data-request control, or answers undefined when `method path` is none of them. */
export async function runDataControl(service: PlatformService, method: string, path: string, body: Json, query: URLSearchParams): Promise<unknown> {
  if (method === 'GET' && path === 'players') return listPlayers(service);
  if (method === 'GET' && path === 'events') {
    const type = query.get('type');
    if (type !== null && !(EVENT_TYPES as readonly string[]).includes(type)) {
      throw invalidParams({ type: [`type must be one of ${EVENT_TYPES.join(', ')} (or left out for every event).`] });
    }
    return { events: eventsOf(service.data, type) };
  }
  if (method === 'GET' && path === 'exports') {
    // The jobs without their documents (the download link serves those, once).
    return { exports: (service.data.exports ?? []).map(({ document: _d, ...j }) => j) };
  }
  if (method === 'GET' && path.startsWith(DOWNLOAD_PATH.slice('/_emulator/'.length))) {
    return service.exports.download(path.slice(DOWNLOAD_PATH.length - '/_emulator/'.length));
  }
  const m = /^titles\/([^/]+)\/notification$/.exec(path);
  if (m && method === 'POST') {
    const title = service.data.titles[m[1].toUpperCase()];
    if (!title) throw invalidParams({ titleId: [`Unknown title ${m[1]}.`] });
    const email = body.email;
    if (email !== null && (typeof email !== 'string' || email.trim() === '' || email.length > 320)) {
      throw invalidParams({ email: ['email must be an address (at most 320 characters), or null for none.'] });
    }
    title.notificationEmail = email;
    await service.persistNow();
    return { ok: true, titleId: title.titleId, notificationEmail: email };
  }
  return undefined;
}
