import type { KeyValueStore, ReadOnlyKeyValueStore } from './key-value-store';

/** A value and the timestamp (epoch ms) of the record that last wrote it. */
export interface ValueAndTimestamp<V> {
  readonly value: V;
  readonly timestamp: number;
}

/** Builds a {@link ValueAndTimestamp}. */
export function valueAndTimestamp<V>(value: V, timestamp: number): ValueAndTimestamp<V> {
  return { value, timestamp };
}

/**
 * A key-value store whose values carry their timestamps. On disk each value is Kafka Streams'
 * layout: an 8-byte big-endian timestamp, then the value's bytes; the changelog holds the
 * plain value bytes with the timestamp as the record timestamp.
 */
export type TimestampedKeyValueStore<K, V> = KeyValueStore<K, ValueAndTimestamp<V>>;

/** Read access to a {@link TimestampedKeyValueStore}. */
export type ReadOnlyTimestampedKeyValueStore<K, V> = ReadOnlyKeyValueStore<K, ValueAndTimestamp<V>>;
