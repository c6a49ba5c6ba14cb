import { StreamsError } from './streams.error';

/** A CRC as Kafka's tools print it: `0x` and eight hex digits. */
const hex = (crc: number): string => `0x${crc.toString(16).padStart(8, '0')}`;

/**
 * A record batch fetched from a changelog failed its CRC-32C check (Kafka's consumer throws
 * `CorruptRecordException` for the same, with `check.crcs` on, its default): the bytes from
 * its attributes to its end are not the bytes its producer wrote, so none of its records is
 * used. The restore and the standbys read changelogs with this check (`checkCrcs`, on by
 * default); the processing consumer does not (kafkajs checks no CRC).
 *
 * What to do: nothing at first: it is retriable, and the engine fetches the batch again (a
 * fault on the network or in a broker's memory does not repeat). A batch that fails again
 * each time is corrupt in the partition's log on the broker: the restore then fails with a
 * `ChangelogRestoreError` caused by this error, and a standby stops following the partition
 * (an error is logged). Check the broker's log segment holding `baseOffset` of the named
 * partition (`kafka-dump-log.sh --deep-iteration --files <segment>`); a replica with a
 * healthy copy can become the leader, or the state can be rebuilt from the input topics.
 */
export class CorruptRecordBatchError extends StreamsError.coded('CORRUPT_RECORD_BATCH', true) {
  constructor(
    readonly topic: string,
    readonly partition: number,
    /** The batch's base offset (its first record's offset). */
    readonly baseOffset: number,
    /** The CRC-32C its header stores, unsigned. */
    readonly expectedCrc: number,
    /** The CRC-32C of its bytes as fetched, unsigned. */
    readonly computedCrc: number,
  ) {
    super(
      `the record batch at offset ${baseOffset} of ${topic}-${partition} is corrupt: its header's CRC-32C is ${hex(expectedCrc)}, its bytes give ${hex(computedCrc)}`,
    );
  }
}
