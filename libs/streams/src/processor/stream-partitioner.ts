/**
 * Chooses the partition of an output record (Kafka Streams' `StreamPartitioner`), given to
 * `Produced.streamPartitioner`, `Repartitioned.streamPartitioner` or a sink of the Processor
 * API. Return `undefined` to let the producer's partitioner decide (murmur2 of the key bytes,
 * as Java clients do). It runs on the processing path: keep it synchronous and cheap, and do
 * not throw (an error fails the task).
 */
export type StreamPartitioner<K, V> = (
  topic: string,
  key: K,
  value: V,
  numPartitions: number,
) => number | undefined;
