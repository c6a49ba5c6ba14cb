import type { ProcessorContext } from '../../processor/processor-context';
import { Record } from '../../processor/record';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp';
import type { TimeWindows } from '../windows/time-windows';
import { Windowed } from '../../windowing/windowed';
import { change, type Change } from './change';
import { DroppedRecords } from './dropped-records';
import type { DslWindowRangeStore, DslWindowStore } from './dsl-window-stores';
import type { AggregateFunction } from './kstream-aggregate.processor';
import { AggregateSupplier } from './aggregate-supplier';
import { TupleForwarder } from './tuple-forwarder';
import { WindowStoreValueGetter } from './window-store-value-getter';
import { onWindowUpdateEmitter, type WindowResultEmitter } from './windowed/window-result-emitter';
import type { WindowedAggregateProcessor } from './windowed/windowed-aggregate-processor';

/**
 * Time-windowed `count`/`reduce`/`aggregate` (Kafka Streams' `KStreamWindowAggregate`): a
 * record updates every window containing its timestamp (one for tumbling windows, several
 * for hopping ones) whose `end + grace` is still after the stream time this processor saw;
 * for a closed window it is dropped and counted (`late`). As in Kafka Streams, only a null
 * key is dropped: a null value reaches the aggregator (a reduce's first null leaves the window
 * empty). Each update is emitted with the key `Windowed(key, window)` (per record without
 * caching, on cache flush with caching).
 *
 * With `EmitStrategy.onWindowClose()` (see `WindowCloseEmitter`) updates are not forwarded:
 * each window is emitted once, after it closed.
 *
 * `prefetch` computes every window of each record's timestamp and loads those windows in one
 * multi-get.
 */
export class KStreamWindowAggregateProcessor<K, V, VA> implements WindowedAggregateProcessor<
  K,
  V,
  VA
> {
  readonly dropped = new DroppedRecords();
  private store!: DslWindowStore<K, VA>;
  private forwarder!: TupleForwarder<Windowed<K>, ValueAndTimestamp<VA>, Windowed<K>, VA>;
  /**
   * The largest timestamp this processor saw (Kafka Streams' `observedStreamTime`): records
   * with a null key, or dropped upstream, do not move it, unlike the task's stream time.
   */
  private observedStreamTime = -1;

  constructor(
    private readonly storeName: string,
    private readonly windows: TimeWindows,
    private readonly aggregate: AggregateFunction<K, V, VA>,
    private readonly sendOldValues: boolean,
    private readonly emitter: WindowResultEmitter<K, VA> = onWindowUpdateEmitter(),
  ) {}

  init(context: ProcessorContext<Windowed<K>, Change<VA>>): void {
    this.dropped.attach(context);
    this.store = context.getStateStore<DslWindowStore<K, VA>>(this.storeName);
    this.forwarder = TupleForwarder.ofTimestampedValues(this.store, context, this.sendOldValues);
    this.emitter.init(context, this.store as DslWindowRangeStore<K, VA>);
  }

  async prefetch(records: readonly Record<K, V>[]): Promise<void> {
    const store = this.store;
    if (store.prefetch === undefined) return;
    const wanted: { key: K; windowStart: number }[] = [];
    for (const record of records) {
      if (record.key === null || record.key === undefined || record.timestamp < 0) continue;
      for (const windowStart of this.windows.windowsFor(record.timestamp).keys()) {
        wanted.push({ key: record.key, windowStart });
      }
    }
    if (wanted.length > 0) await store.prefetch(wanted);
  }

  process(record: Record<K, V>): void {
    const key = record.key;
    if (this.dropped.nullKey(key)) return;
    this.observedStreamTime = Math.max(this.observedStreamTime, record.timestamp);
    const closeTime = this.observedStreamTime - this.windows.gracePeriodMs();
    for (const [windowStart, window] of this.windows.windowsFor(record.timestamp)) {
      if (window.end <= closeTime) {
        this.dropped.record('late');
        continue;
      }
      const store = this.store;
      const old = store.fetchForUpdate
        ? store.fetchForUpdate(key, windowStart)
        : store.fetch(key, windowStart);
      const timestamp =
        old === undefined ? record.timestamp : Math.max(record.timestamp, old.timestamp);
      let aggregate: VA;
      try {
        aggregate = this.aggregate(key, record.value, old?.value);
      } catch (error) {
        // The aggregator may have mutated the cached object before it threw.
        store.forgetUpdate?.(key, windowStart);
        throw error;
      }
      // A reduce whose window so far holds only null values yields null: the window is deleted.
      const row = aggregate === null ? null : { value: aggregate, timestamp };
      if (store.putUpdated) store.putUpdated(key, row, windowStart);
      else store.put(key, row, windowStart);
      if (!this.emitter.emitsUpdates) continue;
      this.forwarder.maybeForward(
        new Record(
          new Windowed(key, window),
          change(aggregate, old?.value ?? null),
          timestamp,
          record.headers,
        ),
      );
    }
    this.emitter.maybeEmitClosed(record, closeTime);
  }
}

/** The KTable node of a time-windowed aggregation: its timestamped window store is the table. */
export function windowAggregateSupplier<K, V, VA>(
  storeName: string,
  windows: TimeWindows,
  aggregate: AggregateFunction<K, V, VA>,
  emitter: () => WindowResultEmitter<K, VA> = onWindowUpdateEmitter,
): AggregateSupplier<K, V, Windowed<K>, VA> {
  return new AggregateSupplier(
    storeName,
    (sendOldValues) =>
      new KStreamWindowAggregateProcessor(storeName, windows, aggregate, sendOldValues, emitter()),
    () => new WindowStoreValueGetter<K, VA>(storeName),
  );
}
