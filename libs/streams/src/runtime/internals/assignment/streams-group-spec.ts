import type { Topology } from '../../../processor/topology';
import { changelogTopicName } from '../../../state/internals/changelog-topic-name';
import { changelogTopicConfig } from '../topics/changelog-topics';
import type { StreamsGroupSpec, StreamsGroupSubtopology } from '../../../client/group-consumer';

/** What {@link streamsGroupSpec} reads the topology's physical topics with. */
export interface StreamsGroupSpecSource {
  readonly topology: Topology;
  readonly applicationId: string;
  /** The physical name of a topology topic. */
  resolveTopic(logical: string): string;
  /** The partition count of a physical topic (known once the internal topics are prepared). */
  partitionsFor(topic: string): number;
  /** Changelog end-offset sums per task. */
  taskEndOffsetSums(): Promise<Record<string, number>>;
}

/**
 * The topology as a streams group's coordinator wants it (KIP-1071's `Topology` of the
 * StreamsGroupHeartbeat request): per sub-topology its physical source topics, which of them
 * are repartition topics (with the partition counts the engine gave them), the repartition
 * topics it writes, its stores' changelog topics with Kafka Streams' topic configs, and its
 * co-partition groups. The coordinator checks these topics (and creates missing internal
 * ones); the engine has created them already, with the same counts and configs.
 */
export function streamsGroupSpec(source: StreamsGroupSpecSource): StreamsGroupSpec {
  return {
    subtopologies: () => subtopologiesOf(source),
    taskEndOffsetSums: () => source.taskEndOffsetSums(),
  };
}

function subtopologiesOf(source: StreamsGroupSpecSource): StreamsGroupSubtopology[] {
  const { topology, resolveTopic } = source;
  const internal = topology.internalTopicDefs();
  const nodes = topology.nodeDefs();
  const copartitionGroups = topology.copartitionGroups();
  return topology.subtopologies().map((sub) => {
    const sinks = sub.nodes.flatMap((name) => {
      const node = nodes.get(name);
      return node?.kind === 'sink' && internal.has(node.topic) ? [resolveTopic(node.topic)] : [];
    });
    const changelogTopics = sub.stores.flatMap((storeName) => {
      const builder = topology.stores().get(storeName);
      if (!builder?.loggingEnabled) return [];
      const name = changelogTopicName(source.applicationId, storeName);
      const configs = changelogTopicConfig({
        topic: name,
        kind: builder.changelogKind ?? 'key-value',
        partitions: 0,
        retentionMs: builder.retentionMs,
        topicConfig: builder.logConfig,
      });
      return [{ name, configs }];
    });
    return {
      id: String(sub.id),
      sourceTopics: sub.sourceTopics.map(resolveTopic),
      repartitionSourceTopics: sub.sourceTopics
        .filter((t) => internal.has(t))
        .map((t) => ({ name: resolveTopic(t), partitions: source.partitionsFor(resolveTopic(t)) })),
      repartitionSinkTopics: [...new Set(sinks)],
      changelogTopics,
      copartitionGroups: copartitionGroups
        .filter((group) => group.every((t) => sub.sourceTopics.includes(t)))
        .map((group) => group.map(resolveTopic)),
    };
  });
}
