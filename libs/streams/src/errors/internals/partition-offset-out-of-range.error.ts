import { StreamsError } from '../streams.error';

/**
 * A changelog position a reader fetched from is outside the partition's log: the log was
 * truncated or deleted past it (retention, `kafka-delete-records`, the topic recreated).
 *
 * What to do: the local copy cannot be brought up to date from this position; wipe it and read
 * the partition again from its log start (the restorer and the standby reader do so).
 */
export class PartitionOffsetOutOfRangeError extends StreamsError.coded(
  'PARTITION_OFFSET_OUT_OF_RANGE',
  false,
) {
  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly offset: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(`offset ${offset ?? '(unknown)'} is outside the log of ${topic}-${partition}`, options);
  }
}
