import { murmur2, toPositive } from './internals/murmur2';

/** Largest partition count Kafka can express (a Java `int`). */
const MAX_PARTITIONS = 0x7fffffff;

/**
 * Chooses the partition of a keyed record exactly as Java Kafka clients and Kafka Streams do:
 * `toPositive(murmur2(keyBytes)) % numPartitions`, the rule of the producer's default
 * partitioning for records with a key (`BuiltInPartitioner.partitionForKey`) and of Kafka
 * Streams' `DefaultStreamPartitioner`. Records written by a Java producer and keys looked up
 * here therefore land on the same partition, given the same serialized key bytes.
 *
 * Records without a key are not partitioned by key (Java producers spread them with sticky
 * partitioning): do not call this for them, let the producer choose.
 */
export class DefaultStreamPartitioner {
  /**
   * The partition for a serialized key.
   *
   * @param keyBytes the key exactly as serialized onto the topic (for a string key, the bytes of
   *   Kafka's `StringSerializer`: UTF-8). The empty buffer is a valid key.
   * @param numPartitions the topic's partition count, from its metadata.
   * @returns the partition, in `[0, numPartitions - 1]`.
   * @throws RangeError if `numPartitions` is not an integer in `[1, 2^31 - 1]`: the topic
   *   metadata is missing or wrong, so fetch it again (or wait for the topic to be created)
   *   rather than retrying with the same value.
   */
  partition(keyBytes: Uint8Array, numPartitions: number): number {
    if (!Number.isInteger(numPartitions) || numPartitions < 1 || numPartitions > MAX_PARTITIONS) {
      throw new RangeError(
        `numPartitions must be an integer from 1 to ${MAX_PARTITIONS}, got ${numPartitions}`,
      );
    }
    return toPositive(murmur2(keyBytes)) % numPartitions;
  }
}
