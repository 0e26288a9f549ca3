// The time a set of intervals covers, overlapping ones counted once: how long requests were in
// flight during a command (Activity's duration), whatever the command waited on between them.

/** Total covered milliseconds of `[start, end]` intervals, and the earliest start. */
export function busyTime(intervals: readonly (readonly [number, number])[]): { start?: number; ms: number } {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let ms = 0;
  let end = -Infinity;
  for (const [from, to] of sorted) {
    // Stryker disable next-line EqualityOperator: an interval ending exactly at `end` adds 0 either way
    if (to <= end) continue;
    ms += to - Math.max(from, end);
    end = to;
  }
  return { start: sorted[0]?.[0], ms };
}
