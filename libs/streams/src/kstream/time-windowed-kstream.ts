import type { Aggregator, Initializer, Reducer } from './functions';
import { KTable, type StreamOfNode } from './ktable';
import type { Materialized } from './materialized';
import type { Named } from './named';
import type { SlidingWindows } from './windows/sliding-windows';
import { TimeWindows } from './windows/time-windows';
import type { Windowed } from '../windowing/windowed';
import type {
  AggregateKind,
  GroupedStreamAggregateBuilder,
} from './internals/grouped-stream-aggregate-builder';
import { windowAggregateSupplier } from './internals/kstream-window-aggregate.processor';
import type { AggregateFunction } from './internals/kstream-aggregate.processor';
import {
  slidingWindowStore,
  timestampedWindowStore,
  withoutCaching,
} from './internals/window-store-materializer';
import { slidingWindowAggregateSupplier } from './internals/windowed/sliding-window-aggregate.processor';
import {
  slidingWindowCloseRange,
  timeWindowCloseRange,
  WindowCloseEmitter,
} from './internals/windowed/window-close-emitter';
import {
  onWindowUpdateEmitter,
  type WindowResultEmitter,
} from './internals/windowed/window-result-emitter';
import { EmitStrategy } from './windows/emit-strategy';
import { TimeWindowedSerde } from './windows/time-windowed.serde';

/**
 * A grouped stream windowed by time (Kafka Streams' `TimeWindowedKStream`), from
 * `groupByKey().windowedBy(TimeWindows...)` or `windowedBy(SlidingWindows...)`. Aggregations
 * keep one row per key and window in a window store (retention: `Materialized.withRetention`,
 * else window size plus grace for time windows, twice the time difference plus grace for
 * sliding windows) and return a table keyed by `Windowed<K>`.
 *
 * A record updates every window containing its timestamp; a window accepts records until
 * stream time reaches `window end + grace`, later ones are dropped and counted.
 *
 * Errors: `TopologyError` for a taken name or a retention below the minimum: fix the call.
 */
export class TimeWindowedKStream<K, V> {
  private strategy = EmitStrategy.onWindowUpdate();

  /** @internal Made by `KGroupedStream.windowedBy`. */
  constructor(
    private readonly windows: TimeWindows | SlidingWindows,
    private readonly aggregates: GroupedStreamAggregateBuilder<K, V>,
    /** @internal Makes the streams of the tables it makes. */
    private readonly streamOf: StreamOfNode,
  ) {}

  /**
   * When the aggregations made after this call emit (Kafka Streams'
   * `TimeWindowedKStream.emitStrategy`): every update (the default), or with
   * `EmitStrategy.onWindowClose()` one final result per window once stream time passes its
   * end plus grace (the window store is then not cached).
   */
  emitStrategy(strategy: EmitStrategy): this {
    this.strategy = strategy;
    return this;
  }

  /** One row per key and window in a timestamped window store, emitting as the strategy says. */
  private get kind(): AggregateKind<K, V, Windowed<K>> {
    const { windows } = this;
    const onClose = this.strategy.type() === 'ON_WINDOW_CLOSE';
    const time = windows instanceof TimeWindows;
    const size = time ? windows.size() : windows.timeDifferenceMs();
    const range = time ? timeWindowCloseRange(windows) : slidingWindowCloseRange(windows);
    const store = time ? timestampedWindowStore(windows) : slidingWindowStore(windows);
    const emitter =
      <VA>(storeName: string) =>
      (): WindowResultEmitter<K, VA> =>
        onClose ? new WindowCloseEmitter<K, VA>(storeName, range) : onWindowUpdateEmitter<K, VA>();
    return {
      tableKeySerde: (keySerde) => keySerde && new TimeWindowedSerde(keySerde, size),
      store: onClose ? withoutCaching(store) : store,
      supplier: <VA>(storeName: string, aggregate: AggregateFunction<K, V, VA>) =>
        time
          ? windowAggregateSupplier(storeName, windows, aggregate, emitter<VA>(storeName))
          : slidingWindowAggregateSupplier(storeName, windows, aggregate, emitter<VA>(storeName)),
      windowGraceMs: windows.gracePeriodMs(),
    };
  }

  /** Counts the records per key and window. */
  count(materialized?: Materialized<K, number>, named?: Named): KTable<Windowed<K>, number> {
    return new KTable(this.aggregates.count(this.kind, materialized, named), this.streamOf);
  }

  /** Combines the values per key and window with `reducer(aggregate, value)`. */
  reduce(
    reducer: Reducer<V>,
    materialized?: Materialized<K, V>,
    named?: Named,
  ): KTable<Windowed<K>, V> {
    return new KTable(
      this.aggregates.reduce(this.kind, reducer, materialized, named),
      this.streamOf,
    );
  }

  /** Folds the values per key and window, each window starting from `initializer()`. */
  aggregate<VA>(
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>,
    materialized?: Materialized<K, VA>,
    named?: Named,
  ): KTable<Windowed<K>, VA> {
    const table = this.aggregates.aggregate(
      this.kind,
      initializer,
      aggregator,
      materialized,
      named,
    );
    return new KTable(table, this.streamOf);
  }
}
