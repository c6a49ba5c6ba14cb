import { StreamsError } from '../streams.error';

/**
 * A position a reader fetched from is outside the partition's log (the broker answered
 * OFFSET_OUT_OF_RANGE, as it does to Java's consumer): the broker deleted the records before
 * it (time or size retention, `kafka-delete-records`), or the topic was recreated. Time
 * retention deletes a whole segment, the active one included, once its newest record is older
 * than `retention.ms`: records stamped with old event times can go minutes after they were
 * written.
 *
 * What to do: the local copy cannot be brought up to date from this position; wipe it and read
 * the partition again from its log start (the restorer does so within the restore; a standby
 * follows the partition from its log start).
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
