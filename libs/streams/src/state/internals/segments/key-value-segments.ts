import { requireDurationMs } from '../../../windowing/internals/window-time';
import type { BytesStore } from '../../bytes-store';
import { KeyValueSegment } from './key-value-segment';

/**
 * Creates the (unopened) bytes store of one segment, given its name `<store>.<segment start>`.
 * A RocksDB factory puts it in the directory `<task>/<store>/<segment name>`; an in-memory one
 * just names it. Must not open it: the segments manager does.
 */
export type SegmentFactory = (segmentName: string) => BytesStore;

/** How to build a {@link KeyValueSegments} manager. */
export interface KeyValueSegmentsOptions {
  /** The segmented store's name; segment names are `<storeName>.<segmentId * interval>`. */
  readonly storeName: string;
  /** How long entries are kept, in ms of stream time, past their segment time. */
  readonly retentionPeriodMs: number;
  /** Width of a segment in ms (see {@link defaultSegmentIntervalMs}). */
  readonly segmentIntervalMs: number;
  readonly segmentFactory: SegmentFactory;
  /**
   * Names of the segments that exist from a previous run (a RocksDB factory lists the store
   * directory). Without it every start is empty, which is right for in-memory engines; a
   * persistent engine must provide it, or its old segments are neither read nor dropped.
   */
  readonly listSegmentNames?: () => Promise<readonly string[]>;
  /**
   * Told of every segment created on the hot path, which opens in the background and buffers
   * its writes meanwhile: `ready` resolves once they are in its engine (a task's
   * `TaskEngines.track`, so that commits and checkpoints wait for them).
   */
  readonly onSegmentOpening?: (ready: Promise<void>) => void;
}

/**
 * Kafka Streams' default segment interval for window and session stores:
 * `max(retention / 2, 60 000 ms)`.
 */
export function defaultSegmentIntervalMs(retentionPeriodMs: number): number {
  return Math.max(Math.floor(retentionPeriodMs / 2), 60_000);
}

/**
 * The segments of one segmented store, as Kafka Streams' `KeyValueSegments`: segment id
 * `floor(time / interval)`, one bytes store per segment, created lazily (only for live
 * segments), and whole segments dropped (closed and destroyed) once every time they can hold is
 * older than `streamTime - retention`.
 *
 * Dropping happens in the background (engines close asynchronously): a dropped segment leaves
 * the manager at once, so no read sees it; `flush()` and `close()` wait for the drops and
 * throw the first one that failed (the segment is dropped again at the next start).
 */
export class KeyValueSegments {
  private readonly segments = new Map<number, KeyValueSegment>();
  private ordered: KeyValueSegment[] | undefined;
  private readonly drops = new Set<Promise<void>>();
  private dropFailures: unknown[] = [];

  readonly storeName: string;
  readonly retentionPeriodMs: number;
  readonly segmentIntervalMs: number;

  /**
   * @throws InvalidWindowError when the retention is negative or the interval not positive
   *   (fix the store definition).
   */
  constructor(private readonly options: KeyValueSegmentsOptions) {
    this.storeName = options.storeName;
    this.retentionPeriodMs = requireDurationMs(options.retentionPeriodMs, 'retention', false);
    this.segmentIntervalMs = requireDurationMs(options.segmentIntervalMs, 'segment interval', true);
  }

  /** `floor(timestamp / interval)`. */
  segmentId(timestamp: number): number {
    return Math.floor(timestamp / this.segmentIntervalMs);
  }

  /** `<store>.<segmentId * interval>`, e.g. `windowed-count-store.1800000`. */
  segmentName(segmentId: number): string {
    return `${this.storeName}.${segmentId * this.segmentIntervalMs}`;
  }

  /** The segment id a name stands for, or `undefined` when it is not one of this store's. */
  segmentIdFromName(segmentName: string): number | undefined {
    const prefix = `${this.storeName}.`;
    if (!segmentName.startsWith(prefix)) {
      return undefined;
    }
    const start = segmentName.slice(prefix.length);
    if (!/^\d+$/.test(start) || !Number.isSafeInteger(Number(start))) {
      return undefined;
    }
    return this.segmentId(Number(start));
  }

  /** Number of live segments. */
  get count(): number {
    return this.segments.size;
  }

  /**
   * Opens the segments left by a previous run (see `listSegmentNames`), then drops those
   * already expired at `streamTime`.
   *
   * @throws ProcessorStateError (from the engine) when a segment cannot be opened: fatal for
   *   the task; its state is wiped and restored.
   */
  async openExisting(streamTime: number): Promise<void> {
    const names = (await this.options.listSegmentNames?.()) ?? [];
    const ids = names
      .map((name) => this.segmentIdFromName(name))
      .filter((id): id is number => id !== undefined)
      .sort((a, b) => a - b);
    for (const id of ids) {
      if (!this.segments.has(id)) {
        const name = this.segmentName(id);
        const store = this.options.segmentFactory(name);
        await store.open();
        this.add(KeyValueSegment.open(id, name, store));
      }
    }
    this.cleanupExpiredSegments(streamTime);
  }

  /**
   * The segment `segmentId`, created (opening in the background) if needed, when it is still
   * live at `streamTime`; `undefined` for an expired one. Drops the segments expired at
   * `streamTime` as a side effect, as Kafka Streams does.
   */
  getOrCreateSegmentIfLive(segmentId: number, streamTime: number): KeyValueSegment | undefined {
    let segment: KeyValueSegment | undefined;
    if (segmentId >= this.minLiveSegmentId(streamTime)) {
      segment = this.segments.get(segmentId);
      if (segment === undefined) {
        const name = this.segmentName(segmentId);
        segment = KeyValueSegment.opening(segmentId, name, this.options.segmentFactory(name));
        this.options.onSegmentOpening?.(segment.ready());
        this.add(segment);
      }
    }
    this.cleanupExpiredSegments(streamTime);
    return segment;
  }

  /** The existing segment holding `timestamp`, if any. */
  segmentForTimestamp(timestamp: number): KeyValueSegment | undefined {
    return this.segments.get(this.segmentId(timestamp));
  }

  /** Existing segments that can hold times in `[timeFrom, timeTo]`, by id. */
  search(timeFrom: number, timeTo: number, backward: boolean): KeyValueSegment[] {
    const from = this.segmentId(timeFrom);
    const to = this.segmentId(timeTo);
    const found = this.sorted().filter((segment) => segment.id >= from && segment.id <= to);
    return backward ? found.reverse() : found;
  }

  /** Every existing segment, by id (ascending, or descending when `backward`). */
  all(backward: boolean): KeyValueSegment[] {
    const ordered = this.sorted();
    return backward ? [...ordered].reverse() : [...ordered];
  }

  /**
   * Drops every segment whose id is below `floor((streamTime - retention) / interval)`: all
   * its times are older than `streamTime - retention`.
   */
  cleanupExpiredSegments(streamTime: number): void {
    const minLive = this.minLiveSegmentId(streamTime);
    // `sorted()` is replaced, never mutated, when segments change: safe to iterate here.
    for (const segment of this.sorted()) {
      if (segment.id >= minLive) {
        break;
      }
      this.remove(segment);
      // Start after the current synchronous work, so iterators in use finish first.
      const drop = Promise.resolve()
        .then(() => segment.destroy())
        .catch((error: unknown) => {
          this.dropFailures.push(error);
        })
        .finally(() => this.drops.delete(drop));
      this.drops.add(drop);
    }
  }

  /**
   * Flushes every segment and waits for background drops.
   *
   * @throws ProcessorStateError (from the engine) when a flush, or an earlier background drop,
   *   failed: fatal for the task.
   */
  async flush(): Promise<void> {
    await Promise.all(this.all(false).map((segment) => segment.flush()));
    await this.awaitDrops();
  }

  /**
   * Closes every segment (waiting for pending opens and drops) and forgets them.
   *
   * @throws the first engine error met, after trying every segment.
   */
  async close(): Promise<void> {
    const segments = this.all(false);
    this.segments.clear();
    this.ordered = undefined;
    const results = await Promise.allSettled(segments.map((segment) => segment.close()));
    const failed = results.find((result) => result.status === 'rejected');
    await this.awaitDrops();
    if (failed !== undefined) {
      throw failed.reason;
    }
  }

  /**
   * Closes and deletes every segment, including those of a previous run that were never opened
   * (found with `listSegmentNames`).
   *
   * @throws the first engine error met, after trying every segment.
   */
  async destroy(): Promise<void> {
    const segments = this.all(false);
    this.segments.clear();
    this.ordered = undefined;
    const results = await Promise.allSettled(segments.map((segment) => segment.destroy()));
    await this.awaitDrops().catch(() => undefined);
    // Only now list what is left on disk: every engine of this manager is closed, so no
    // directory is deleted under an open engine (whose close would then fail).
    const known = new Set(segments.map((segment) => segment.name));
    const others = ((await this.options.listSegmentNames?.()) ?? []).filter(
      (name) => !known.has(name) && this.segmentIdFromName(name) !== undefined,
    );
    results.push(
      ...(await Promise.allSettled(
        others.map((name) => this.options.segmentFactory(name).destroy()),
      )),
    );
    const failed = results.find((result) => result.status === 'rejected');
    if (failed !== undefined) {
      throw failed.reason;
    }
  }

  /** The segments by id; a cached array callers must not modify. */
  private sorted(): readonly KeyValueSegment[] {
    this.ordered ??= [...this.segments.values()].sort((a, b) => a.id - b.id);
    return this.ordered;
  }

  private minLiveSegmentId(streamTime: number): number {
    return this.segmentId(streamTime - this.retentionPeriodMs);
  }

  private add(segment: KeyValueSegment): void {
    this.segments.set(segment.id, segment);
    this.ordered = undefined;
  }

  private remove(segment: KeyValueSegment): void {
    this.segments.delete(segment.id);
    this.ordered = undefined;
  }

  private async awaitDrops(): Promise<void> {
    while (this.drops.size > 0) {
      await Promise.all([...this.drops]);
    }
    const failures = this.dropFailures;
    this.dropFailures = [];
    if (failures.length > 0) {
      throw failures[0];
    }
  }
}
