// Data-subject controls (/_emulator/): every player with the identifiers a ticket may name, and a
// title's notification address. The emitted events are in events.ts, export jobs in exports.ts.
import { invalidParams } from '../http';
import type { PlatformService } from '../service';
import { eventsAt, titleDisplayName } from '../state';
import { route, type Json, type Route } from './route';

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
      eventCount: eventsAt(p, service.now()).length,
    })),
  };
}

async function setNotification(service: PlatformService, m: RegExpExecArray, body: Json): Promise<unknown> {
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

export const DATA_ROUTES: readonly Route[] = [
  route('GET', 'players', ({ service }) => listPlayers(service)),
  route('POST', 'titles/([^/]+)/notification', ({ service }, m, body) => setNotification(service, m, body), 'titles/F71AC/notification'),
];
