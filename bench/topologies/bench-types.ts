/** An input event as the topologies read it: `{"userId": string, "amount": integer cents}`. */
export interface BenchEventValue {
  readonly userId: string;
  readonly amount: number;
}

/** The aggregate per user in `stats-store`. */
export interface BenchStats {
  readonly count: number;
  readonly sum: number;
}

/** Store names, as in the example application's contract (DESIGN.md). */
export const STATS_STORE = 'stats-store';
export const WINDOWED_STORE = 'windowed-count-store';
/** 5-minute tumbling windows, no grace, kept for one hour. */
export const WINDOW_SIZE_MS = 5 * 60_000;
export const WINDOW_RETENTION_MS = 60 * 60_000;
