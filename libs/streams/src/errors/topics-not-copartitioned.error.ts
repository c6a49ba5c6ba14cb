import { StreamsError } from './streams.error';

/**
 * Topics that a join reads together cannot be co-partitioned: two input topics of the group
 * have different partition counts, or a repartition topic was given a count
 * (`Repartitioned.withNumberOfPartitions`) that differs from the group's input topics.
 * Kafka Streams fails the same way ("Topics not co-partitioned").
 *
 * What to do: give the topics named in `partitionCounts` the same number of partitions
 * (repartition one side with `repartition()` / `Repartitioned.withNumberOfPartitions`), then
 * start again; never retriable as it is.
 */
export class TopicsNotCopartitionedError extends StreamsError.coded(
  'TOPICS_NOT_COPARTITIONED',
  false,
) {
  constructor(
    /** Every topic of the group with its partition count. */
    readonly partitionCounts: ReadonlyMap<string, number>,
    reason: string,
  ) {
    super(
      `topics not co-partitioned: ${[...partitionCounts]
        .map(([topic, count]) => `${topic} (${count})`)
        .join(', ')}: ${reason}`,
    );
  }
}
