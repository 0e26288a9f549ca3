// Service timestamps are UTC, with or without an offset (docs/service-behaviour.md, "Timestamps
// are UTC"): JavaScript reads `2025-01-01T00:00:00` as local time, so a zone is added first.

/** A date-time with no zone designator (`Z` or `±hh:mm`): the service means UTC. */
const NO_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;

/** Milliseconds since the epoch of a service timestamp, or NaN when it is not one. */
export function parseServiceTime(s: string): number {
  const t = s.trim();
  return Date.parse(NO_ZONE.test(t) ? `${t}Z` : t);
}

/** "2026-11-02 10:15 UTC" from an ISO time; anything else as "an unknown time". */
export function readableUtc(iso: string): string {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)/.exec(iso);
  return m === null ? 'an unknown time' : `${m[1]} ${m[2]} UTC`;
}

/**
 * "2026-11-02 11:15 GMT+1": an ISO time in the machine's time zone (or `timeZone`), with the
 * zone said; the service's "no time" (0001-01-01T00:00:00, .NET's minimum) as "not set", never a
 * date in year 1; anything else as "an unknown time". For what a person reads, not for records.
 */
export function readableLocal(iso: string, timeZone?: string): string {
  if (iso.trim().startsWith('0001-01-01')) return 'not set';
  const t = parseServiceTime(iso);
  if (Number.isNaN(t)) return 'an unknown time';
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short',
  }).formatToParts(new Date(t)).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${parts.timeZoneName}`;
}

/** "3.2 s" under ten seconds, else whole seconds. */
export function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** A duration as a person reads it: milliseconds under one second, else seconds ("850 ms", "3.2 s"). */
export function readableDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : seconds(ms);
}
