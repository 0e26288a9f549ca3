// The events route: GET /_emulator/events[?type=TYPE], the service's emitted events oldest first.

import { EVENT_TYPES, eventsOf } from '../events';
import { invalidParams } from '../http';
import type { PlatformService } from '../service';
import { route, type Route } from './route';

function readEvents(service: PlatformService, query: URLSearchParams): unknown {
  const type = query.get('type');
  if (type !== null && !(EVENT_TYPES as readonly string[]).includes(type)) {
    throw invalidParams({ type: [`type must be one of ${EVENT_TYPES.join(', ')} (or left out for every event).`] });
  }
  return { events: eventsOf(service.data, type) };
}

export const EVENT_ROUTES: readonly Route[] = [
  route('GET', 'events', ({ service }, _m, _b, query) => readEvents(service, query)),
];
