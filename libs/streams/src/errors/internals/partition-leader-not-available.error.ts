import { StreamsError } from '../streams.error';

/**
 * A partition's leadership is moving: its leader is not elected yet, or the broker asked is no
 * longer (or not yet) its leader. Kafka's `LEADER_NOT_AVAILABLE`, `NOT_LEADER_OR_FOLLOWER`,
 * `UNKNOWN_LEADER_EPOCH` and `FENCED_LEADER_EPOCH`; a KRaft broker answers them for a moment
 * after a topic is created, before its new leader serves requests.
 *
 * What to do: retry after a short backoff (the client looks the leader up again); the engine
 * does so for a bounded time, see `fetchTopicOffsetsSettled`. Retriable.
 */
export class PartitionLeaderNotAvailableError extends StreamsError.coded(
  'PARTITION_LEADER_NOT_AVAILABLE',
  true,
) {
  constructor(
    readonly topic: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`a partition of ${topic} has no leader that answers yet (${reason})`, options);
  }
}
