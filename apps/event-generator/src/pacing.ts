/**
 * How many records should have been sent `elapsedMs` after the start at `rate` records per
 * second: record `i` is due at `i / rate` seconds, so one is due at once. Without a rate
 * (undefined or 0), everything is due.
 */
export function dueCount(elapsedMs: number, rate: number | undefined): number {
  if (!rate) return Number.POSITIVE_INFINITY;
  return Math.floor((Math.max(0, elapsedMs) * rate) / 1000) + 1;
}

/** Milliseconds from the start until record number `index` (from 0) is due at `rate`/s. */
export function dueAtMs(index: number, rate: number): number {
  return (index * 1000) / rate;
}

/**
 * Where the malformed records go among the valid ones: malformed record `j` (from 0) is sent
 * right after valid event number `(j + 1) * spacing` (1-based). With a known event count the
 * malformed records are spread evenly over it; otherwise one follows every tenth event. Any
 * left when the run ends are sent at its end.
 */
export function malformedSpacing(events: number | undefined, malformed: number): number {
  if (malformed <= 0) return Number.POSITIVE_INFINITY;
  if (events === undefined) return 10;
  return Math.max(1, Math.floor(events / (malformed + 1)));
}
