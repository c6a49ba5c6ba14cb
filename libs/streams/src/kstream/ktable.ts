import type { ProcessorSupplier } from '../processor/processor';
import type { Predicate, ValueJoiner, ValueMapper } from './functions';
import type { Change } from './internals/change';
import type { KStream } from './kstream';
import type { Materialized } from './materialized';
import type { Named } from './named';
import type { Suppressed } from './suppressed';
import { suppressTable } from './internals/suppress/suppress-table';
import { bindingDefaultSerdes } from './internals/default-serde';
import { KTableFilterSupplier } from './internals/ktable-filter.processor';
import { KTableKTableJoinSupplier } from './internals/ktable-ktable-join.supplier';
import { KTableMapValuesSupplier } from './internals/ktable-map-values.processor';
import { KTableToStreamProcessor } from './internals/ktable-to-stream.processor';
import type { KTableProcessorSupplier } from './internals/ktable-value-getter';
import { NAMES } from './internals/naming';
import { requireSameBuilder, unionTopics, type StreamNode } from './internals/stream-node';
import { storeNameFor, timestampedKeyValueStore } from './internals/store-materializer';
import type { TableNode } from './internals/table-node';

/**
 * Wraps a node as a stream that needs no repartition: the `KStream` class, handed to each table
 * by the builder or the stream that made it (a table sits below the streams whose aggregations
 * make it, so it does not import their class). Internal.
 */
export type StreamOfNode = <K, V>(node: StreamNode<K, V>) => KStream<K, V>;

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
    return this.doFilter(predicate, false, named, materialized);
  }

  /** Drops the rows `predicate` accepts (see {@link KTable.filter}). */
  filterNot(
    predicate: Predicate<K, V>,
    named?: Named,
    materialized?: Materialized<K, V>,
  ): KTable<K, V> {
    return this.doFilter(predicate, true, named, materialized);
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
    const { builder } = this.node;
    const store = materialized
      ? storeNameFor(builder, materialized, NAMES.KTABLE_MAPVALUES)
      : undefined;
    const name = named?.name ?? builder.newProcessorName(NAMES.KTABLE_MAPVALUES);
    const supplier = new KTableMapValuesSupplier<K, V, VR>(this.supplier, mapper, store?.storeName);
    const valueSerde = materialized?.valueSerde;
    return this.addTableOperator<VR>(name, supplier, supplier.processorSupplier(), {
      materialized,
      storeName: store?.storeName,
      valueSerde,
    });
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
    return new KTable<K, V>(suppressTable(this, suppressed), this.streamOf);
  }

  /**
   * The table's updates as a stream: each update's key and new value (`null` for a deleted
   * row).
   */
  toStream(named?: Named): KStream<K, V> {
    const { builder } = this.node;
    const name = named?.name ?? builder.newProcessorName(NAMES.KTABLE_TOSTREAM);
    builder.topology.addProcessor(name, () => new KTableToStreamProcessor<K, V>(), this.node.name);
    return this.streamOf({ ...this.node, name });
  }

  /**
   * Table-table inner join on the key: the result has a row for every key both tables have,
   * `joiner(thisValue, otherValue)`, updated when either side changes, timestamped with the
   * later of the two rows. Both tables' topics must be co-partitioned (checked at start).
   * Materialized (and queryable) when `materialized` is given.
   *
   * @throws TopologyError when `other` comes from another builder.
   */
  join<VO, VR>(
    other: KTable<K, VO>,
    joiner: ValueJoiner<V, VO, VR, K>,
    named?: Named,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR> {
    return this.doJoin(other, (v, o, k) => joiner(v, o as VO, k), false, named, materialized);
  }

  /**
   * Table-table left join: every row of this table, joined with `other`'s row or `null`.
   *
   * @throws TopologyError when `other` comes from another builder.
   */
  leftJoin<VO, VR>(
    other: KTable<K, VO>,
    joiner: ValueJoiner<V, VO | null, VR, K>,
    named?: Named,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR> {
    return this.doJoin(other, joiner, true, named, materialized);
  }

  private doFilter(
    predicate: Predicate<K, V>,
    not: boolean,
    named: Named | undefined,
    materialized: Materialized<K, V> | undefined,
  ): KTable<K, V> {
    const { builder } = this.node;
    const store = materialized
      ? storeNameFor(builder, materialized, NAMES.KTABLE_FILTER)
      : undefined;
    const name = named?.name ?? builder.newProcessorName(NAMES.KTABLE_FILTER);
    const supplier = new KTableFilterSupplier<K, V>(
      this.supplier,
      predicate,
      not,
      store?.storeName,
    );
    return this.addTableOperator<V>(name, supplier, supplier.processorSupplier(), {
      materialized,
      storeName: store?.storeName,
      valueSerde: materialized?.valueSerde ?? this.node.valueSerde,
    });
  }

  private doJoin<VO, VR>(
    other: KTable<K, VO>,
    joiner: ValueJoiner<V, VO | null, VR, K>,
    leftJoin: boolean,
    named: Named | undefined,
    materialized: Materialized<K, VR> | undefined,
  ): KTable<K, VR> {
    requireSameBuilder(this.node, other.node, leftJoin ? 'leftJoin' : 'join');
    const { builder } = this.node;
    const store = materialized
      ? storeNameFor(builder, materialized, NAMES.KTABLE_MERGE)
      : undefined;
    const mergeName = named?.name ?? builder.newProcessorName(NAMES.KTABLE_MERGE);
    const thisName = named
      ? `${named.name}-join-this`
      : builder.newProcessorName(leftJoin ? NAMES.KTABLE_LEFTTHIS : NAMES.KTABLE_JOINTHIS);
    const otherName = named
      ? `${named.name}-join-other`
      : builder.newProcessorName(leftJoin ? NAMES.KTABLE_LEFTOTHER : NAMES.KTABLE_JOINOTHER);
    const sourceTopics = unionTopics(this.node.sourceTopics, other.node.sourceTopics);
    builder.copartition(sourceTopics);
    const join = new KTableKTableJoinSupplier<K, V, VO, VR>(
      this.supplier,
      other.supplier,
      joiner,
      leftJoin,
      store?.storeName,
    );
    const { topology } = builder;
    topology.addProcessor(thisName, join.leftProcessorSupplier(), this.node.name);
    topology.addProcessor(otherName, join.rightProcessorSupplier(), other.node.name);
    topology.connectProcessorAndStateStores(thisName, ...other.supplier.view().storeNames());
    topology.connectProcessorAndStateStores(otherName, ...this.supplier.view().storeNames());
    const keySerde = materialized?.keySerde ?? this.node.keySerde;
    const valueSerde = materialized?.valueSerde;
    let mergerSupplier = join.mergerSupplier();
    let queryable: string | undefined;
    if (store !== undefined) {
      const built = timestampedKeyValueStore(store.storeName, materialized, keySerde, valueSerde);
      mergerSupplier = bindingDefaultSerdes(mergerSupplier, built.defaultSerdes);
      topology.addProcessor(mergeName, mergerSupplier, thisName, otherName);
      topology.addStateStore(built.builder, mergeName);
      queryable = built.queryableStoreName;
    } else {
      topology.addProcessor(mergeName, mergerSupplier, thisName, otherName);
    }
    return new KTable<K, VR>(
      {
        node: { builder, name: mergeName, keySerde, valueSerde, sourceTopics },
        supplier: join,
        queryableStoreName: queryable,
      },
      this.streamOf,
    );
  }

  private addTableOperator<VR>(
    name: string,
    supplier: KTableProcessorSupplier<K, VR>,
    processorSupplier: ProcessorSupplier<K, Change<V>, K, Change<VR>>,
    options: {
      materialized: Materialized<K, VR> | undefined;
      storeName: string | undefined;
      valueSerde: StreamNode<K, VR>['valueSerde'];
    },
  ): KTable<K, VR> {
    const { builder } = this.node;
    const keySerde = options.materialized?.keySerde ?? this.node.keySerde;
    let queryable: string | undefined;
    if (options.storeName !== undefined) {
      const built = timestampedKeyValueStore(
        options.storeName,
        options.materialized,
        keySerde,
        options.valueSerde,
      );
      builder.topology.addProcessor(
        name,
        bindingDefaultSerdes(processorSupplier, built.defaultSerdes),
        this.node.name,
      );
      builder.topology.addStateStore(built.builder, name);
      queryable = built.queryableStoreName;
    } else {
      builder.topology.addProcessor(name, processorSupplier, this.node.name);
    }
    return new KTable<K, VR>(
      {
        node: { ...this.node, name, keySerde, valueSerde: options.valueSerde },
        supplier,
        queryableStoreName: queryable,
        windowGraceMs: this.windowGraceMs,
      },
      this.streamOf,
    );
  }
}
