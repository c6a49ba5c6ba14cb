import { StoreClosedError } from '../../../errors/store-closed.error';
import { UnsupportedStoreOperationError } from '../../../errors/unsupported-store-operation.error';
import { requireDurationMs } from '../../../windowing/internals/window-time';
import type { StateStoreContext } from '../../../processor/state-store-context';
import type {
  BytesStore,
  BytesStoreCapabilities,
  BytesWrite,
  KeyValueBytes,
} from '../../bytes-store';
import type { KeyValueSegment } from './key-value-segment';
import { KeyValueSegments, defaultSegmentIntervalMs } from './key-value-segments';
import { hasPrefix } from '../byte-range';
import type { RocksDBStoreMetrics } from '../../rocksdb-store-metrics';
import { sumRocksDBMetrics } from '../rocksdb/rocksdb-properties';
import {
  AbstractStoreLayer,
  type SegmentRules,
  type StampedWrite,
  type StoreRange,
} from '../layers/store-layer';
import type {
  RestoreBatchResult,
  SegmentedBytesStoreOptions,
  SegmentedKeySchema,
} from './segmented-bytes-store-options';

export type {
  RestoreBatchResult,
  SegmentedBytesStoreOptions,
  SegmentedKeySchema,
} from './segmented-bytes-store-options';

/**
 * The engine under the window and session stores, as Kafka Streams'
 * `AbstractRocksDBSegmentedBytesStore`: store keys go to the segment of their segment time,
 * stream time is the largest segment time written, and an entry is live while its segment
 * time is at least `streamTime - retention + 1`. Expired entries are never returned (but by
 * reads of `retention: 'segments'`), and whole segments are dropped once every time they can
 * hold has expired. What a write keeps follows Kafka Streams' engines: persistent segments
 * take any entry whose segment is still live, past retention or not (as `put` and restore do
 * there: `getOrCreateSegmentIfLive`), segments in memory only live entries (as its in-memory
 * window and session stores); the rest is dropped and counted.
 *
 * Stream time starts unknown (`-1`) at every open, as in Kafka Streams, and grows with writes
 * and restored records.
 */
export class SegmentedBytesStore extends AbstractStoreLayer {
  readonly name: string;
  readonly capabilities: BytesStoreCapabilities;
  readonly retentionPeriodMs: number;
  readonly segmentIntervalMs: number;
  readonly segments: SegmentRules;
  private readonly store: KeyValueSegments;
  private streamTime = -1;
  private opened = false;
  private expiredDrops = 0;

  /**
   * @throws InvalidWindowError when the retention or the interval is not a valid duration.
   */
  constructor(
    options: SegmentedBytesStoreOptions,
    private readonly schema: SegmentedKeySchema,
  ) {
    super();
    this.name = options.name;
    this.capabilities = options.capabilities;
    this.retentionPeriodMs = requireDurationMs(options.retentionPeriodMs, 'retention', false);
    this.segmentIntervalMs =
      options.segmentIntervalMs ?? defaultSegmentIntervalMs(this.retentionPeriodMs);
    this.segments = {
      retentionPeriodMs: this.retentionPeriodMs,
      segmentIntervalMs: this.segmentIntervalMs,
      segmentTime: (storeKey) => schema.segmentTimestamp(storeKey),
      observedStreamTime: () => this.streamTime,
    };
    this.store = new KeyValueSegments({
      storeName: options.name,
      retentionPeriodMs: this.retentionPeriodMs,
      segmentIntervalMs: this.segmentIntervalMs,
      segmentFactory: (segmentName) => this.checked(options.segmentFactory(segmentName)),
      listSegmentNames: options.listSegmentNames,
      onSegmentOpening: options.onSegmentOpening,
    });
  }

  init(_context: StateStoreContext): Promise<void> {
    return this.open();
  }

  /** Opens the segments a previous run left. Idempotent while open. */
  async open(): Promise<void> {
    if (!this.opened) {
      this.streamTime = -1;
      await this.store.openExisting(this.streamTime);
      this.opened = true;
    }
  }

  isOpen(): boolean {
    return this.opened;
  }

  /** The largest segment time seen by writes and restores since open, `-1` when none. */
  observedStreamTime(): number {
    return this.streamTime;
  }

  /** Entries with a segment time below this are expired. */
  minLiveTime(): number {
    return Math.max(0, this.streamTime - this.retentionPeriodMs + 1);
  }

  /** Number of live segments (for tests and metrics). */
  segmentCount(): number {
    return this.store.count;
  }

  /** Names of the live segments, ascending. */
  segmentNames(): string[] {
    return this.store.all(false).map((segment) => segment.name);
  }

  /** RocksDB's figures summed over the open segments whose engine has them (see sumRocksDBMetrics). */
  rocksDBMetrics(): RocksDBStoreMetrics | undefined {
    type Measured = { metrics?: () => RocksDBStoreMetrics; isOpen(): boolean };
    const engines = this.store.all(false).map((segment) => segment.store as Measured);
    return sumRocksDBMetrics(
      engines.filter((e) => e.metrics && e.isOpen()).map((e) => e.metrics!()),
    );
  }

  /** Puts dropped so far because their entry was already past retention (a metric). */
  expiredRecordDrops(): number {
    return this.expiredDrops;
  }

  /**
   * Advances stream time to the key's segment time and returns the live segment to write it
   * to (created if needed), or `undefined` when the write is dropped as expired (counted).
   */
  private liveSegmentFor(storeKey: Buffer): KeyValueSegment | undefined {
    const time = this.schema.segmentTimestamp(storeKey);
    this.streamTime = Math.max(this.streamTime, time);
    const segment = this.keeps(time)
      ? this.store.getOrCreateSegmentIfLive(this.store.segmentId(time), this.streamTime)
      : undefined;
    if (segment === undefined) this.expiredDrops++;
    return segment;
  }

  /**
   * Whether a write of segment time `time` may be kept (its segment must be live too): always
   * for persistent segments, only a live entry for segments in memory (see the class).
   */
  private keeps(time: number): boolean {
    return this.capabilities.persistent === true || time >= this.minLiveTime();
  }

  /**
   * Synchronous point read of a store key; `undefined` when absent or expired.
   *
   * @throws StoreClosedError when not open; UnsupportedStoreOperationError when the engine has
   *   no synchronous reads (use {@link SegmentedBytesStore.getAsync}).
   */
  get(storeKey: Buffer): Buffer | undefined {
    this.requireSyncReads('get');
    const time = this.schema.segmentTimestamp(storeKey);
    if (time < this.minLiveTime()) return undefined;
    return this.store.segmentForTimestamp(time)?.get(storeKey);
  }

  /**
   * Asynchronous point read of a store key (every engine).
   *
   * @throws StoreClosedError when not open; the engine's `ProcessorStateError` on failure.
   */
  async getAsync(storeKey: Buffer): Promise<Buffer | undefined> {
    this.requireOpen();
    const time = this.schema.segmentTimestamp(storeKey);
    const segment = time < this.minLiveTime() ? undefined : this.store.segmentForTimestamp(time);
    if (segment === undefined) return undefined;
    const value = await segment.getAsync(storeKey);
    return segment.isDropped ? undefined : value;
  }

  /**
   * Live entries of `range`, segment after segment (so ordered by segment, then store key).
   * Valid until the next `await`: segments are dropped in the background.
   *
   * @throws StoreClosedError when not open; UnsupportedStoreOperationError when the engine has
   *   no synchronous reads (use {@link SegmentedBytesStore.rangeAsync}).
   */
  read(range: StoreRange): IterableIterator<KeyValueBytes> {
    this.requireSyncReads('range');
    return this.iterate(range);
  }

  private *iterate(range: StoreRange): IterableIterator<KeyValueBytes> {
    const minLive = this.readFrom(range);
    for (const segment of this.searched(range, minLive)) {
      for (const entry of segment.range(
        range.lower ?? range.prefix,
        range.upper,
        !!range.backward,
      )) {
        if (this.live(entry.key, range, minLive)) yield entry;
      }
    }
  }

  /** The smallest segment time `range` reads (see `StoreRange.retention`). */
  private readFrom(range: StoreRange): number {
    if (range.retention === 'segments') return 0;
    if (range.retention === 'inclusive') return Math.max(0, this.minLiveTime() - 1);
    return this.minLiveTime();
  }

  /** The segments `range` may hold entries in, in its order. */
  private searched(range: StoreRange, minLive: number): KeyValueSegment[] {
    const to = range.segmentTimeTo ?? Number.POSITIVE_INFINITY;
    return this.store.search(Math.max(range.segmentTimeFrom ?? 0, minLive), to, !!range.backward);
  }

  /** Whether a store key read in `range` is live and belongs to it. */
  private live(storeKey: Buffer, range: StoreRange, minLive: number): boolean {
    if (this.schema.segmentTimestamp(storeKey) < minLive) return false;
    if (range.prefix !== undefined && !hasPrefix(storeKey, range.prefix)) return false;
    return range.accept === undefined || range.accept(storeKey);
  }

  /**
   * The same entries as {@link SegmentedBytesStore.range}, read asynchronously (every engine).
   *
   * @throws StoreClosedError when not open; the engine's `ProcessorStateError` on failure.
   */
  async readAsync(range: StoreRange): Promise<KeyValueBytes[]> {
    this.requireOpen();
    const out: KeyValueBytes[] = [];
    for (const segment of this.searched(range, this.readFrom(range))) {
      if (segment.isDropped) continue;
      const lower = range.lower ?? range.prefix;
      const entries = await segment.rangeAsync(lower, range.upper, !!range.backward);
      const minLive = this.readFrom(range);
      for (const entry of entries) if (this.live(entry.key, range, minLive)) out.push(entry);
    }
    return out;
  }

  /**
   * {@link SegmentedBytesStore.put} for each write in order (stream time grows write by write,
   * expired writes are dropped), applied as one write batch per segment instead of one engine
   * write each: what a cache flush writes through.
   * @returns per write, whether it was written (false: past retention).
   * @throws StoreClosedError when not open; InvalidWindowedKeyError for a key of the wrong
   *   format; the engine's `ProcessorStateError` when a batch fails.
   */
  write(writes: readonly StampedWrite[]): boolean[] {
    this.requireOpen();
    const accepted = new Array<boolean>(writes.length);
    const batches = new Map<KeyValueSegment, BytesWrite[]>();
    for (let i = 0; i < writes.length; i++) {
      const write = writes[i];
      const segment = this.liveSegmentFor(write.key);
      accepted[i] = segment !== undefined;
      if (segment === undefined) continue;
      const batch = batches.get(segment);
      if (batch === undefined) batches.set(segment, [write]);
      else batch.push(write);
    }
    // A segment that a later write expired is destroyed after this batch, as after one put each.
    for (const [segment, batch] of batches) segment.putAll(batch);
    return accepted;
  }

  /**
   * Applies one batch of changelog records (store keys and values, `null` for tombstones), as
   * Kafka Streams' batching restore: stream time advances to the batch's largest segment time,
   * expired segments are dropped, records already past retention are skipped, and the rest is
   * written to each segment as one batch, in changelog order.
   *
   * @throws StoreClosedError when not open; InvalidWindowedKeyError for a record whose key is
   *   not of this store's format (the changelog holds foreign data: wipe and check the topic).
   */
  restore(records: readonly BytesWrite[]): void {
    this.restoreAll(records);
  }

  restoreAll(records: readonly BytesWrite[]): RestoreBatchResult {
    this.requireOpen();
    const times = records.map((record) => this.schema.segmentTimestamp(record.key));
    for (const time of times) {
      this.streamTime = Math.max(this.streamTime, time);
    }
    this.store.cleanupExpiredSegments(this.streamTime);
    const minLiveSegment = this.store.segmentId(this.streamTime - this.retentionPeriodMs);
    const batches = new Map<number, BytesWrite[]>();
    let skippedExpired = 0;
    records.forEach((record, index) => {
      const id = this.store.segmentId(times[index]);
      if (!this.keeps(times[index]) || id < minLiveSegment) {
        skippedExpired++;
        return;
      }
      const batch = batches.get(id);
      if (batch === undefined) {
        batches.set(id, [record]);
      } else {
        batch.push(record);
      }
    });
    for (const [id, batch] of batches) {
      this.store.getOrCreateSegmentIfLive(id, this.streamTime)?.putAll(batch);
    }
    return { applied: records.length - skippedExpired, skippedExpired };
  }

  /** Sum of the segments' estimates (entries buffered while a segment opens included). */
  approximateNumEntries(): number {
    this.requireOpen();
    return this.store.all(false).reduce((sum, s) => sum + s.approximateNumEntries(), 0);
  }

  /**
   * Flushes every segment and waits for background drops.
   *
   * @throws StoreClosedError when not open; the engine's `ProcessorStateError` on failure.
   */
  async flush(): Promise<void> {
    this.requireOpen();
    await this.store.flush();
  }

  /** Flushes and closes every segment. Idempotent. */
  async close(): Promise<void> {
    if (this.opened) {
      this.opened = false;
      await this.store.close();
    }
  }

  /** Closes and deletes every segment; `open()` afterwards starts empty. */
  async destroy(): Promise<void> {
    this.opened = false;
    this.streamTime = -1;
    await this.store.destroy();
  }

  /** A segment engine that reads synchronously when this store promised it would. */
  private checked(store: BytesStore): BytesStore {
    if (this.capabilities.syncReads && !store.capabilities.syncReads) {
      throw new UnsupportedStoreOperationError(
        this.name,
        'segmentFactory',
        `segment ${store.name} has no synchronous reads but the store was declared with capabilities.syncReads`,
      );
    }
    return store;
  }

  private requireOpen(): void {
    if (!this.opened) {
      throw new StoreClosedError(this.name);
    }
  }

  private requireSyncReads(operation: string): void {
    this.requireOpen();
    if (!this.capabilities.syncReads) {
      throw new UnsupportedStoreOperationError(
        this.name,
        operation,
        'the engine has no synchronous reads; use the asynchronous variant',
      );
    }
  }
}
