/**
 * Turns typed values into bytes and back. One interface for every serde, built-in or custom,
 * like Kafka's `Serde<T>` (a serializer and a deserializer together).
 *
 * Serdes never see tombstones: callers map a `null` value to a `null` payload themselves.
 * A deserializer that cannot parse its input throws a `SerializationError`, which the runtime
 * hands to the configured deserialization-exception handler.
 */
export interface Serde<T> {
  serialize(value: T, topic?: string): Buffer;
  deserialize(bytes: Buffer, topic?: string): T;
}
