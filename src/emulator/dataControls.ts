// Test controls for data-subject requests (/_emulator/, loopback only): every player with the
// identifiers a ticket may name (GET players).
import type { PlatformService } from './service';
import { titleDisplayName } from './state';

/** GET players: each player with its publisher, the titles played and every identifier it can be found by. */
export function listPlayers(service: PlatformService): unknown {
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
    })),
  };
}
