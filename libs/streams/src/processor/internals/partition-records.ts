// The records a record collector hands to a producer, one partition at a time, and the
// producer's acknowledgement of each partition. Defined here, below the runtime, so that the
// collector and the Kafka client layer's producer port (client/record-producer.ts) share them.
import type { RecordHeaders } from './record-collector';

/** One record to write, its partition chosen by the engine. */
export interface ProducerRecord {
  /** `null`: no key. */
  readonly key: Buffer | null;
  /** `null`: no value (a tombstone in a compacted topic). */
  readonly value: Buffer | null;
  /** CreateTime, epoch milliseconds. */
  readonly timestamp: number;
  /** Headers by name; string values are written as UTF-8, `undefined` as a null value. */
  readonly headers?: RecordHeaders;
}

/** Records for one partition, written in this order. */
export interface PartitionRecords {
  readonly topic: string;
  /** The partition: always explicit, a producer never chooses one. */
  readonly partition: number;
  readonly records: readonly ProducerRecord[];
}

/** A partition's acknowledgement: the offset its first record of the send got. */
export interface PartitionAck {
  readonly topic: string;
  readonly partition: number;
  /** The first record's offset; the send's other records of the partition follow it. */
  readonly baseOffset: number;
}

/** Options of one send. */
export interface SendOptions {
  /** -1: all in-sync replicas (the default, and the only value idempotence allows); 1: the leader. */
  readonly acks?: -1 | 1;
}
