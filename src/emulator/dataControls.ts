// Test controls for data-subject requests (/_emulator/, loopback only): every player with the
// identifiers a ticket may name, the service's emitted events, export jobs and their download
// links, and a title's notification address.
import { EVENT_TYPES, eventsOf } from './events';
import { DOWNLOAD_PATH } from './exports';
import { invalidParams } from './http';
import type { PlatformService } from './service';
import { eventsAt, titleDisplayName } from './state';

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
      eventCount: eventsAt(p, service.now()).length,
    })),
  };
}

interface DataRoute {
  method: 'GET' | 'POST';
  path: string;
  example: string;
  open?: true;
  run: (service: PlatformService, m: RegExpExecArray, body: Json, query: URLSearchParams) => Promise<unknown> | unknown;
}

function readEvents(service: PlatformService, query: URLSearchParams): unknown {
  const type = query.get('type');
  if (type !== null && !(EVENT_TYPES as readonly string[]).includes(type)) {
    throw invalidParams({ type: [`type must be one of ${EVENT_TYPES.join(', ')} (or left out for every event).`] });
  }
  return { events: eventsOf(service.data, type) };
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

const DOWNLOAD = DOWNLOAD_PATH.slice('/_emulator/'.length);

/** The data-request controls (controls.ts puts them in its route table). */
export const DATA_CONTROL_ROUTES: readonly DataRoute[] = [
  { method: 'GET', path: 'players', example: 'players', run: (service) => listPlayers(service) },
  { method: 'GET', path: 'events', example: 'events', run: (service, _m, _b, query) => readEvents(service, query) },
  // The jobs without their documents or download tokens: a listing never holds a bearer link.
  { method: 'GET', path: 'exports', example: 'exports', run: (service) => ({ exports: (service.data.exports ?? []).map(({ document: _d, token: _t, ...j }) => j) }) },
  // A download link is a bearer link of its own (sent to the notification address): no control token.
  { method: 'GET', path: `${DOWNLOAD}(.*)`, example: `${DOWNLOAD}x`, open: true, run: (service, m) => service.exports.download(m[1]) },
  { method: 'POST', path: 'titles/([^/]+)/notification', example: 'titles/F71AC/notification', run: setNotification },
];
