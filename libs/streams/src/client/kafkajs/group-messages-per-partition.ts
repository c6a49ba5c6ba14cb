/** A message as kafkajs' producer groups it (only what the grouping reads). */
export interface GroupedMessage {
  readonly partition?: number;
}

/** kafkajs' partitioner, as `groupMessagesPerPartition` calls it. */
export type MessagePartitioner<M> = (args: {
  topic: string;
  partitionMetadata: readonly unknown[];
  message: M;
}) => number;

/**
 * kafkajs 2.2.4's `src/producer/groupMessagesPerPartition.js`, linear: one array per
 * partition, appended to. The original copied the partition's array for every message
 * (`[...current, message]`), quadratic in the records per partition of one send.
 */
export function groupMessagesPerPartition<M>({
  topic,
  partitionMetadata,
  messages,
  partitioner,
}: {
  topic: string;
  partitionMetadata: readonly unknown[];
  messages: readonly M[];
  partitioner: MessagePartitioner<M>;
}): Record<number, M[]> {
  if (partitionMetadata.length === 0) return {};
  const result: Record<number, M[]> = {};
  for (const message of messages) {
    const partition = partitioner({ topic, partitionMetadata, message });
    const current = result[partition];
    if (current === undefined) result[partition] = [message];
    else current.push(message);
  }
  return result;
}
