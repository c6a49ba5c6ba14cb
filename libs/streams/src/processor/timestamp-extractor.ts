/** The fields of a consumed record a timestamp extractor may look at. */
export interface ConsumedRecordInfo {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  /** The record's own timestamp (CreateTime or LogAppendTime), epoch ms. */
  readonly timestamp: number;
}

/**
 * Chooses a record's event time. The default uses the record's own timestamp (Kafka Streams'
 * `FailOnInvalidTimestamp` semantics for negative values are replaced by skipping: a record
 * with a negative extracted timestamp is dropped and counted, never processed).
 */
export type TimestampExtractor<K = unknown, V = unknown> = (
  record: ConsumedRecordInfo,
  key: K,
  value: V,
  partitionTime: number,
) => number;

/** The record's own timestamp. */
export const recordTimestampExtractor: TimestampExtractor = (record) => record.timestamp;
