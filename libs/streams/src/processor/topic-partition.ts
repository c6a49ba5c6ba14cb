/** A partition of a topic. */
export interface TopicPartition {
  readonly topic: string;
  readonly partition: number;
}

/** A partition of a topic and an offset in it. */
export interface TopicPartitionOffset extends TopicPartition {
  readonly offset: number;
}

/**
 * A string key for maps keyed by topic partition, `<topic>-<partition>` as Kafka prints
 * them. Unambiguous: the partition is always the text after the last `-`.
 */
export function topicPartitionKey(topic: string, partition: number): string {
  return `${topic}-${partition}`;
}
