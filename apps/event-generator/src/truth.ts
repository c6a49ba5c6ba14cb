/** Tumbling window size of the contract's `windowed-count-store`: 5 minutes. */
export const WINDOW_SIZE_MS = 5 * 60_000;

/** What a user's totals must be: the contract's `GET /stats/:userId` answer. */
export interface UserTotals {
  readonly count: number;
  /** Sum of the amounts, rounded to 2 decimals. */
  readonly sum: number;
}

/** Count of one user's events in one tumbling window, as `GET /windowed/:userId` answers. */
export interface WindowCount {
  readonly start: number;
  readonly end: number;
  readonly count: number;
}

/** The true totals of a generator run, as JSON (`--truth FILE`). */
export interface TruthReport {
  readonly topic: string;
  readonly seed: number;
  /** Number of user ids events were drawn from (`user-001`..); some may have no event. */
  readonly users: number;
  /** Valid events produced (acknowledged by the broker). */
  readonly events: number;
  /** Malformed records produced, which the application must skip. */
  readonly malformed: number;
  /** Timestamps of the first and last valid event (epoch ms), when there was one. */
  readonly firstTimestamp: number | null;
  readonly lastTimestamp: number | null;
  readonly windowSizeMs: number;
  /** Per user with at least one event, sorted by user id. */
  readonly totals: Readonly<Record<string, UserTotals>>;
  /** Per user, the counts of each 5-minute tumbling window with events, by start. */
  readonly windows: Readonly<Record<string, readonly WindowCount[]>>;
}

interface MutableTotals {
  count: number;
  cents: number;
}

/** Rounds a sum given in integer cents to the number with 2 decimals it stands for. */
export function centsToSum(cents: number): number {
  return Math.round(cents) / 100;
}

/** The integer cents a reported sum stands for (sums from float additions included). */
export function sumToCents(sum: number): number {
  return Math.round(sum * 100);
}

/**
 * The true totals of what a generator produced, kept per user as an integer count and an
 * integer number of cents (no float drift, however many events), with counts per 5-minute
 * tumbling window. Only records the broker acknowledged are recorded.
 */
export class TruthRecorder {
  private readonly perUser = new Map<string, MutableTotals>();
  private readonly perWindow = new Map<string, Map<number, number>>();
  private eventCount = 0;
  private malformedCount = 0;
  private first: number | null = null;
  private last: number | null = null;

  constructor(
    readonly topic: string,
    readonly seed: number,
    readonly users: number,
    readonly windowSizeMs = WINDOW_SIZE_MS,
  ) {}

  /** Records one valid event. */
  record(userId: string, cents: number, timestamp: number): void {
    if (!Number.isInteger(cents)) throw new RangeError(`cents must be an integer, got ${cents}`);
    const totals = this.perUser.get(userId);
    if (totals) {
      totals.count++;
      totals.cents += cents;
    } else {
      this.perUser.set(userId, { count: 1, cents });
    }
    const start =
      timestamp - (((timestamp % this.windowSizeMs) + this.windowSizeMs) % this.windowSizeMs);
    let windows = this.perWindow.get(userId);
    if (!windows) this.perWindow.set(userId, (windows = new Map()));
    windows.set(start, (windows.get(start) ?? 0) + 1);
    this.eventCount++;
    this.first = this.first === null ? timestamp : Math.min(this.first, timestamp);
    this.last = this.last === null ? timestamp : Math.max(this.last, timestamp);
  }

  /** Records one malformed record (skipped by the application, so no totals change). */
  recordMalformed(): void {
    this.malformedCount++;
  }

  /** Valid events recorded so far. */
  get events(): number {
    return this.eventCount;
  }

  /** Malformed records recorded so far. */
  get malformed(): number {
    return this.malformedCount;
  }

  /** A user's totals so far, or undefined when the user has had no event. */
  totalsOf(userId: string): UserTotals | undefined {
    const totals = this.perUser.get(userId);
    return totals ? { count: totals.count, sum: centsToSum(totals.cents) } : undefined;
  }

  /** A user's sum so far in integer cents (0 without events). */
  centsOf(userId: string): number {
    return this.perUser.get(userId)?.cents ?? 0;
  }

  /** Everything recorded so far, as the JSON report (users sorted by id). */
  report(): TruthReport {
    const ids = [...this.perUser.keys()].sort();
    const totals: Record<string, UserTotals> = {};
    const windows: Record<string, WindowCount[]> = {};
    for (const id of ids) {
      totals[id] = this.totalsOf(id)!;
      windows[id] = [...(this.perWindow.get(id) ?? new Map<number, number>())]
        .sort(([a], [b]) => a - b)
        .map(([start, count]) => ({ start, end: start + this.windowSizeMs, count }));
    }
    return {
      topic: this.topic,
      seed: this.seed,
      users: this.users,
      events: this.eventCount,
      malformed: this.malformedCount,
      firstTimestamp: this.first,
      lastTimestamp: this.last,
      windowSizeMs: this.windowSizeMs,
      totals,
      windows,
    };
  }
}
