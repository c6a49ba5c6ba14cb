import { Serdes } from '../serde/serdes';
import type { Aggregator, Initializer, Reducer } from './functions';
import type { Materialized } from './materialized';
import type { Named } from './named';
import type { KTable } from './ktable';
import type { SessionWindowedKStream } from './session-windowed-kstream';
import type { TimeWindowedKStream } from './time-windowed-kstream';
import { SessionWindows } from './windows/session-windows';
import type { TimeWindows } from './windows/time-windows';
import { GroupedStreamAggregateBuilder } from './internals/grouped-stream-aggregate-builder';
import {
  KStreamAggregateSupplier,
  type AggregateFunction,
} from './internals/kstream-aggregate.processor';
import { NAMES } from './internals/naming';
import type { StreamNode } from './internals/stream-node';
import { timestampedKeyValueStore } from './internals/store-materializer';
import type { Serde } from '../serde/serde';

/**
 * A stream grouped by key, ready to aggregate (Kafka Streams' `KGroupedStream`). Each
 * aggregation keeps one row per key in a timestamped key-value store (named by
 * `Materialized.as`, and then queryable; else `KSTREAM-AGGREGATE-STATE-STORE-<index>`) and
 * returns it as a {@link KTable}. Records with a `null` key or value are skipped (counted).
 *
 * When the grouping follows a key change the records are repartitioned first, through
 * `<applicationId>-<Grouped name, else the store name>-repartition`.
 *
 * Errors: `TopologyError` for a taken name; `RangeError` from `Materialized.as` for an
 * invalid store name. Fix the call.
 */
export class KGroupedStream<K, V> {
  private readonly aggregates: GroupedStreamAggregateBuilder<K, V>;

  /** @internal Made by `KStream.groupByKey` and `groupBy`. */
  constructor(
    /** @internal */ readonly node: StreamNode<K, V>,
    /** @internal */ readonly repartitionRequired: boolean,
    /** @internal The `Grouped` name, which names the repartition topic. */
    readonly repartitionName: string | undefined,
  ) {
    this.aggregates = new GroupedStreamAggregateBuilder(node, repartitionRequired, repartitionName);
  }

  /** Counts the records per key (values in the store: `Serdes.Long()` unless given). */
  count(materialized?: Materialized<K, number>, named?: Named): KTable<K, number> {
    return this.doAggregate<number>(
      NAMES.AGGREGATE,
      (_key, _value, count) => (count ?? 0) + 1,
      materialized,
      named,
      Serdes.Long(),
    );
  }

  /**
   * Combines the values per key with `reducer(aggregate, value)`; the first value of a key is
   * its first aggregate.
   */
  reduce(reducer: Reducer<V>, materialized?: Materialized<K, V>, named?: Named): KTable<K, V> {
    return this.doAggregate<V>(
      NAMES.REDUCE,
      (_key, value, aggregate) => (aggregate === undefined ? value : reducer(aggregate, value)),
      materialized,
      named,
      this.node.valueSerde,
    );
  }

  /**
   * Folds the values per key: `aggregator(key, value, aggregate)`, starting from
   * `initializer()` for a key's first record. Give `materialized` a value serde for `VA`
   * (else the application's default value serde is used).
   */
  aggregate<VA>(
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>,
    materialized?: Materialized<K, VA>,
    named?: Named,
  ): KTable<K, VA> {
    return this.doAggregate<VA>(
      NAMES.AGGREGATE,
      (key, value, aggregate) =>
        aggregator(key, value, aggregate === undefined ? initializer() : aggregate),
      materialized,
      named,
      undefined,
    );
  }

  /** Aggregates per key and time window (tumbling or hopping); see {@link TimeWindowedKStream}. */
  windowedBy(windows: TimeWindows): TimeWindowedKStream<K, V>;
  /** Aggregates per key and session; see {@link SessionWindowedKStream}. */
  windowedBy(windows: SessionWindows): SessionWindowedKStream<K, V>;
  windowedBy(
    windows: TimeWindows | SessionWindows,
  ): TimeWindowedKStream<K, V> | SessionWindowedKStream<K, V> {
    if (windows instanceof SessionWindows) {
      return new this.node.builder.dsl.SessionWindowedKStream(this.node, windows, this.aggregates);
    }
    return new this.node.builder.dsl.TimeWindowedKStream(this.node, windows, this.aggregates);
  }

  private doAggregate<VA>(
    prefix: string,
    aggregate: AggregateFunction<K, V, VA>,
    materialized: Materialized<K, VA> | undefined,
    named: Named | undefined,
    defaultValueSerde: Serde<VA> | undefined,
  ): KTable<K, VA> {
    return this.aggregates.table<K, VA>({
      prefix,
      materialized,
      named,
      defaultValueSerde,
      tableKeySerde: (keySerde) => keySerde,
      store: (storeName, keySerde, valueSerde) =>
        timestampedKeyValueStore(storeName, materialized, keySerde, valueSerde),
      supplier: (storeName) => new KStreamAggregateSupplier<K, V, VA>(storeName, aggregate),
    });
  }
}
