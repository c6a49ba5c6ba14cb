import type { ClientMetrics } from '../../client-metrics';

/** Counters of one task, read by the runtime's metrics and the test driver. */
export class TaskMetrics {
  /** Records that ran through the topology. */
  processed = 0;
  /** Records written by sinks. */
  produced = 0;
  /** Records skipped because the key or value did not deserialize. */
  skippedDeserialization = 0;
  /** Records skipped because their timestamp was negative or not a number. */
  skippedInvalidTimestamp = 0;
  /** Output records dropped because they could not be serialized (production handler: continue). */
  skippedProduction = 0;
  /** Records a processor or punctuator failed on, skipped by the processing handler. */
  skippedProcessing = 0;
  /** Skipped records written to the dead-letter topic. */
  deadLettered = 0;
  /**
   * Records DSL processors skipped on purpose: `null` key or value in an aggregation or join,
   * late records past the grace period (Kafka Streams' task-level `dropped-records`).
   */
  droppedRecords = 0;
  /**
   * Records processed while an input partition of the task was empty and waited for no longer
   * (`max.task.idle.ms` passed, or -1): possibly out of timestamp order across its inputs
   * (Kafka Streams' task-level `enforced-processing`).
   */
  enforcedProcessing = 0;
}

/** Sums the counters of `tasks` (the client's active tasks) and adds the commit figures. */
export function sumTaskMetrics(
  tasks: Iterable<TaskMetrics>,
  commits: number,
  commitTimeMs = 0,
): ClientMetrics {
  const sum: ClientMetrics = {
    processed: 0,
    produced: 0,
    skippedDeserialization: 0,
    skippedInvalidTimestamp: 0,
    skippedProduction: 0,
    skippedProcessing: 0,
    deadLettered: 0,
    droppedRecords: 0,
    commits,
    commitTimeMs,
  };
  for (const metrics of tasks) {
    sum.processed += metrics.processed;
    sum.produced += metrics.produced;
    sum.skippedDeserialization += metrics.skippedDeserialization;
    sum.skippedInvalidTimestamp += metrics.skippedInvalidTimestamp;
    sum.skippedProduction += metrics.skippedProduction;
    sum.skippedProcessing += metrics.skippedProcessing;
    sum.deadLettered += metrics.deadLettered;
    sum.droppedRecords += metrics.droppedRecords;
  }
  return sum;
}
