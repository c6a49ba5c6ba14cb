import { StreamsError } from './streams.error';

/**
 * The streams group's coordinator found topics with wrong partition counts (status
 * `INCORRECTLY_PARTITIONED_TOPICS` of Kafka's streams rebalance protocol, KIP-1071): topics
 * joined together (a co-partition group) have different counts, or a changelog topic's count
 * differs from the partition count of its sub-topology's sources. The group assigns no tasks
 * while it lasts.
 *
 * What to do: give the topics named in `detail` matching partition counts (or delete a
 * changelog created with a wrong count and let the coordinator create it again), then start
 * again. Not retriable as it is.
 */
export class IncorrectlyPartitionedTopicsError extends StreamsError.coded(
  'INCORRECTLY_PARTITIONED_TOPICS',
  false,
) {
  constructor(
    readonly groupId: string,
    /** The coordinator's explanation, naming the topics. */
    readonly detail: string,
  ) {
    super(`streams group ${groupId} has incorrectly partitioned topics: ${detail}`);
  }
}
