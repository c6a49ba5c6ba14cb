import { StreamsConfigError } from '../errors/streams-config.error';

/** The resolved settings whose values {@link checkSettingValues} checks. */
export interface CheckedSettingValues {
  readonly metricsRecordingLevel: string;
  readonly checkCrcs: unknown;
  readonly maxPartitionFetchBytes: number;
  readonly maxTaskIdleMs: number;
  readonly numStandbyReplicas: number;
}

/**
 * Checks the values of resolved settings that are more than non-negative numbers.
 *
 * @throws StreamsConfigError naming the first bad setting: fix it (never retriable).
 */
export function checkSettingValues(resolved: CheckedSettingValues): void {
  if (!['INFO', 'DEBUG', 'TRACE'].includes(resolved.metricsRecordingLevel)) {
    throw new StreamsConfigError(
      `metrics.recording.level must be INFO, DEBUG or TRACE, got '${String(resolved.metricsRecordingLevel)}'`,
    );
  }
  if (typeof resolved.checkCrcs !== 'boolean') {
    throw new StreamsConfigError(
      `checkCrcs must be true or false, got ${String(resolved.checkCrcs)}`,
    );
  }
  if (!Number.isInteger(resolved.maxPartitionFetchBytes) || resolved.maxPartitionFetchBytes < 1) {
    throw new StreamsConfigError(
      `maxPartitionFetchBytes must be a positive integer, got ${String(resolved.maxPartitionFetchBytes)}`,
    );
  }
  if (!Number.isInteger(resolved.maxTaskIdleMs) || resolved.maxTaskIdleMs < -1) {
    throw new StreamsConfigError(
      `max.task.idle.ms must be -1 (never wait), 0 or a positive integer, got ${String(resolved.maxTaskIdleMs)}`,
    );
  }
  if (!Number.isInteger(resolved.numStandbyReplicas)) {
    throw new StreamsConfigError(
      `numStandbyReplicas must be an integer, got ${resolved.numStandbyReplicas}`,
    );
  }
}
