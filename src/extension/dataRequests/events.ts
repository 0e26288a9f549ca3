// The service's events where they can be read: only a local emulator of ours serves them
// (GET /_emulator/events?type=TYPE answers {"events": [...]}); the real service e-mails instead.
import type { EventReader, ServiceEvent } from '../../core/requests';

/** A reader of the emulator's events at `baseUrl`'s origin (a loopback emulator endpoint). */
export function emulatorEventReader(baseUrl: string): EventReader {
  const origin = new URL(baseUrl).origin;
  return async (type, o) => {
    const res = await fetch(`${origin}/_emulator/events?type=${encodeURIComponent(type)}`, { signal: o?.signal ?? AbortSignal.timeout(10_000) });
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`the emulator's events answered HTTP ${res.status}`);
    }
    const body = (await res.json()) as { events?: unknown };
    return Array.isArray(body.events) ? body.events.filter((e): e is ServiceEvent => typeof e === 'object' && e !== null && typeof (e as ServiceEvent).type === 'string') : [];
  };
}
