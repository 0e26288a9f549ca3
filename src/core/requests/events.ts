// The service's events where they can be read: only a local emulator serves them
// (GET /_emulator/events?type=TYPE answers {"events": [...]}); the real service e-mails instead.
// Shared by the command line and the editor.
import { buildBaseUrl, isLoopbackHost } from '../api/endpoint';
import type { EventReader, ServiceEvent } from './types';
import { controlHeaders } from '../controlToken';

function isEvent(e: unknown): e is ServiceEvent {
  if (e === null) return false;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: what else JSON gives (a string, a number) has no string `type` either
  if (typeof e !== 'object') return false;
  return typeof (e as ServiceEvent).type === 'string';
}

/** The event reader of the emulator behind `endpoint` (a template) for `titleId`; undefined when it is not on this machine. */
export function emulatorEventReader(endpoint: string, titleId: string): EventReader | undefined {
  let base: URL;
  try {
    base = buildBaseUrl(endpoint, titleId);
  } catch {
    return undefined;
  }
  if (!isLoopbackHost(base.hostname) && !base.hostname.endsWith('.localhost')) return undefined;
  return async (type, o) => {
    const res = await fetch(`${base.origin}/_emulator/events?type=${encodeURIComponent(type)}`, { headers: controlHeaders(base.origin), signal: o?.signal ?? AbortSignal.timeout(30_000) });
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`the events of ${base.origin} answered HTTP ${res.status}`);
    }
    const body = await res.json() as { events?: unknown };
    return Array.isArray(body.events) ? body.events.slice(0, 100_000).filter(isEvent) : [];
  };
}
