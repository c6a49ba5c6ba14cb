import type { Windowed } from '../windowing/windowed';
import type { KeyValue, KeyValueIterator } from './key-value-store';
import type { StateStore } from '../processor/state-store';

/** An iterator over one key's windows: the entry key is the window start (epoch ms). */
export type WindowStoreIterator<V> = KeyValueIterator<number, V>;

/**
 * Read access to a window store (Kafka Streams' `ReadOnlyWindowStore`): per key, one value per
 * window, identified by the window start. Time bounds are inclusive window starts.
 *
 * Synchronous reads need an engine with synchronous reads (in-memory, `@nxtedition/rocksdb`),
 * else they throw `UnsupportedStoreOperationError`: use the `...Async` reads. Reads of a
 * closed store throw `StoreClosedError` (rediscover the store and retry); a value that does
 * not deserialize throws `SerializationError` (fix the serde).
 */
export interface ReadOnlyWindowStore<K, V> {
  readonly name: string;
  /** The value of `key`'s window starting at `windowStart`, or `undefined`. */
  fetch(key: K, windowStart: number): V | undefined;
  /** `key`'s windows starting in `[timeFrom, timeTo]`, oldest first. */
  fetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>;
  /** `key`'s windows starting in `[timeFrom, timeTo]`, newest first. */
  backwardFetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>;
  /** Windows of keys in `[keyFrom, keyTo]` (open when undefined) starting in `[timeFrom, timeTo]`. */
  fetchRange(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    timeFrom: number,
    timeTo: number,
  ): KeyValueIterator<Windowed<K>, V>;
  /** Every window starting in `[timeFrom, timeTo]`. */
  fetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V>;
  /** Every live window. */
  all(): KeyValueIterator<Windowed<K>, V>;
  /** Every live window, newest segment first. */
  backwardAll(): KeyValueIterator<Windowed<K>, V>;

  /** `fetch(key, windowStart)` for every engine. */
  fetchAsync(key: K, windowStart: number): Promise<V | undefined>;
  /** `key`'s windows starting in `[timeFrom, timeTo]` for every engine, into an array. */
  fetchWindowsAsync(
    key: K,
    timeFrom: number,
    timeTo: number,
    backward?: boolean,
  ): Promise<KeyValue<number, V>[]>;
  /** `fetchRange` (or `fetchAll` with both keys undefined) for every engine, into an array. */
  fetchRangeAsync(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    timeFrom: number,
    timeTo: number,
    backward?: boolean,
  ): Promise<KeyValue<Windowed<K>, V>[]>;
}

/**
 * A window store as processors use it: writes are synchronous and go to the changelog at once
 * (window stores have no caching layer yet).
 */
export interface WindowStore<K, V> extends ReadOnlyWindowStore<K, V>, StateStore {
  /** Writes `value` for `key`'s window starting at `windowStart`; `null` deletes it. */
  put(key: K, value: V | null, windowStart: number): void;
}
