/** Record headers: a name and its bytes (kafkajs' shape, read-only). */
export type Headers = { readonly [name: string]: Buffer | string | undefined };

/**
 * One record flowing through a topology, immutable as Kafka Streams' `Record`: the `with...`
 * methods return a copy. Keys and values may be `null` (a `null` value is a tombstone).
 */
export class Record<K, V> {
  constructor(
    readonly key: K,
    readonly value: V,
    /** Event time in epoch milliseconds. */
    readonly timestamp: number,
    readonly headers: Headers = {},
  ) {}

  withKey<NK>(key: NK): Record<NK, V> {
    return new Record(key, this.value, this.timestamp, this.headers);
  }

  withValue<NV>(value: NV): Record<K, NV> {
    return new Record(this.key, value, this.timestamp, this.headers);
  }

  withTimestamp(timestamp: number): Record<K, V> {
    return new Record(this.key, this.value, timestamp, this.headers);
  }

  withHeaders(headers: Headers): Record<K, V> {
    return new Record(this.key, this.value, this.timestamp, headers);
  }
}
