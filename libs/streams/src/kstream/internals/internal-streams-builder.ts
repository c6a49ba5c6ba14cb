import { TopologyError } from '../../errors/topology.error';
import type { StreamPartitioner } from '../../processor/stream-partitioner';
import { Topology } from '../../processor/topology';
import type { Serde } from '../../serde/serde';
import { filterProcessor } from './stateless.processor';
import {
  GENERATED_NAME,
  NAMES,
  REPARTITION_TOPIC_SUFFIX,
  STATE_STORE_NAME,
  indexSuffix,
} from './naming';

/** What a repartition needs: where it starts, its name prefix, serdes and partitioning. */
export interface RepartitionSpec<K, V> {
  /** The node whose output is repartitioned. */
  readonly parentName: string;
  /** The topic name prefix: a store name, a Grouped/Repartitioned/Joined name or a node name. */
  readonly prefix: string;
  readonly keySerde?: Serde<K>;
  readonly valueSerde?: Serde<V>;
  readonly partitioner?: StreamPartitioner<K, V>;
  readonly numPartitions?: number;
}

/** The result of a repartition: the logical topic and the source node reading it. */
export interface RepartitionResult {
  readonly topic: string;
  readonly sourceName: string;
}

/**
 * The state `StreamsBuilder` shares with every stream and table it made: the topology being
 * written, the one name counter (so generated names match Kafka Streams'), and the
 * co-partitioning requirements of joins. It knows nodes and topics, not the DSL's classes,
 * which wrap nodes and sit above it. Internal: not exported from the package.
 */
export class InternalStreamsBuilder {
  readonly topology = new Topology();
  private index = 0;
  private readonly repartitions = new Map<string, RepartitionResult & { parentName: string }>();

  /** `<prefix><index>`, burning one index. */
  newProcessorName(prefix: string): string {
    return `${prefix}${indexSuffix(this.index++)}`;
  }

  /**
   * A processor name as Kafka Streams 4.x picks it (`NamedInternal.orElseGenerateWithPrefix`):
   * `name` when given, else `<prefix><index>`. One index is burnt either way, so naming an
   * operation leaves the generated names of the others as they were.
   */
  nameOrGenerate(name: string | undefined, prefix: string): string {
    const generated = this.newProcessorName(prefix);
    return name ?? generated;
  }

  /**
   * `<name><suffix>` when `name` is given, else `<prefix><index>`; one index burnt either way
   * (Kafka Streams 4.x's `NamedInternal.suffixWithOrElseGet(suffix, provider, prefix)`).
   */
  suffixedOrGenerate(name: string | undefined, suffix: string, prefix: string): string {
    const generated = this.newProcessorName(prefix);
    return name === undefined ? generated : `${name}${suffix}`;
  }

  /** `<prefix>STATE-STORE-<index>`, burning one index. */
  newStoreName(prefix: string): string {
    return `${prefix}${STATE_STORE_NAME}${indexSuffix(this.index++)}`;
  }

  /** Burns one index, as Kafka Streams does where it generates a name it may not use. */
  burnIndex(): void {
    this.index++;
  }

  /**
   * Writes a repartition through an internal topic `<prefix>-repartition` (a pass-through
   * filter, a sink and a new source), as Kafka Streams' `createRepartitionedSource` does:
   * three indexes are always burnt; generated prefixes get generated node names, user-given
   * ones `<topic>-filter`, `<topic>-sink` and `<topic>-source`.
   *
   * Repartitioning the same node into the same topic again (a second join of one
   * key-changed stream) reuses the first repartition, as Kafka Streams does.
   *
   * @throws TopologyError when another node's repartition has that topic (two operations
   *   with one name): give them different names.
   */
  repartition<K, V>(spec: RepartitionSpec<K, V>): RepartitionResult {
    const topic = spec.prefix.endsWith(REPARTITION_TOPIC_SUFFIX)
      ? spec.prefix
      : `${spec.prefix}${REPARTITION_TOPIC_SUFFIX}`;
    const genSink = this.newProcessorName(NAMES.SINK);
    const genFilter = this.newProcessorName(NAMES.FILTER);
    const genSource = this.newProcessorName(NAMES.SOURCE);
    const generated = GENERATED_NAME.test(spec.prefix);
    const sinkName = generated ? genSink : `${topic}-sink`;
    const filterName = generated ? genFilter : `${topic}-filter`;
    const sourceName = generated ? genSource : `${topic}-source`;
    const existing = this.repartitions.get(topic);
    if (existing !== undefined && existing.parentName === spec.parentName) return existing;
    if (existing !== undefined || this.topology.internalTopicDefs().has(topic)) {
      throw new TopologyError(
        `repartition topic '${topic}' is used twice: give the operations different names`,
      );
    }
    this.topology.addInternalTopic(topic, spec.numPartitions);
    this.topology.addProcessor(
      filterName,
      () => filterProcessor<K, V>(() => true, false),
      spec.parentName,
    );
    this.topology.addSink<K, V>(
      sinkName,
      topic,
      { keySerde: spec.keySerde, valueSerde: spec.valueSerde, partitioner: spec.partitioner },
      filterName,
    );
    this.topology.addSource<K, V>(sourceName, topic, {
      keySerde: spec.keySerde,
      valueSerde: spec.valueSerde,
    });
    const result = { topic, sourceName, parentName: spec.parentName };
    this.repartitions.set(topic, result);
    return result;
  }

  /**
   * Records that `topics` must be co-partitioned (same partition count, same partitioning),
   * because a join reads them together.
   */
  copartition(topics: Iterable<string>): void {
    this.topology.addCopartitionGroup(topics);
  }

  /**
   * Checks what can be checked before the topics exist: the internal topics of one
   * co-partition group that were given a partition count must agree.
   *
   * @throws TopologyError naming the topics and their counts: give them the same count (or
   *   none, so that the runtime derives it from the source topics).
   */
  validate(): void {
    const internal = this.topology.internalTopicDefs();
    for (const group of this.topology.copartitionGroups()) {
      const fixed = group
        .map((topic) => ({ topic, count: internal.get(topic)?.numPartitions }))
        .filter((t): t is { topic: string; count: number } => t.count !== undefined);
      const counts = new Set(fixed.map((t) => t.count));
      if (counts.size > 1) {
        throw new TopologyError(
          `topics joined together must have the same number of partitions, but ${fixed
            .map((t) => `'${t.topic}' has ${t.count}`)
            .join(', ')}: give them the same count with Repartitioned.withNumberOfPartitions`,
        );
      }
    }
  }
}
