import type {
  Aggregator,
  Initializer,
  KeyValue,
  KeyValueMapper,
  Predicate,
  Reducer,
  ValueJoiner,
  ValueMapper,
} from './functions';
import type { Grouped } from './grouped';
import type { KStream } from './kstream';
import type { Materialized } from './materialized';
import type { Named } from './named';
import type { Suppressed } from './suppressed';
import type { TableJoined } from './table-joined';
import { foreignKeyJoin } from './internals/fk-join/foreign-key-join';
import type { ForeignKeyExtractor } from './internals/fk-join/subscription-send.processor';
import { tableTableJoin } from './internals/ktable-ktable-join';
import { KTableToStreamProcessor } from './internals/ktable-to-stream.processor';
import type { KTableProcessorSupplier } from './internals/ktable-value-getter';
import { NAMES } from './internals/naming';
import type { StreamNode } from './internals/stream-node';
import { suppressTable } from './internals/suppress/suppress-table';
import { tableFilter, tableMapValues } from './internals/table-operators';
import { groupTable } from './internals/table-grouping/grouped-table-aggregate-builder';
import type { TableNode } from './internals/table-node';

/**
 * Wraps a node as a stream that needs no repartition: the `KStream` class, handed to each table
 * by the builder or the stream that made it (a table sits below the streams whose aggregations
 * make it, so it does not import their class). Internal.
 */
export type StreamOfNode = <K, V>(node: StreamNode<K, V>) => KStream<K, V>;

/**
 * A table re-grouped by a new key (Kafka Streams' `KGroupedTable`), from `KTable.groupBy`:
 * each aggregation keeps one row per new key in a timestamped key-value store (named by
 * `Materialized.as`, and then queryable; else `KTABLE-AGGREGATE-STATE-STORE-<index>`) and
 * returns it as a {@link KTable}. A row's update first removes its old value from the
 * aggregate of the old value's key (the subtractor), then adds its new value to the new key's
 * (the adder); a deleted row is only removed.
 *
 * The changes travel through the repartition topic `<applicationId>-<Grouped name, else the
 * store name>-repartition`.
 *
 * Errors: `TopologyError` for a taken name; `RangeError` from `Materialized.as` for an invalid
 * store name. The adder and subtractor fail the task when they throw.
 */
export interface KGroupedTable<K, V> {
  /** Counts the rows per key (values in the store: `Serdes.Long()` unless given). */
  count(materialized?: Materialized<K, number>, named?: Named): KTable<K, number>;
  /** Combines the values per key: `adder(aggregate, new)`, `subtractor(aggregate, old)`. */
  reduce(
    adder: Reducer<V>,
    subtractor: Reducer<V>,
    materialized?: Materialized<K, V>,
    named?: Named,
  ): KTable<K, V>;
  /**
   * Folds the values per key from `initializer()`: `adder(key, new, aggregate)`,
   * `subtractor(key, old, aggregate)`. Give `materialized` a value serde for `VA`.
   */
  aggregate<VA>(
    initializer: Initializer<VA>,
    adder: Aggregator<K, V, VA>,
    subtractor: Aggregator<K, V, VA>,
    materialized?: Materialized<K, VA>,
    named?: Named,
  ): KTable<K, VA>;
}

/**
 * A changelog stream read as a table (Kafka Streams' `KTable`): one current value per key,
 * each record an upsert (a `null` value deletes the key). Made by `StreamsBuilder.table`, by
 * aggregations and by table operations.
 *
 * Updates flow downstream as changes of a key. With caching on (the default of
 * `Materialized`), a materialized table emits them when its cache flushes (on commit, or when
 * the cache evicts): repeated updates of one key between flushes collapse into one. With
 * caching off, every update is emitted at once. Both end in the same table.
 *
 * Errors: operations throw `TopologyError` on a build mistake (a taken name, tables of two
 * builders); `Materialized.as` throws `RangeError` for an invalid store name. Fix the call.
 */
export class KTable<K, V> {
  /** @internal */
  readonly node: StreamNode<K, V>;
  /** @internal How the table's rows are read and its updates made. */
  readonly supplier: KTableProcessorSupplier<K, V>;
  /**
   * The name of the store holding this table, when it was materialized under a name you
   * gave (`Materialized.as`): query it through `KafkaStreams.store`. Otherwise undefined.
   */
  readonly queryableStoreName: string | undefined;
  /** @internal A windowed table's window grace (see `TableNode.windowGraceMs`). */
  readonly windowGraceMs: number | undefined;

  /** @internal */
  constructor(
    table: TableNode<K, V>,
    /** @internal Makes the stream of {@link KTable.toStream}. */
    private readonly streamOf: StreamOfNode,
  ) {
    this.node = table.node;
    this.supplier = table.supplier;
    this.queryableStoreName = table.queryableStoreName;
    this.windowGraceMs = table.windowGraceMs;
  }

  /**
   * Keeps the rows `predicate` accepts; a row that stops passing is deleted (downstream sees
   * a `null` value). Materialized (and queryable) when `materialized` is given.
   */
  filter(
    predicate: Predicate<K, V>,
    named?: Named,
    materialized?: Materialized<K, V>,
  ): KTable<K, V> {
    return this.tableOf(tableFilter(this, predicate, false, named, materialized));
  }

  /** Drops the rows `predicate` accepts (see {@link KTable.filter}). */
  filterNot(
    predicate: Predicate<K, V>,
    named?: Named,
    materialized?: Materialized<K, V>,
  ): KTable<K, V> {
    return this.tableOf(tableFilter(this, predicate, true, named, materialized));
  }

  /**
   * Maps each row's value; `mapper` gets `(value, key)`. Deletes stay deletes.
   * Materialized (and queryable) when `materialized` is given.
   */
  mapValues<VR>(
    mapper: ValueMapper<V, VR, K>,
    named?: Named,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR> {
    return this.tableOf(tableMapValues(this, mapper, named, materialized));
  }

  /**
   * Holds back the table's updates (Kafka Streams' `KTable.suppress`):
   * `Suppressed.untilWindowCloses` emits one final result per window of a windowed table when
   * it closes, `Suppressed.untilTimeLimit` the latest update of a key once stream time is the
   * limit past its first held update. The updates wait in a buffer in memory
   * (`KTABLE-SUPPRESS-STATE-STORE-<index>`, change-logged and restored at start); the result is
   * not queryable.
   *
   * @throws TopologyError for `untilWindowCloses` on a table that is not windowed.
   */
  suppress(suppressed: Suppressed<K>): KTable<K, V> {
    return this.tableOf(suppressTable(this, suppressed));
  }

  /**
   * Re-groups the table by the key and value `selector` computes for each row (Kafka Streams'
   * `KTable.groupBy`), for an aggregation that can also remove values: see
   * {@link KGroupedTable}. With a `grouped` name `n`, the selecting processor is `n` and the
   * repartition topic `n-repartition`.
   *
   * @throws TopologyError for a taken name.
   */
  groupBy<KR, VR>(
    selector: KeyValueMapper<K, V, KeyValue<KR, VR>>,
    grouped?: Grouped<KR, VR>,
  ): KGroupedTable<KR, VR> {
    const aggregates = groupTable(this, selector, grouped);
    return {
      count: (materialized, named) => this.tableOf(aggregates.count(materialized, named)),
      reduce: (adder, subtractor, materialized, named) =>
        this.tableOf(aggregates.reduce(adder, subtractor, materialized, named)),
      aggregate: (initializer, adder, subtractor, materialized, named) =>
        this.tableOf(aggregates.aggregate(initializer, adder, subtractor, materialized, named)),
    };
  }

  /**
   * The table's updates as a stream: each update's key and new value (`null` for a deleted
   * row).
   */
  toStream(named?: Named): KStream<K, V> {
    const { builder } = this.node;
    const name = builder.nameOrGenerate(named?.name, NAMES.KTABLE_TOSTREAM);
    builder.topology.addProcessor(name, () => new KTableToStreamProcessor<K, V>(), this.node.name);
    return this.streamOf({ ...this.node, name });
  }

  /**
   * Table-table inner join on the key: the result has a row for every key both tables have,
   * `joiner(thisValue, otherValue, key)`, updated when either side changes, timestamped with
   * the later of the two rows. Both tables' topics must be co-partitioned (checked at start).
   * Materialized (and queryable) when `materialized` is given.
   *
   * Foreign-key join (`foreignKeyExtractor`): each row of this table joins the row of `other`
   * whose key `foreignKeyExtractor(value, key)` gives (many rows to one; no co-partitioning
   * needed), updated when either row changes; rows without a foreign key or partner have no
   * result. The join runs through `<name>-subscription-registration-topic`,
   * `<name>-subscription-response-topic` and a subscription store (see `TableJoined`).
   *
   * @throws TopologyError when `other` comes from another builder, or for a taken name.
   */
  join<VO, VR>(
    other: KTable<K, VO>,
    joiner: ValueJoiner<V, VO, VR, K>,
    named?: Named,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR>;
  join<KO, VO, VR>(
    other: KTable<KO, VO>,
    foreignKeyExtractor: ForeignKeyExtractor<K, V, KO>,
    joiner: ValueJoiner<V, VO, VR, K>,
    tableJoined?: TableJoined<K, KO>,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR>;
  join<KO, VO, VR>(
    other: KTable<KO, VO>,
    second: ForeignKeyExtractor<K, V, KO> | ValueJoiner<V, VO, VR, K>,
    third?: ValueJoiner<V, VO, VR, K> | Named,
    fourth?: TableJoined<K, KO> | Materialized<K, VR>,
    fifth?: Materialized<K, VR>,
  ): KTable<K, VR> {
    const nullable = second as ForeignKeyExtractor<K, V, KO> | ValueJoiner<V, VO | null, VR, K>;
    const joiner = third as ValueJoiner<V, VO | null, VR, K> | Named | undefined;
    return this.anyJoin(other, nullable, joiner, fourth, fifth, 'inner');
  }

  /**
   * Table-table left join: every row of this table, joined with `other`'s row or `null`.
   * Foreign-key left join (`foreignKeyExtractor`): every row of this table, joined with the
   * row its foreign key names or `null` (see {@link KTable.join}).
   *
   * @throws TopologyError when `other` comes from another builder, or for a taken name.
   */
  leftJoin<VO, VR>(
    other: KTable<K, VO>,
    joiner: ValueJoiner<V, VO | null, VR, K>,
    named?: Named,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR>;
  leftJoin<KO, VO, VR>(
    other: KTable<KO, VO>,
    foreignKeyExtractor: ForeignKeyExtractor<K, V, KO>,
    joiner: ValueJoiner<V, VO | null, VR, K>,
    tableJoined?: TableJoined<K, KO>,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR>;
  leftJoin<KO, VO, VR>(
    other: KTable<KO, VO>,
    second: ForeignKeyExtractor<K, V, KO> | ValueJoiner<V, VO | null, VR, K>,
    third?: ValueJoiner<V, VO | null, VR, K> | Named,
    fourth?: TableJoined<K, KO> | Materialized<K, VR>,
    fifth?: Materialized<K, VR>,
  ): KTable<K, VR> {
    return this.anyJoin(other, second, third, fourth, fifth, 'left');
  }

  /**
   * Table-table outer join: a row for every key either table has, `joiner` getting `null`
   * for the side without a row; deleted once both rows are.
   *
   * @throws TopologyError when `other` comes from another builder.
   */
  outerJoin<VO, VR>(
    other: KTable<K, VO>,
    joiner: ValueJoiner<V | null, VO | null, VR, K>,
    named?: Named,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR> {
    return this.tableOf(tableTableJoin(this, other, joiner, 'outer', named, materialized));
  }

  /** A key join (`second` the joiner) or a foreign-key join (`third` the joiner). */
  private anyJoin<KO, VO, VR>(
    other: KTable<KO, VO>,
    second: ForeignKeyExtractor<K, V, KO> | ValueJoiner<V, VO | null, VR, K>,
    third: ValueJoiner<V, VO | null, VR, K> | Named | undefined,
    fourth: TableJoined<K, KO> | Materialized<K, VR> | undefined,
    fifth: Materialized<K, VR> | undefined,
    kind: 'inner' | 'left',
  ): KTable<K, VR> {
    if (typeof third === 'function') {
      const joiner = (v: V | null, o: VO | null, k: K): VR => third(v as V, o, k);
      const extractor = second as ForeignKeyExtractor<K, V, KO>;
      const tableJoined = fourth as TableJoined<K, KO> | undefined;
      const table = foreignKeyJoin(
        this,
        other,
        extractor,
        joiner,
        kind === 'left',
        tableJoined,
        fifth,
      );
      return this.tableOf(table);
    }
    const join = second as ValueJoiner<V, VO | null, VR, K>;
    const joiner = (v: V | null, o: VO | null, k: K): VR => join(v as V, o, k);
    const same = other as unknown as KTable<K, VO>;
    const materialized = fourth as Materialized<K, VR> | undefined;
    return this.tableOf(tableTableJoin(this, same, joiner, kind, third, materialized));
  }

  /** Wraps a table node made from this table, sharing its stream maker. */
  private tableOf<KR, VR>(table: TableNode<KR, VR>): KTable<KR, VR> {
    return new KTable<KR, VR>(table, this.streamOf);
  }
}
