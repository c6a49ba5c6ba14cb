// kafkajs' default partitioner, for the specs that hold the engine's partitioner against it
// (in libs/streams/src only src/client/ imports kafkajs).
import { Partitioners, type PartitionMetadata } from 'kafkajs';

/** kafkajs' partitioner for a topic of `numPartitions` partitions, all with a leader. */
export function kafkajsPartition(key: string | Buffer, numPartitions: number): number {
  const partitionMetadata: PartitionMetadata[] = Array.from({ length: numPartitions }, (_, i) => ({
    partitionErrorCode: 0,
    partitionId: i,
    leader: 0,
    replicas: [0],
    isr: [0],
  }));
  return Partitioners.DefaultPartitioner()({
    topic: 't',
    partitionMetadata,
    message: { key, value: null },
  });
}
