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
