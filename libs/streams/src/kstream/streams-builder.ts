import type { Topology } from '../processor/topology';
import type { StateStore } from '../processor/state-store';
import type { StoreBuilder } from '../processor/store-builder';
import type { ProcessorSupplier } from '../processor/processor';
import type { Consumed } from './consumed';
import { GlobalKTable } from './global-ktable';
import { globalTable } from './internals/global/global-table';
import { KStream, streamOf } from './kstream';
import { KTable } from './ktable';
import type { Materialized } from './materialized';
import { bindingDefaultSerdes } from './internals/default-serde';
import { InternalStreamsBuilder } from './internals/internal-streams-builder';
import { KTableSourceSupplier } from './internals/ktable-source.processor';
import { NAMES } from './internals/naming';
import { storeNameFor, timestampedKeyValueStore } from './internals/store-materializer';

/**
 * Builds a topology with the DSL (Kafka Streams' `StreamsBuilder`): start from topics with
 * {@link StreamsBuilder.stream} and {@link StreamsBuilder.table}, chain operations, then
 * {@link StreamsBuilder.build} the {@link Topology} to run with `KafkaStreams`.
 *
 * Node names are generated as in Kafka Streams, `<KIND>-<10-digit index>` from one counter
 * per builder (`KSTREAM-SOURCE-0000000000`, `KSTREAM-AGGREGATE-0000000003`...), unless named
 * with `Named`, `Consumed.as`, `Grouped`... A named operation still takes its index, as in
 * Kafka Streams 4.x (except `process`, `processValues`, `repartition` and `suppress`, which
 * take none when named), so naming one operation does not move the others' names. Name what
 * you will keep: generated names (and the repartition and changelog topics named after them)
 * shift when the topology changes.
 *
 * @example
 * const builder = new StreamsBuilder();
 * builder
 *   .stream('labs.events', Consumed.with(Serdes.String(), Serdes.Json<Event>()))
 *   .groupByKey()
 *   .count(Materialized.as('count-store'));
 * const topology = builder.build();
 *
 * Errors: every method throws `TopologyError` for a build mistake (a topic read twice, a
 * taken name, co-partitioned topics with different fixed partition counts): fix the call
 * named in the message.
 */
export class StreamsBuilder {
  private readonly internal = new InternalStreamsBuilder();

  /** A stream of the records of `topics` (one or more topics, read by one source node). */
  stream<K, V>(topics: string | readonly string[], consumed?: Consumed<K, V>): KStream<K, V> {
    const list = typeof topics === 'string' ? [topics] : [...topics];
    const name = this.internal.nameOrGenerate(consumed?.processorName, NAMES.SOURCE);
    this.internal.topology.addSource<K, V>(name, list, {
      keySerde: consumed?.keySerde,
      valueSerde: consumed?.valueSerde,
      timestampExtractor: consumed?.timestampExtractor,
    });
    return new KStream<K, V>(
      {
        builder: this.internal,
        name,
        keySerde: consumed?.keySerde,
        valueSerde: consumed?.valueSerde,
        sourceTopics: new Set(list),
      },
      false,
    );
  }

  /**
   * A table of the latest value per key of `topic` (a `null` value deletes the key), kept in a
   * timestamped key-value store: named by `materialized` (and then queryable and always
   * created), else `<topic>-STATE-STORE-<index>`. As in Kafka Streams, an unnamed table is
   * materialized only when an operator reads its rows (a join) or forces its old values
   * (`KTable.groupBy`, a suppression); otherwise it has no store and emits every record as it
   * comes. Nodes: a source (`KSTREAM-SOURCE-...`) and `KTABLE-SOURCE-...` (with
   * `Consumed.as(n)`: `n-source` and `n`, as Kafka Streams 4.x).
   */
  table<K, V>(
    topic: string,
    consumed?: Consumed<K, V>,
    materialized?: Materialized<K, V>,
  ): KTable<K, V> {
    const { storeName, queryableStoreName } = storeNameFor(
      this.internal,
      materialized,
      `${topic}-`,
    );
    const named = consumed?.processorName;
    const sourceName = this.internal.suffixedOrGenerate(named, '-source', NAMES.SOURCE);
    const tableSourceName = this.internal.nameOrGenerate(named, NAMES.KTABLE_SOURCE);
    const keySerde = consumed?.keySerde ?? materialized?.keySerde;
    const valueSerde = consumed?.valueSerde ?? materialized?.valueSerde;
    const store = timestampedKeyValueStore(storeName, materialized, keySerde, valueSerde);
    const { topology } = this.internal;
    const addStore = (): void => void topology.addStateStore(store.builder, tableSourceName);
    const supplier = new KTableSourceSupplier<K, V>(
      storeName,
      queryableStoreName === undefined ? addStore : undefined,
    );
    topology.addSource<K, V>(sourceName, topic, {
      keySerde,
      valueSerde,
      timestampExtractor: consumed?.timestampExtractor,
    });
    topology.addProcessor(
      tableSourceName,
      bindingDefaultSerdes(supplier.processorSupplier(), store.defaultSerdes),
      sourceName,
    );
    if (queryableStoreName !== undefined) addStore();
    const node = {
      builder: this.internal,
      name: tableSourceName,
      keySerde,
      valueSerde,
      sourceTopics: new Set([topic]),
    };
    return new KTable<K, V>({ node, supplier, queryableStoreName }, streamOf);
  }

  /**
   * A table every instance keeps whole (Kafka Streams' `globalTable`), from every partition of
   * `topic`: join streams with it on any key (`KStream.join(globalTable, keySelector, joiner)`)
   * without co-partitioning. Its store (`materialized`'s name, and then queryable, else
   * `<topic>-STATE-STORE-<index>`) has no changelog: `KafkaStreams` restores it from `topic`
   * before it is RUNNING (from its local checkpoint on a restart) and keeps it up to date while
   * running; `store()` reads it on every instance. The TopologyTestDriver runs it too.
   *
   * @throws TopologyError for a taken name or a topic already read.
   */
  globalTable<K, V>(
    topic: string,
    consumed?: Consumed<K, V>,
    materialized?: Materialized<K, V>,
  ): GlobalKTable<K, V> {
    const table = globalTable(this.internal, topic, consumed, materialized);
    return new GlobalKTable<K, V>(table.node, table.rows, table.queryableStoreName);
  }

  /**
   * Adds a global store filled by a processor of your own (Kafka Streams' `addGlobalStore`):
   * `stateUpdateSupplier` gets every record of every partition of `topic` and writes the store
   * (`storeBuilder`, its logging turned off: the topic is its changelog); processors of any
   * task read it with `getStateStore`. Nodes: `KSTREAM-SOURCE-<n>` and `KTABLE-SOURCE-<n>` (with
   * `Consumed.as(n)`: `n-source` and `n`). `KafkaStreams` runs the processor on every record,
   * while restoring at start and while running; so does the TopologyTestDriver.
   *
   * @throws TopologyError for a taken store or node name, or a topic already read.
   */
  addGlobalStore<K, V>(
    storeBuilder: StoreBuilder<StateStore>,
    topic: string,
    consumed: Consumed<K, V> | undefined,
    stateUpdateSupplier: ProcessorSupplier<K, V>,
  ): this {
    const named = consumed?.processorName;
    const sourceName = this.internal.suffixedOrGenerate(named, '-source', NAMES.SOURCE);
    const processorName = this.internal.nameOrGenerate(named, NAMES.KTABLE_SOURCE);
    this.internal.topology.addGlobalStore(
      storeBuilder.withLoggingDisabled(),
      sourceName,
      {
        keySerde: consumed?.keySerde,
        valueSerde: consumed?.valueSerde,
        timestampExtractor: consumed?.timestampExtractor,
      },
      topic,
      processorName,
      stateUpdateSupplier,
    );
    return this;
  }

  /**
   * Adds a store for processors of your own (`KStream.process(supplier, named, storeName)`).
   *
   * @throws TopologyError when a store of that name exists.
   */
  addStateStore(builder: StoreBuilder<StateStore>): this {
    this.internal.topology.addStateStore(builder);
    return this;
  }

  /**
   * The topology built so far (the same object on every call: operations added later are in
   * it too). Checks what can be checked without a broker: joined topics with fixed partition
   * counts must agree, and every store must be connected; the runtime checks the rest
   * (partition counts of source topics) at start.
   *
   * @throws TopologyError naming the problem: fix the DSL calls.
   */
  build(): Topology {
    this.internal.validate();
    this.internal.topology.subtopologies();
    return this.internal.topology;
  }
}
