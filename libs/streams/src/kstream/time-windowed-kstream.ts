import { Serdes } from '../serde/serdes';
import type { Serde } from '../serde/serde';
import type { Aggregator, Initializer, Reducer } from './functions';
import type { KTable } from './ktable';
import type { Materialized } from './materialized';
import type { Named } from './named';
import type { TimeWindows } from './windows/time-windows';
import type { Windowed } from '../windowing/windowed';
import type { GroupedStreamAggregateBuilder } from './internals/grouped-stream-aggregate-builder';
import type { AggregateFunction } from './internals/kstream-aggregate.processor';
import { KStreamWindowAggregateSupplier } from './internals/kstream-window-aggregate.processor';
import { NAMES } from './internals/naming';
import type { StreamNode } from './internals/stream-node';
import { timestampedWindowStore } from './internals/window-store-materializer';

/**
 * A grouped stream windowed by time (Kafka Streams' `TimeWindowedKStream`), from
 * `groupByKey().windowedBy(TimeWindows...)`. Aggregations keep one row per key and window in
 * a window store (retention: `Materialized.withRetention`, else window size plus grace) and
 * return a table keyed by `Windowed<K>`.
 *
 * A record updates every window containing its timestamp; a window accepts records until
 * stream time reaches `window end + grace`, later ones are dropped and counted.
 *
 * Errors: `TopologyError` for a taken name or a retention below size + grace: fix the call.
 */
export class TimeWindowedKStream<K, V> {
  /** @internal Made by `KGroupedStream.windowedBy`. */
  constructor(
    private readonly node: StreamNode<K, V>,
    private readonly windows: TimeWindows,
    private readonly aggregates: GroupedStreamAggregateBuilder<K, V>,
  ) {}

  /** Counts the records per key and window. */
  count(materialized?: Materialized<K, number>, named?: Named): KTable<Windowed<K>, number> {
    return this.doAggregate<number>(
      NAMES.AGGREGATE,
      (_key, _value, count) => (count ?? 0) + 1,
      materialized,
      named,
      Serdes.Long(),
    );
  }

  /** Combines the values per key and window with `reducer(aggregate, value)`. */
  reduce(
    reducer: Reducer<V>,
    materialized?: Materialized<K, V>,
    named?: Named,
  ): KTable<Windowed<K>, V> {
    return this.doAggregate<V>(
      NAMES.REDUCE,
      (_key, value, aggregate) => (aggregate === undefined ? value : reducer(aggregate, value)),
      materialized,
      named,
      this.node.valueSerde,
    );
  }

  /** Folds the values per key and window, each window starting from `initializer()`. */
  aggregate<VA>(
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>,
    materialized?: Materialized<K, VA>,
    named?: Named,
  ): KTable<Windowed<K>, VA> {
    return this.doAggregate<VA>(
      NAMES.AGGREGATE,
      (key, value, aggregate) =>
        aggregator(key, value, aggregate === undefined ? initializer() : aggregate),
      materialized,
      named,
      undefined,
    );
  }

  private doAggregate<VA>(
    prefix: string,
    aggregate: AggregateFunction<K, V, VA>,
    materialized: Materialized<K, VA> | undefined,
    named: Named | undefined,
    defaultValueSerde: Serde<VA> | undefined,
  ): KTable<Windowed<K>, VA> {
    return this.aggregates.table<Windowed<K>, VA>({
      prefix,
      materialized,
      named,
      defaultValueSerde,
      tableKeySerde: () => undefined,
      store: (storeName, keySerde, valueSerde) =>
        timestampedWindowStore(storeName, this.windows, materialized, keySerde, valueSerde),
      supplier: (storeName) =>
        new KStreamWindowAggregateSupplier<K, V, VA>(storeName, this.windows, aggregate),
    });
  }
}
