import { TopicsNotCopartitionedError } from '../../../errors/topics-not-copartitioned.error';
import type { InternalTopicDef, Subtopology } from '../../../processor/internals/topology-nodes';

/** The partition counts of a topology's topics, as the runtime creates and reads them. */
export interface PlannedPartitionCounts {
  /** Every repartition topic's count, by logical name. */
  readonly repartition: ReadonlyMap<string, number>;
  /** The task count of a sub-topology: the largest count of its source topics. */
  partitionsOf(sub: Pick<Subtopology, 'id' | 'sourceTopics'>): number;
}

/**
 * Plans the partition counts of repartition topics, as Kafka Streams' `RepartitionTopics` and
 * `CopartitionedTopicsEnforcer` do:
 *
 * 1. a repartition topic with a fixed count (`Repartitioned.withNumberOfPartitions`) keeps it;
 *    any other takes the largest count of the source topics of the sub-topology that writes it
 *    (recursively through upstream repartition topics);
 * 2. then every co-partition group (topics a join reads together) is made consistent: its input
 *    topics must all have one count, and its repartition topics without a fixed count take
 *    that count (or, in a group of repartition topics only, the fixed count of one of them, else
 *    the largest). Counts that changed flow to the sub-topologies downstream, until stable.
 *
 * `externalCounts` holds the partition count of every input topic that is not internal.
 *
 * @throws TopicsNotCopartitionedError when a group's input topics disagree, or a fixed
 *   repartition count disagrees with them: give the topics the same count.
 */
export function planRepartitionCounts(
  subtopologies: readonly Pick<Subtopology, 'id' | 'sourceTopics' | 'sinkTopics'>[],
  internal: ReadonlyMap<string, Pick<InternalTopicDef, 'numPartitions'>>,
  externalCounts: ReadonlyMap<string, number>,
  copartitionGroups: readonly (readonly string[])[],
): PlannedPartitionCounts {
  const enforced = new Map<string, number>();

  const countOfTopic = (topic: string, seen: ReadonlySet<number>): number => {
    const def = internal.get(topic);
    if (def === undefined) return externalCounts.get(topic) ?? 0;
    if (def.numPartitions !== undefined) return def.numPartitions;
    const fixed = enforced.get(topic);
    if (fixed !== undefined) return fixed;
    const writer = subtopologies.find((s) => s.sinkTopics.includes(topic));
    if (!writer || seen.has(writer.id)) return 1;
    return countOfSources(writer.sourceTopics, new Set([...seen, writer.id]));
  };
  const countOfSources = (topics: readonly string[], seen: ReadonlySet<number>): number => {
    let max = 0;
    for (const topic of topics) max = Math.max(max, countOfTopic(topic, seen));
    return max;
  };

  // Each round settles at least one repartition topic; groups are disjoint (merged when they
  // overlap), so this ends within one round per repartition topic.
  let changed = true;
  for (let round = 0; changed && round <= internal.size; round++) {
    changed = false;
    for (const group of copartitionGroups) {
      const counts = new Map(group.map((t) => [t, countOfTopic(t, new Set())] as const));
      const inputs = group.filter((t) => !internal.has(t) && externalCounts.has(t));
      const inputCounts = new Set(inputs.map((t) => counts.get(t)!));
      if (inputCounts.size > 1) {
        throw new TopicsNotCopartitionedError(
          counts,
          'the input topics of a join must have the same number of partitions',
        );
      }
      const fixed = group.flatMap((t) => {
        const n = internal.get(t)?.numPartitions;
        return n === undefined ? [] : [n];
      });
      const target =
        inputCounts.size === 1
          ? [...inputCounts][0]
          : fixed.length > 0
            ? fixed[0]
            : Math.max(...group.map((t) => counts.get(t)!));
      for (const topic of group) {
        const def = internal.get(topic);
        if (def === undefined) continue;
        if (def.numPartitions !== undefined) {
          if (def.numPartitions !== target) {
            throw new TopicsNotCopartitionedError(
              counts,
              `repartition topic '${topic}' was given ${def.numPartitions} partitions, but the topics it is joined with have ${target}`,
            );
          }
          continue;
        }
        if (counts.get(topic) !== target) {
          enforced.set(topic, target);
          changed = true;
        }
      }
    }
  }
  if (changed) {
    throw new TopicsNotCopartitionedError(
      new Map([...internal.keys()].map((t) => [t, countOfTopic(t, new Set())] as const)),
      'the co-partition groups ask for different counts of the same repartition topic',
    );
  }

  const repartition = new Map<string, number>();
  for (const name of internal.keys()) repartition.set(name, countOfTopic(name, new Set()));
  return {
    repartition,
    partitionsOf: (sub) => countOfSources(sub.sourceTopics, new Set([sub.id])),
  };
}
