import type { HostInfo } from '../cluster/host-info';
import type { TopicPartition } from '../processor/topic-partition';

/**
 * One instance of the application as the latest assignment describes it (Kafka Streams'
 * `StreamsMetadata`): its endpoint, the stores and input partitions it runs active, and the
 * ones it keeps standby copies of.
 */
export interface StreamsMetadata {
  readonly hostInfo: HostInfo;
  readonly processId: string;
  /** The instance-to-instance query endpoint (`host:port`), when it serves one. */
  readonly queryEndpoint?: string;
  readonly stateStoreNames: readonly string[];
  readonly topicPartitions: readonly TopicPartition[];
  readonly standbyStateStoreNames: readonly string[];
  readonly standbyTopicPartitions: readonly TopicPartition[];
  /** Active and standby task ids (`<subtopology>_<partition>`). */
  readonly activeTasks: readonly string[];
  readonly standbyTasks: readonly string[];
}

/** How far a local store's copy of a partition is behind its changelog (Kafka's `LagInfo`). */
export interface LagInfo {
  /** The changelog offset the local store has applied up to (next offset to read). */
  readonly currentOffsetPosition: number;
  /** The changelog's end offset. */
  readonly endOffsetPosition: number;
  /** `endOffsetPosition - currentOffsetPosition`, never negative. */
  readonly offsetLag: number;
}
