import type { Aggregator, Initializer, Reducer } from './functions';
import type { Materialized } from './materialized';
import type { Named } from './named';
import { KTable, type StreamOfNode } from './ktable';
import { SessionWindowedCogroupedKStream } from './session-windowed-cogrouped-kstream';
import { TimeWindowedCogroupedKStream } from './time-windowed-cogrouped-kstream';
import { keyValueCogroup } from './internals/cogroup/cogroup-kinds';
import {
  cogroupedAggregate,
  type CogroupedInput,
} from './internals/cogroup/cogrouped-stream-aggregate-builder';
import { SessionWindowedKStream } from './session-windowed-kstream';
import { TimeWindowedKStream } from './time-windowed-kstream';
import { SessionWindows } from './windows/session-windows';
import type { SlidingWindows } from './windows/sliding-windows';
import type { TimeWindows } from './windows/time-windows';
import {
  GroupedStreamAggregateBuilder,
  type AggregateKind,
} from './internals/grouped-stream-aggregate-builder';
import { aggregateSupplier } from './internals/kstream-aggregate.processor';
import type { StreamNode } from './internals/stream-node';
import { timestampedKeyValueStore } from './internals/store-materializer';

/**
 * Several grouped streams aggregated together into one table (Kafka Streams'
 * `CogroupedKStream`), from `KGroupedStream.cogroup`: each stream folds its records into the
 * shared aggregate of their key with its own aggregator, so one store and one changelog serve
 * them all (instead of one aggregation per stream and joins). The streams' topics must be
 * co-partitioned; a stream whose key changed is repartitioned first, through `<its Grouped
 * name, else the store name>-repartition`.
 *
 * Errors: `TopologyError` for a taken name or streams of two builders.
 */
export interface CogroupedKStream<K, VOut> {
  /** Adds `groupedStream`, folded in by `aggregator(key, value, aggregate)`. Returns this. */
  cogroup<VIn>(
    groupedStream: KGroupedStream<K, VIn>,
    aggregator: Aggregator<K, VIn, VOut>,
  ): CogroupedKStream<K, VOut>;
  /**
   * Aggregates per key from `initializer()` into `materialized`'s store (else
   * `COGROUPKSTREAM-AGGREGATE-STATE-STORE-<n>`); processors `COGROUPKSTREAM-AGGREGATE-<n>` per
   * stream and `COGROUPKSTREAM-MERGE-<n>` (or `<named>-cogroup-agg-<i>`, `<named>-cogroup-merge`).
   */
  aggregate(
    initializer: Initializer<VOut>,
    materialized?: Materialized<K, VOut>,
    named?: Named,
  ): KTable<K, VOut>;
  /** Aggregates per key and time or sliding window; see {@link TimeWindowedCogroupedKStream}. */
  windowedBy(windows: TimeWindows | SlidingWindows): TimeWindowedCogroupedKStream<K, VOut>;
  /** Aggregates per key and session; see {@link SessionWindowedCogroupedKStream}. */
  windowedBy(windows: SessionWindows): SessionWindowedCogroupedKStream<K, VOut>;
}

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
  /** One row per key in a timestamped key-value store. */
  private readonly kind: AggregateKind<K, V, K> = {
    tableKeySerde: (keySerde) => keySerde,
    store: timestampedKeyValueStore,
    supplier: (storeName, aggregate) => aggregateSupplier(storeName, aggregate),
  };

  /** @internal Made by `KStream.groupByKey` and `groupBy`. */
  constructor(
    /** @internal */ readonly node: StreamNode<K, V>,
    /** @internal */ readonly repartitionRequired: boolean,
    /** @internal The `Grouped` name, which names the repartition topic. */
    readonly repartitionName: string | undefined,
    /** @internal Makes the streams of the tables it makes. */
    private readonly streamOf: StreamOfNode,
  ) {
    this.aggregates = new GroupedStreamAggregateBuilder(node, repartitionRequired, repartitionName);
  }

  /** Counts the records per key (values in the store: `Serdes.Long()` unless given). */
  count(materialized?: Materialized<K, number>, named?: Named): KTable<K, number> {
    return new KTable(this.aggregates.count(this.kind, materialized, named), this.streamOf);
  }

  /**
   * Combines the values per key with `reducer(aggregate, value)`; the first value of a key is
   * its first aggregate.
   */
  reduce(reducer: Reducer<V>, materialized?: Materialized<K, V>, named?: Named): KTable<K, V> {
    return new KTable(
      this.aggregates.reduce(this.kind, reducer, materialized, named),
      this.streamOf,
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
    const table = this.aggregates.aggregate(
      this.kind,
      initializer,
      aggregator,
      materialized,
      named,
    );
    return new KTable(table, this.streamOf);
  }

  /**
   * Starts a cogrouped aggregation with this stream, folded in by `aggregator`; add the other
   * streams with `cogroup` on the result, then `aggregate` (see {@link CogroupedKStream}).
   */
  cogroup<VOut>(aggregator: Aggregator<K, V, VOut>): CogroupedKStream<K, VOut> {
    const inputs = new Map<object, CogroupedInput<K, VOut>>();
    const add = <VIn>(grouped: KGroupedStream<K, VIn>, fold: Aggregator<K, VIn, VOut>): void => {
      const { node, repartitionRequired, repartitionName } = grouped;
      const aggregator = fold as Aggregator<K, unknown, VOut>;
      inputs.set(grouped, { node, repartitionRequired, repartitionName, aggregator });
    };
    add(this, aggregator);
    const { streamOf } = this;
    const cogrouped: CogroupedKStream<K, VOut> = {
      cogroup: (grouped, fold) => {
        add(grouped, fold);
        return cogrouped;
      },
      aggregate: (initializer, materialized, named) =>
        new KTable(
          cogroupedAggregate(
            [...inputs.values()],
            keyValueCogroup(),
            initializer,
            materialized,
            named,
          ),
          streamOf,
        ),
      windowedBy: ((windows: TimeWindows | SlidingWindows | SessionWindows) =>
        windows instanceof SessionWindows
          ? new SessionWindowedCogroupedKStream([...inputs.values()], windows, streamOf)
          : new TimeWindowedCogroupedKStream(
              [...inputs.values()],
              windows,
              streamOf,
            )) as CogroupedKStream<K, VOut>['windowedBy'],
    };
    return cogrouped;
  }

  /** Aggregates per key and time window (tumbling or hopping); see {@link TimeWindowedKStream}. */
  windowedBy(windows: TimeWindows): TimeWindowedKStream<K, V>;
  /**
   * Aggregates per key and sliding window (one window per distinct set of records within the
   * time difference); see {@link TimeWindowedKStream}.
   */
  windowedBy(windows: SlidingWindows): TimeWindowedKStream<K, V>;
  /** Aggregates per key and session; see {@link SessionWindowedKStream}. */
  windowedBy(windows: SessionWindows): SessionWindowedKStream<K, V>;
  windowedBy(
    windows: TimeWindows | SlidingWindows | SessionWindows,
  ): TimeWindowedKStream<K, V> | SessionWindowedKStream<K, V> {
    if (windows instanceof SessionWindows) {
      return new SessionWindowedKStream(this.node, windows, this.aggregates, this.streamOf);
    }
    return new TimeWindowedKStream(windows, this.aggregates, this.streamOf);
  }
}
