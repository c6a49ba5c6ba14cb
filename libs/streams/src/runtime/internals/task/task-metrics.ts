import type { DroppedRecordReason } from '../../../processor/processor-context';
import type { ClientMetrics } from '../../client-metrics';
import type { MetricsRecordingLevel } from '../../streams-config';
import { SampledStat } from '../metrics/sampled-stat';

/** The kinds of failure whose input records a handler may send to the dead-letter topic. */
export type DeadLetterKind = 'deserialization' | 'processing' | 'production';

/**
 * Counters of one task, read by the runtime's metrics and the test driver, and its DEBUG
 * sensors (absent below DEBUG: nothing is measured for them then).
 */
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
  /** {@link droppedRecords} by reason (`other`: a processor that gave none). */
  readonly droppedBy: Record<DroppedRecordReason | 'other', number> = {
    'null-key': 0,
    'null-value': 0,
    late: 0,
    'no-join-partner': 0,
    other: 0,
  };
  /** {@link deadLettered} by the kind of failure. */
  readonly deadLetteredBy: Record<DeadLetterKind, number> = {
    deserialization: 0,
    processing: 0,
    production: 0,
  };
  /** Processing time per record of each processed slice, in ns (DEBUG). */
  readonly processLatency: SampledStat | undefined;
  /** Each record's lateness (stream time minus its timestamp, at least 0), in ms (DEBUG). */
  readonly lateness: SampledStat | undefined;

  constructor(level: MetricsRecordingLevel = 'INFO', now = Date.now()) {
    const debug = level !== 'INFO';
    this.processLatency = debug ? new SampledStat(now) : undefined;
    this.lateness = debug ? new SampledStat(now) : undefined;
  }

  /** Counts a record a DSL processor dropped. */
  dropped(reason: DroppedRecordReason | undefined): void {
    this.droppedRecords++;
    this.droppedBy[reason ?? 'other']++;
  }
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
