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
import { slidingWindowStore, timestampedWindowStore } from './internals/window-store-materializer';
import { slidingWindowAggregateSupplier } from './internals/windowed/sliding-window-aggregate.processor';
import { onWindowUpdateEmitter } from './internals/windowed/window-result-emitter';

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
  /** One row per key and window in a timestamped window store. */
  private readonly kind: AggregateKind<K, V, Windowed<K>>;

  /** @internal Made by `KGroupedStream.windowedBy`. */
  constructor(
    windows: TimeWindows | SlidingWindows,
    private readonly aggregates: GroupedStreamAggregateBuilder<K, V>,
    /** @internal Makes the streams of the tables it makes. */
    private readonly streamOf: StreamOfNode,
  ) {
    this.kind =
      windows instanceof TimeWindows
        ? {
            tableKeySerde: () => undefined,
            store: timestampedWindowStore(windows),
            supplier: (storeName, aggregate) =>
              windowAggregateSupplier(storeName, windows, aggregate),
          }
        : {
            tableKeySerde: () => undefined,
            store: slidingWindowStore(windows),
            supplier: <VA>(storeName: string, aggregate: AggregateFunction<K, V, VA>) =>
              slidingWindowAggregateSupplier(storeName, windows, aggregate, () =>
                onWindowUpdateEmitter<K, VA>(),
              ),
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
