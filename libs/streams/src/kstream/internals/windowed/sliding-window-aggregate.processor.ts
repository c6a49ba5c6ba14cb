import type { ProcessorContext } from '../../../processor/processor-context';
import { Record } from '../../../processor/record';
import type { ValueAndTimestamp } from '../../../state/value-and-timestamp';
import { TimeWindow } from '../../../windowing/time-window';
import { Windowed } from '../../../windowing/windowed';
import type { SlidingWindows } from '../../windows/sliding-windows';
import { AggregateSupplier } from '../aggregate-supplier';
import { change, type Change } from '../change';
import { DroppedRecords } from '../dropped-records';
import type { DslWindowRangeStore } from '../dsl-window-stores';
import type { AggregateFunction } from '../kstream-aggregate.processor';
import { TupleForwarder } from '../tuple-forwarder';
import { WindowStoreValueGetter } from '../window-store-value-getter';
import type { WindowResultEmitter } from './window-result-emitter';
import type { WindowedAggregateProcessor } from './windowed-aggregate-processor';

/** A window's aggregate; `value` undefined: a new window, aggregated from the initializer. */
type WindowAggregate<VA> = { readonly value: VA | undefined; readonly timestamp: number };

/** One stored window of the record's key: its start and its aggregate. */
type StoredWindow<VA> = { readonly start: number; readonly aggregate: ValueAndTimestamp<VA> };

/** What the scan of a key's stored windows found, for {@link SlidingWindowAggregateProcessor}. */
interface ScanResult<VA> {
  readonly starts: Set<number>;
  leftAggregate?: ValueAndTimestamp<VA>;
  rightAggregate?: ValueAndTimestamp<VA>;
  leftCreated: boolean;
  rightCreated: boolean;
  previousTimestamp?: number;
}

/**
 * Sliding-window `count`/`reduce`/`aggregate` (Kafka Streams' `KStreamSlidingWindowAggregate`):
 * a record at `t` updates every stored window of its key that contains it, creates the window
 * `[t - d, t]` that ends with it (from the previous record's window, or empty) and the window
 * `[t + 1, t + 1 + d]` that starts after it when a later record falls in it, and the right
 * window of the previous record when that is missing. Records earlier than `d` go into the
 * window `[0, d]`. Updates are emitted with the key `Windowed(key, [start, start + d])`.
 *
 * A record whose own window ends before `stream time - grace` is dropped (`late`), as is an
 * update of a window that closed; records with a `null` key or value are dropped. Stream time
 * is the largest timestamp this processor saw (Kafka's `observedStreamTime`).
 *
 * The key's windows are read in one backward scan, into memory before any is written (the
 * writes never disturb the scan).
 */
export class SlidingWindowAggregateProcessor<K, V, VA> implements WindowedAggregateProcessor<
  K,
  V,
  VA
> {
  readonly dropped = new DroppedRecords();
  private store!: DslWindowRangeStore<K, VA>;
  private forwarder!: TupleForwarder<Windowed<K>, ValueAndTimestamp<VA>, Windowed<K>, VA>;
  private observedStreamTime = -1;
  private readonly difference: number;

  constructor(
    private readonly storeName: string,
    private readonly windows: SlidingWindows,
    private readonly aggregate: AggregateFunction<K, V, VA>,
    private readonly sendOldValues: boolean,
    private readonly emitter: WindowResultEmitter<K, VA>,
  ) {
    this.difference = windows.timeDifferenceMs();
  }

  init(context: ProcessorContext<Windowed<K>, Change<VA>>): void {
    this.dropped.attach(context);
    this.store = context.getStateStore<DslWindowRangeStore<K, VA>>(this.storeName);
    this.forwarder = TupleForwarder.ofTimestampedValues(this.store, context, this.sendOldValues);
    this.emitter.init(context, this.store);
  }

  process(record: Record<K, V>): void {
    if (this.dropped.nullKey(record.key) || this.dropped.nullValue(record.value)) return;
    const timestamp = record.timestamp;
    this.observedStreamTime = Math.max(this.observedStreamTime, timestamp);
    const closeTime = this.observedStreamTime - this.windows.gracePeriodMs();
    if (timestamp + this.difference < closeTime) {
      this.dropped.record('late');
      return;
    }
    if (timestamp < this.difference) {
      this.processEarly(record, closeTime);
      return;
    }
    const scan = this.scan(record, closeTime);
    if (scan !== undefined) this.createWindows(record, closeTime, scan);
    this.emitter.maybeEmitClosed(record, closeTime);
  }

  /**
   * Updates the stored windows that contain the record, newest first, and notes what exists
   * around it. Undefined when the record's left window exists with a record at `t` or later
   * (nothing to create).
   */
  private scan(record: Record<K, V>, closeTime: number): ScanResult<VA> | undefined {
    const t = record.timestamp;
    const found: ScanResult<VA> = { starts: new Set(), leftCreated: false, rightCreated: false };
    const from = Math.max(0, t - 2 * this.difference);
    for (const { start, aggregate } of this.read(record.key, from, t + 1, true)) {
      found.starts.add(start);
      const end = start + this.difference;
      if (start === t + 1) {
        found.rightCreated = true;
      } else if (end > t) {
        found.rightAggregate ??= aggregate;
        this.update(start, aggregate, record, closeTime);
      } else if (end === t) {
        found.leftCreated = true;
        this.update(start, aggregate, record, closeTime);
        if (aggregate.timestamp >= t) return undefined;
        found.previousTimestamp = aggregate.timestamp;
      } else {
        found.leftAggregate = aggregate;
        found.previousTimestamp = aggregate.timestamp;
        break;
      }
    }
    return found;
  }

  /** Creates the windows the record needs that the scan did not find. */
  private createWindows(record: Record<K, V>, closeTime: number, found: ScanResult<VA>): void {
    const t = record.timestamp;
    const previous = found.previousTimestamp;
    if (previous !== undefined) {
      const previousRightStart = previous + 1;
      if (!found.starts.has(previousRightStart) && previousRightStart + this.difference >= t) {
        this.update(previousRightStart, { value: undefined, timestamp: t }, record, closeTime);
      }
    }
    if (!found.leftCreated) {
      const leftNotEmpty = previous !== undefined && t - this.difference <= previous;
      const value = leftNotEmpty ? found.leftAggregate?.value : undefined;
      this.update(t - this.difference, { value, timestamp: t }, record, closeTime);
    }
    if (!found.rightCreated) this.maybeCreateRightWindow(record, found.rightAggregate);
  }

  /**
   * A record earlier than the time difference: its left window would start before 0, so it
   * goes into `[0, d]` (Kafka Streams' `processEarly`), and the right windows are kept as for
   * any record.
   */
  private processEarly(record: Record<K, V>, closeTime: number): void {
    const t = record.timestamp;
    const starts = new Set<number>();
    let combined: StoredWindow<VA> | undefined;
    let rightAggregate: ValueAndTimestamp<VA> | undefined;
    let rightCreated = false;
    let previous: number | undefined;
    for (const stored of this.read(record.key, 0, t + 1, false)) {
      const { start, aggregate } = stored;
      starts.add(start);
      if (start === 0) {
        combined = stored;
        if (aggregate.timestamp < t) previous = aggregate.timestamp;
      } else if (start <= t) {
        rightAggregate = aggregate;
        this.update(start, aggregate, record, closeTime);
      } else {
        rightCreated = true;
      }
    }
    if (
      rightAggregate === undefined &&
      combined !== undefined &&
      combined.aggregate.timestamp > t
    ) {
      rightAggregate = combined.aggregate;
    }
    if (!rightCreated) this.maybeCreateRightWindow(record, rightAggregate);
    if (previous !== undefined && !starts.has(previous + 1)) {
      this.update(previous + 1, { value: undefined, timestamp: t }, record, closeTime);
    }
    this.update(0, combined?.aggregate ?? { value: undefined, timestamp: t }, record, closeTime);
  }

  /**
   * Creates the window starting right after the record, holding what the record's right
   * neighbours aggregated, when one of them is later than the record.
   */
  private maybeCreateRightWindow(
    record: Record<K, V>,
    rightAggregate: ValueAndTimestamp<VA> | undefined,
  ): void {
    if (rightAggregate === undefined || rightAggregate.timestamp <= record.timestamp) return;
    const start = record.timestamp + 1;
    this.store.put(record.key, rightAggregate, start);
    this.forward(record, start, rightAggregate.value, null, rightAggregate.timestamp);
  }

  /** Folds the record into the window starting at `start` unless that window closed. */
  private update(
    start: number,
    current: WindowAggregate<VA>,
    record: Record<K, V>,
    closeTime: number,
  ): void {
    if (start + this.difference < closeTime) {
      this.dropped.record('late');
      return;
    }
    const old = current.value;
    const aggregate = this.aggregate(record.key, record.value, old);
    const timestamp =
      old === undefined || old === null
        ? record.timestamp
        : Math.max(record.timestamp, current.timestamp);
    this.store.put(record.key, { value: aggregate, timestamp }, start);
    this.forward(record, start, aggregate, old ?? null, timestamp);
  }

  private forward(
    record: Record<K, V>,
    start: number,
    newValue: VA,
    oldValue: VA | null,
    timestamp: number,
  ): void {
    if (!this.emitter.emitsUpdates) return;
    const window = new TimeWindow(start, start + this.difference);
    this.forwarder.maybeForward(
      new Record(
        new Windowed(record.key, window),
        change(newValue, oldValue),
        timestamp,
        record.headers,
      ),
    );
  }

  /** The key's windows starting in `[from, to]`, read to the end before any write. */
  private read(key: K, from: number, to: number, backward: boolean): StoredWindow<VA>[] {
    const iterator = backward
      ? this.store.backwardFetch(key, from, to)
      : this.store.fetch(key, from, to);
    try {
      return [...iterator].map((entry) => ({ start: entry.key, aggregate: entry.value }));
    } finally {
      iterator.close();
    }
  }
}

/** The KTable node of a sliding-window aggregation: its timestamped window store is the table. */
export function slidingWindowAggregateSupplier<K, V, VA>(
  storeName: string,
  windows: SlidingWindows,
  aggregate: AggregateFunction<K, V, VA>,
  emitter: () => WindowResultEmitter<K, VA>,
): AggregateSupplier<K, V, Windowed<K>, VA> {
  return new AggregateSupplier(
    storeName,
    (sendOldValues) =>
      new SlidingWindowAggregateProcessor(storeName, windows, aggregate, sendOldValues, emitter()),
    () => new WindowStoreValueGetter<K, VA>(storeName),
  );
}
