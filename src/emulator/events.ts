// The events the emulated service emits (player_data_exported, title_deleted_master_player), kept
// in the state oldest first and bounded, read by GET /_emulator/events?type=TYPE.
import type { EmittedEvent, EmulatorData } from './state';

/** The newest this many are kept; older ones are dropped as new ones come. */
export const MAX_EVENTS = 10_000;
export const EVENT_TYPES: readonly EmittedEvent['type'][] = ['player_data_exported', 'title_deleted_master_player'];

export function emitEvent(data: EmulatorData, event: EmittedEvent): void {
  const events = (data.events ??= []);
  events.push(event);
  if (events.length > MAX_EVENTS) events.splice(0, events.length - MAX_EVENTS);
}

/** The events of `type` (every event when null), oldest first. */
export function eventsOf(data: EmulatorData, type: string | null): EmittedEvent[] {
  const all = data.events ?? [];
  return type === null ? all : all.filter((e) => e.type === type);
}
