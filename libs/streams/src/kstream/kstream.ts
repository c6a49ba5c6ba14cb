import { BranchedKStream } from './branched-kstream';
import type {
  ForeachAction,
  KeyValue,
  KeyValueMapper,
  Predicate,
  ValueJoiner,
  ValueMapper,
} from './functions';
import type { Grouped } from './grouped';
import { KGroupedStream } from './kgrouped-stream';
import type { GlobalKTable } from './global-ktable';
import { KTable } from './ktable';
import type { Materialized } from './materialized';
import type { Joined } from './joined';
import type { Named } from './named';
import type { Produced } from './produced';
import type { Repartitioned } from './repartitioned';
import type { StreamJoined } from './stream-joined';
import type { JoinWindows } from './windows/join-windows';
import {
  filterProcessor,
  flatMapProcessor,
  flatMapValuesProcessor,
  mapProcessor,
  mapValuesProcessor,
  peekProcessor,
  selectKeyProcessor,
} from './internals/stateless.processor';
import { NAMES } from './internals/naming';
import { mergeStreams, repartitionStream, streamToTopic } from './internals/stream-operators';
import { streamToTable } from './internals/stream-to-table';
import { joinFromStream, type JoinArguments } from './internals/stream-join-dispatch';
import type { StreamNode } from './internals/stream-node';
import type { FixedKeyProcessorSupplier } from '../processor/fixed-key-processor';
import type { ProcessorSupplier } from '../processor/processor';
import { KStreamProcessValuesProcessor } from './internals/kstream-process-values.processor';

/**
 * An unbounded stream of records (Kafka Streams' `KStream`): each record is an independent
 * event. Made by `StreamsBuilder.stream` and by operations on streams and tables; every
 * operation adds a processor to the topology and returns a new stream (the receiver is not
 * changed).
 *
 * Operations that may change the key (`map`, `flatMap`, `selectKey`, `groupBy`) mark the
 * result as needing a repartition: the next stateful operation (an aggregation or a join)
 * first writes the records through an internal topic `<applicationId>-<name>-repartition`,
 * so that every key lands on one task. Use `mapValues`/`flatMapValues` where the key stays.
 *
 * Errors: operations throw `TopologyError` on a build mistake (a taken name, streams of two
 * builders): fix the call. User functions that throw fail the task at run time (see
 * `functions.ts`).
 */
export class KStream<K, V> {
  /** @internal */
  constructor(
    /** @internal */ readonly node: StreamNode<K, V>,
    /** @internal True after a key-changing operation (until a repartition). */
    readonly repartitionRequired: boolean,
  ) {}

  /** Keeps the records `predicate` accepts. */
  filter(predicate: Predicate<K, V>, named?: Named): KStream<K, V> {
    return this.stateless(named, NAMES.FILTER, () => filterProcessor(predicate, false));
  }

  /** Drops the records `predicate` accepts. */
  filterNot(predicate: Predicate<K, V>, named?: Named): KStream<K, V> {
    return this.stateless(named, NAMES.FILTER, () => filterProcessor(predicate, true));
  }

  /** Replaces each record's key and value with `mapper`'s `{ key, value }` (marks for repartition). */
  map<KR, VR>(mapper: KeyValueMapper<K, V, KeyValue<KR, VR>>, named?: Named): KStream<KR, VR> {
    const name = this.nameFor(named, NAMES.MAP);
    this.addProcessor(name, () => mapProcessor(mapper));
    return this.derive<KR, VR>(name, undefined, undefined, true);
  }

  /** Replaces each record's value; `mapper` gets `(value, key)`. Keeps the key. */
  mapValues<VR>(mapper: ValueMapper<V, VR, K>, named?: Named): KStream<K, VR> {
    const name = this.nameFor(named, NAMES.MAPVALUES);
    this.addProcessor(name, () => mapValuesProcessor(mapper));
    return this.derive<K, VR>(name, this.node.keySerde, undefined, this.repartitionRequired);
  }

  /** Replaces each record with zero or more `{ key, value }` records (marks for repartition). */
  flatMap<KR, VR>(
    mapper: KeyValueMapper<K, V, Iterable<KeyValue<KR, VR>>>,
    named?: Named,
  ): KStream<KR, VR> {
    const name = this.nameFor(named, NAMES.FLATMAP);
    this.addProcessor(name, () => flatMapProcessor(mapper));
    return this.derive<KR, VR>(name, undefined, undefined, true);
  }

  /** Replaces each record with one record per value `mapper` returns. Keeps the key. */
  flatMapValues<VR>(mapper: ValueMapper<V, Iterable<VR>, K>, named?: Named): KStream<K, VR> {
    const name = this.nameFor(named, NAMES.FLATMAPVALUES);
    this.addProcessor(name, () => flatMapValuesProcessor(mapper));
    return this.derive<K, VR>(name, this.node.keySerde, undefined, this.repartitionRequired);
  }

  /** Gives each record the key `mapper` computes (marks for repartition). */
  selectKey<KR>(mapper: KeyValueMapper<K, V, KR>, named?: Named): KStream<KR, V> {
    const name = this.nameFor(named, NAMES.KEY_SELECT);
    this.addProcessor(name, () => selectKeyProcessor(mapper));
    return this.derive<KR, V>(name, undefined, this.node.valueSerde, true);
  }

  /** Calls `action` for each record and passes the record on (for logging, metrics). */
  peek(action: ForeachAction<K, V>, named?: Named): KStream<K, V> {
    return this.stateless(named, NAMES.PEEK, () => peekProcessor(action, true));
  }

  /** Calls `action` for each record; a terminal operation. */
  foreach(action: ForeachAction<K, V>, named?: Named): void {
    const name = this.nameFor(named, NAMES.FOREACH);
    this.addProcessor(name, () => peekProcessor(action, false));
  }

  /**
   * Splits the stream by predicates into named branches (see {@link BranchedKStream}).
   * `named` prefixes the branch names and names the splitting processor.
   */
  split(named?: Named): BranchedKStream<K, V> {
    const { repartitionRequired } = this;
    return new BranchedKStream<K, V>(
      this.node,
      this.nameFor(named, NAMES.BRANCH),
      (branch) => new KStream<K, V>(branch, repartitionRequired),
    );
  }

  /**
   * Interleaves this stream's and `other`'s records (no ordering guarantee between them).
   *
   * @throws TopologyError when `other` comes from another builder.
   */
  merge(other: KStream<K, V>, named?: Named): KStream<K, V> {
    const node = mergeStreams(this.node, other.node, named);
    return new KStream<K, V>(node, this.repartitionRequired || other.repartitionRequired);
  }

  /** Writes every record to `topic` (serdes from `produced`, else the application defaults). */
  to(topic: string, produced?: Produced<K, V>): void {
    streamToTopic(this.node, topic, produced);
  }

  /**
   * Writes the stream through an internal topic `<applicationId>-<name>-repartition` and reads
   * it back, so records are partitioned by their current key (or by `repartitioned`'s
   * partitioner, into its partition count). The result needs no further repartition.
   *
   * @throws TopologyError when the repartition name is taken.
   */
  repartition(repartitioned?: Repartitioned<K, V>): KStream<K, V> {
    return streamOf(repartitionStream(this.node, repartitioned));
  }

  /**
   * The stream read as a table (Kafka Streams' `toTable`): each record upserts its key (`null`
   * deletes it). `KSTREAM-TOTABLE-<n>`, repartitioned first when the key changed; its store is
   * `materialized`'s (queryable), else `KSTREAM-TOTABLE-STATE-STORE-<n>`, created when read.
   *
   * @throws TopologyError for a taken name.
   */
  toTable(named?: Named, materialized?: Materialized<K, V>): KTable<K, V> {
    return new KTable<K, V>(streamToTable(this, named, materialized), streamOf);
  }

  /**
   * Groups by the current key for an aggregation. After a key change the aggregation first
   * repartitions (topic named after `grouped`'s name, else after the aggregation's store).
   */
  groupByKey(grouped?: Grouped<K, V>): KGroupedStream<K, V> {
    const keySerde = grouped?.keySerde ?? this.node.keySerde;
    const valueSerde = grouped?.valueSerde ?? this.node.valueSerde;
    const node = { ...this.node, keySerde, valueSerde };
    return new KGroupedStream<K, V>(node, this.repartitionRequired, grouped?.name, streamOf);
  }

  /**
   * Groups by the key `selector` computes; the aggregation repartitions first. With a
   * `grouped` name `n`, the key-selecting processor is `n` and the topic `n-repartition`.
   */
  groupBy<KR>(selector: KeyValueMapper<K, V, KR>, grouped?: Grouped<KR, V>): KGroupedStream<KR, V> {
    const name = this.node.builder.nameOrGenerate(grouped?.name, NAMES.KEY_SELECT);
    this.addProcessor(name, () => selectKeyProcessor(selector));
    return new KGroupedStream<KR, V>(
      {
        ...this.node,
        name,
        keySerde: grouped?.keySerde,
        valueSerde: grouped?.valueSerde ?? this.node.valueSerde,
      },
      true,
      grouped?.name,
      streamOf,
    );
  }

  /**
   * Stream-stream inner join (`otherStream`, `windows`): each record joins the other stream's
   * records of the same key whose timestamps are within `windows` of its own
   * (`joiner(thisValue, otherValue, key)`, at the later timestamp). Both streams keep their
   * records in window stores (`KSTREAM-JOINTHIS-...-store`, `KSTREAM-JOINOTHER-...-store`,
   * change-logged); a stream whose key changed is repartitioned first. Both sides' topics
   * must be co-partitioned (checked at start).
   *
   * Stream-table inner join (`table`): each record is joined with the table's current row for
   * its key (`joiner(value, row, key)`); records without a row are dropped, table updates emit
   * nothing. The stream is repartitioned first when its key changed (topic `<joined name or
   * this node's name>-repartition`). Stream-global table join (`globalTable`): the same with
   * the row of the key `keySelector(key, value)` computes, no repartition, no co-partitioning.
   *
   * @throws TopologyError when the other side comes from another builder, or for store
   *   suppliers that do not fit the join window.
   */
  join<VO, VR>(
    otherStream: KStream<K, VO>,
    joiner: ValueJoiner<V, VO, VR, K>,
    windows: JoinWindows,
    streamJoined?: StreamJoined<K, V, VO>,
  ): KStream<K, VR>;
  join<VT, VR>(
    table: KTable<K, VT>,
    joiner: ValueJoiner<V, VT, VR, K>,
    joined?: Joined<K, V, VT>,
  ): KStream<K, VR>;
  join<KG, VG, VR>(
    globalTable: GlobalKTable<KG, VG>,
    keySelector: KeyValueMapper<K, V, KG>,
    joiner: ValueJoiner<V, VG, VR, K>,
    named?: Named,
  ): KStream<K, VR>;
  join<VO, VR>(
    other: KStream<K, VO> | KTable<K, VO> | GlobalKTable<unknown, VO>,
    second: ValueJoiner<V, VO, VR, K> | KeyValueMapper<K, V, unknown>,
    third?: JoinWindows | Joined<K, V, VO> | ValueJoiner<V, VO, VR, K>,
    fourth?: StreamJoined<K, V, VO> | Named,
  ): KStream<K, VR> {
    return this.joinWith(other, [second, third, fourth] as JoinArguments<K, V, VO, VR>, 'inner');
  }

  /**
   * Stream-stream left join: like the stream-stream {@link KStream.join}, and a record that
   * found no partner once its window closed (stream time past its timestamp + after + grace)
   * is emitted once with `null` for the other side (Kafka Streams' semantics since 3.1). The
   * records waiting for that are kept in `KSTREAM-OUTERSHARED-...-store`.
   *
   * Stream-table and stream-global table left joins: like {@link KStream.join}, but a record
   * without a row is joined with `null`.
   *
   * @throws TopologyError as {@link KStream.join}.
   */
  leftJoin<VO, VR>(
    otherStream: KStream<K, VO>,
    joiner: ValueJoiner<V, VO | null, VR, K>,
    windows: JoinWindows,
    streamJoined?: StreamJoined<K, V, VO>,
  ): KStream<K, VR>;
  leftJoin<VT, VR>(
    table: KTable<K, VT>,
    joiner: ValueJoiner<V, VT | null, VR, K>,
    joined?: Joined<K, V, VT>,
  ): KStream<K, VR>;
  leftJoin<KG, VG, VR>(
    globalTable: GlobalKTable<KG, VG>,
    keySelector: KeyValueMapper<K, V, KG>,
    joiner: ValueJoiner<V, VG | null, VR, K>,
    named?: Named,
  ): KStream<K, VR>;
  leftJoin<VO, VR>(
    other: KStream<K, VO> | KTable<K, VO> | GlobalKTable<unknown, VO>,
    second: ValueJoiner<V, VO | null, VR, K> | KeyValueMapper<K, V, unknown>,
    third?: JoinWindows | Joined<K, V, VO> | ValueJoiner<V, VO | null, VR, K>,
    fourth?: StreamJoined<K, V, VO> | Named,
  ): KStream<K, VR> {
    return this.joinWith(other, [second, third, fourth] as JoinArguments<K, V, VO, VR>, 'left');
  }

  /**
   * Stream-stream outer join: like the stream-stream {@link KStream.leftJoin}, for both sides:
   * a record of either stream that found no partner once its window closed is emitted once
   * with `null` for the missing side.
   *
   * @throws TopologyError as {@link KStream.join}.
   */
  outerJoin<VO, VR>(
    otherStream: KStream<K, VO>,
    joiner: ValueJoiner<V | null, VO | null, VR, K>,
    windows: JoinWindows,
    streamJoined?: StreamJoined<K, V, VO>,
  ): KStream<K, VR> {
    return this.joinWith(otherStream, [joiner, windows, streamJoined], 'outer');
  }

  /**
   * Adds a processor of your own (Processor API) fed by this stream, connected to the named
   * stores (add them with `StreamsBuilder.addStateStore`). The result may have any key:
   * it is marked for repartition.
   *
   * @throws TopologyError for an unknown store name or a taken processor name.
   */
  process<KR, VR>(
    supplier: ProcessorSupplier<K, V, KR, VR>,
    named?: Named,
    ...storeNames: string[]
  ): KStream<KR, VR> {
    const name = this.addOwnProcessor(NAMES.PROCESSOR, supplier, named, storeNames);
    return this.derive<KR, VR>(name, undefined, undefined, true);
  }

  /**
   * Adds a processor of your own that transforms values, never keys (Kafka Streams'
   * `processValues`, `KSTREAM-PROCESSVALUES-<n>`): it gets each record as a `FixedKeyRecord`
   * and forwards copies with other values, so the result keeps this stream's partitioning (no
   * repartition before the next stateful operation). Connected to the named stores.
   *
   * @throws TopologyError for an unknown store name or a taken processor name.
   */
  processValues<VR>(
    supplier: FixedKeyProcessorSupplier<K, V, VR>,
    named?: Named,
    ...storeNames: string[]
  ): KStream<K, VR> {
    const adapter = () => new KStreamProcessValuesProcessor<K, V, VR>(supplier());
    const name = this.addOwnProcessor(NAMES.PROCESSVALUES, adapter, named, storeNames);
    return this.derive<K, VR>(name, this.node.keySerde, undefined, this.repartitionRequired);
  }

  private joinWith<VO, VR>(
    other: KStream<K, VO> | KTable<K, VO> | GlobalKTable<unknown, VO>,
    args: JoinArguments<K, V, VO, VR>,
    kind: 'inner' | 'left' | 'outer',
  ): KStream<K, VR> {
    const joined = joinFromStream(this, other, args, kind);
    return new KStream<K, VR>(joined.node, joined.repartitionRequired);
  }

  /** A processor of the user's, named (Kafka burns no index for it then) and with its stores. */
  private addOwnProcessor<KR, VR>(
    prefix: string,
    supplier: ProcessorSupplier<K, V, KR, VR>,
    named: Named | undefined,
    storeNames: readonly string[],
  ): string {
    const name = named?.name ?? this.node.builder.newProcessorName(prefix);
    this.addProcessor(name, supplier);
    this.node.builder.topology.connectProcessorAndStateStores(name, ...storeNames);
    return name;
  }

  private stateless(
    named: Named | undefined,
    prefix: string,
    supplier: ProcessorSupplier<K, V, K, V>,
  ): KStream<K, V> {
    const name = this.nameFor(named, prefix);
    this.addProcessor(name, supplier);
    return this.derive<K, V>(
      name,
      this.node.keySerde,
      this.node.valueSerde,
      this.repartitionRequired,
    );
  }

  private nameFor(named: Named | undefined, prefix: string): string {
    return this.node.builder.nameOrGenerate(named?.name, prefix);
  }

  private addProcessor<KR, VR>(name: string, supplier: ProcessorSupplier<K, V, KR, VR>): void {
    this.node.builder.topology.addProcessor(name, supplier, this.node.name);
  }

  private derive<KR, VR>(
    name: string,
    keySerde: StreamNode<KR, VR>['keySerde'],
    valueSerde: StreamNode<KR, VR>['valueSerde'],
    repartitionRequired: boolean,
  ): KStream<KR, VR> {
    const { builder, sourceTopics } = this.node;
    return new KStream<KR, VR>(
      { builder, name, keySerde, valueSerde, sourceTopics },
      repartitionRequired,
    );
  }
}

/**
 * Wraps a node as a stream that needs no repartition: how tables (`KTable.toStream`) and
 * joins make streams (see `StreamOfNode`).
 */
export function streamOf<K, V>(node: StreamNode<K, V>): KStream<K, V> {
  return new KStream<K, V>(node, false);
}
