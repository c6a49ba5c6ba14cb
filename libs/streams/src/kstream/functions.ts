import type { KeyValue } from '../state/key-value-store';

/**
 * The user functions the DSL takes, named as in Kafka Streams. Every one runs synchronously
 * on the processing path, once per record (or per update): keep them pure and fast.
 *
 * An exception thrown from any of them fails the task: it reaches the uncaught-exception
 * handler of `KafkaStreams` (replace the processing loop, shut down the client, or shut down
 * the application). Catch what you can handle inside the function.
 */

/** Decides whether a record is kept (`filter`), dropped (`filterNot`) or branched. */
export type Predicate<K, V> = (key: K, value: V) => boolean;

/**
 * Computes a new value (`mapValues`, `flatMapValues`). The key comes second, so
 * `(value) => ...` and `(value, key) => ...` both fit (Kafka's `ValueMapper` and
 * `ValueMapperWithKey` in one).
 */
export type ValueMapper<V, VR, K = unknown> = (value: V, key: K) => VR;

/** Computes a result from a key and a value: a new key (`selectKey`, `groupBy`) or a pair (`map`). */
export type KeyValueMapper<K, V, R> = (key: K, value: V) => R;

/** A key and a value, as `map` and `flatMap` return them: `{ key, value }`. */
export type { KeyValue };

/** Receives every record of a stream (`peek`, `foreach`). */
export type ForeachAction<K, V> = (key: K, value: V) => void;

/** The starting value of an aggregate, called when a key is seen for the first time. */
export type Initializer<VA> = () => VA;

/** Folds one record into the current aggregate of its key. */
export type Aggregator<K, V, VA> = (key: K, value: V, aggregate: VA) => VA;

/** Combines two values of one key (`reduce`): the aggregate so far and the new value. */
export type Reducer<V> = (aggregate: V, value: V) => V;

/** Combines the aggregates of two session windows that merge into one. */
export type Merger<K, VA> = (key: K, aggregate1: VA, aggregate2: VA) => VA;

/**
 * Combines a value of each side of a join; the key comes third, so `(left, right) => ...` and
 * `(left, right, key) => ...` both fit (Kafka's `ValueJoiner` and `ValueJoinerWithKey` in
 * one). In a left join the right value is `null` when the other side has no value for the
 * key; in an outer join either may be.
 */
export type ValueJoiner<V1, V2, VR, K = unknown> = (value1: V1, value2: V2, key: K) => VR;
