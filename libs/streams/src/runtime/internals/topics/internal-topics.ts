import { MissingSourceTopicError } from '../../../errors/missing-source-topic.error';
import type { Topology } from '../../../processor/topology';
import { changelogTopicName } from '../../../state/internals/changelog-topic-name';
import type { ClusterAdmin } from '../../../client/cluster-admin';
import { ChangelogTopics, type ChangelogTopicSpec } from './changelog-topics';
import type { ResolvedStreamsConfig } from '../../streams-config';
import { planRepartitionCounts } from './repartition-topic-counts';
import { createTopicsAndWait, partitionCounts } from '../../../client/topic-admin';

/**
 * Prepares the topics a topology needs before it runs, as Kafka Streams does: checks that
 * every source topic exists; creates repartition topics (`<applicationId>-<name>`, with the
 * partition count of the sub-topology that writes them or of the topics they are joined with,
 * see {@link planRepartitionCounts}; `cleanup.policy=delete`, infinite retention) and changelog topics (Kafka Streams' configs, one partition per task); and
 * returns the partition count of every topic the runtime reads or writes.
 *
 * @throws MissingSourceTopicError for source (or sink, or dead-letter) topics that do not
 *   exist: create them; TopicsNotCopartitionedError when topics joined together have
 *   different partition counts; ChangelogTopicMismatchError for an existing changelog with the wrong
 *   partition count or cleanup policy.
 */
export async function prepareInternalTopics(
  admin: ClusterAdmin,
  topology: Topology,
  config: ResolvedStreamsConfig,
  resolveTopic: (logical: string) => string,
): Promise<Map<string, number>> {
  const subtopologies = topology.subtopologies();
  const internal = topology.internalTopicDefs();
  const external = [
    ...new Set(subtopologies.flatMap((s) => s.sourceTopics).filter((t) => !internal.has(t))),
  ];
  const counts = await partitionCounts(admin, external);
  const missing = external.filter((t) => !counts.has(t));
  if (missing.length > 0) throw new MissingSourceTopicError(missing);

  // Repartition topics: the count of the sub-topology that writes them, made equal to the
  // other topics of their co-partition group.
  const plan = planRepartitionCounts(subtopologies, internal, counts, topology.copartitionGroups());
  const repartition = new Map<string, number>();
  for (const [name, n] of plan.repartition) repartition.set(resolveTopic(name), n);
  await createTopicsAndWait(
    admin,
    [...repartition].map(([topic, numPartitions]) => ({
      topic,
      partitions: numPartitions,
      replicationFactor: -1,
      configs: {
        'cleanup.policy': 'delete',
        'segment.bytes': '52428800',
        'retention.ms': '-1',
        'message.timestamp.type': 'CreateTime',
      },
    })),
  );

  const specs: ChangelogTopicSpec[] = [];
  for (const sub of subtopologies) {
    const partitions = plan.partitionsOf(sub);
    for (const storeName of sub.stores) {
      const builder = topology.stores().get(storeName)!;
      if (!builder.loggingEnabled) continue;
      specs.push({
        topic: changelogTopicName(config.applicationId, storeName),
        kind: builder.changelogKind ?? 'key-value',
        partitions,
        retentionMs: builder.retentionMs,
        topicConfig: builder.logConfig,
      });
    }
  }
  await new ChangelogTopics(admin).ensure(specs);

  const sinks = [...topology.nodeDefs().values()].flatMap((n) =>
    n.kind === 'sink' ? [resolveTopic(n.topic)] : [],
  );
  const dlq = config.deserializationExceptionHandler.deadLetterTopic;
  const outputs = [...new Set([...sinks, ...(dlq ? [dlq] : []), ...specs.map((s) => s.topic)])];
  const partitionsByTopic = await partitionCounts(admin, outputs);
  for (const [topic, n] of repartition) partitionsByTopic.set(topic, n);
  for (const [topic, n] of counts) partitionsByTopic.set(topic, n);
  const missingOutputs = outputs.filter((t) => !partitionsByTopic.has(t));
  if (missingOutputs.length > 0) throw new MissingSourceTopicError(missingOutputs);
  return partitionsByTopic;
}
