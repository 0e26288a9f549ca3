// The events the emulated service emits (player_data_exported, title_deleted_master_player), kept
// in the state oldest first and bounded, read by GET /_emulator/events?type=TYPE.
import { randomBytes } from 'node:crypto';
import type { EmittedEvent, EmulatorData } from './state';

/** The newest this many are kept; older ones are dropped as new ones come. */
export const MAX_EVENTS = 10_000;
export const EVENT_TYPES: readonly EmittedEvent['type'][] = ['player_data_exported', 'title_deleted_master_player'];

/**
 * Emits `event` with the common members of the service's event stream (api-facts: EventName,
 * EventNamespace, EntityId and EntityType of the player, EventId, Source, Timestamp, and for an
 * event of a title its TitleId), besides the emulator's own `type` and `titleId` that
 * GET /_emulator/events?type= filters on. `player`: the PlatformId the event is about.
 */
export function emitEvent(data: EmulatorData, event: EmittedEvent, player: string): void {
  const events = (data.events ??= []);
  events.push({
    ...event,
    EventName: event.type,
    EventNamespace: 'com.platform.admin',
    EntityId: player,
    EntityType: 'master_player_account',
    EventId: randomBytes(16).toString('hex'),
    Source: 'Platform',
    TitleId: event.titleId,
  });
  if (events.length > MAX_EVENTS) events.splice(0, events.length - MAX_EVENTS);
}

/** The events of `type` (every event when null), oldest first. */
export function eventsOf(data: EmulatorData, type: string | null): EmittedEvent[] {
  const all = data.events ?? [];
  return type === null ? all : all.filter((e) => e.type === type);
}
