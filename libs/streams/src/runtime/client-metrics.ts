/**
 * The processing counters of a client (`KafkaStreams.metrics()`): every counter of its active
 * tasks summed, since each task started here, and the client's commits.
 */
export interface ClientMetrics {
  /** Records processed by the topology. */
  processed: number;
  /** Records written to sink and repartition topics. */
  produced: number;
  /** Records the deserialization-exception handler skipped (or dead-lettered). */
  skippedDeserialization: number;
  /** Records skipped for a negative or invalid timestamp. */
  skippedInvalidTimestamp: number;
  /** Records the production-exception handler skipped. */
  skippedProduction: number;
  /** Records a processor failed on, skipped by the processing-exception handler. */
  skippedProcessing: number;
  /** Records sent to the dead-letter topic. */
  deadLettered: number;
  /** Records the DSL dropped on purpose: null key or value, late, no join partner. */
  droppedRecords: number;
  /** Commits completed since the client started. */
  commits: number;
  /**
   * Time those commits took, in ms, summed (Kafka Streams' commit latency): the mean commit
   * latency over an interval is the growth of this figure divided by the growth of `commits`.
   */
  commitTimeMs: number;
}
