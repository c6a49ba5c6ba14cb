import type { Headers } from './record';

/**
 * A record whose key a processor cannot change (Kafka Streams' `FixedKeyRecord`), what a
 * `FixedKeyProcessor` (`KStream.processValues`) receives and forwards: the `with...` methods
 * return a copy with another value, timestamp or headers, never another key, so the stream
 * after it needs no repartition.
 */
export class FixedKeyRecord<K, V> {
  /** @internal Made by the runtime from the record being processed. */
  constructor(
    readonly key: K,
    readonly value: V,
    /** Event time in epoch milliseconds. */
    readonly timestamp: number,
    readonly headers: Headers = {},
  ) {}

  withValue<NV>(value: NV): FixedKeyRecord<K, NV> {
    return new FixedKeyRecord(this.key, value, this.timestamp, this.headers);
  }

  withTimestamp(timestamp: number): FixedKeyRecord<K, V> {
    return new FixedKeyRecord(this.key, this.value, timestamp, this.headers);
  }

  withHeaders(headers: Headers): FixedKeyRecord<K, V> {
    return new FixedKeyRecord(this.key, this.value, this.timestamp, headers);
  }
}
