import type { KeyValue, KeyValueIterator } from '../../state/key-value-store';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp';
import type { Windowed } from '../../windowing/windowed';

/**
 * What the windowed aggregation uses of its timestamped window store (the store layer's
 * typed window store, named as Kafka Streams' `TimestampedWindowStore`).
 */
export interface DslWindowStore<K, V> {
  /** The value of `key`'s window starting at `windowStart`, or `undefined`. */
  fetch(key: K, windowStart: number): ValueAndTimestamp<V> | undefined;
  /** Writes `key`'s window starting at `windowStart` (`null` deletes it). */
  put(key: K, value: ValueAndTimestamp<V> | null, windowStart: number): void;
  /** Loads the given windows in one multi-get for synchronous `fetch` afterwards. */
  prefetch?(windows: readonly { readonly key: K; readonly windowStart: number }[]): Promise<void>;
  /**
   * `fetch` that may return the object the last `putUpdated` of the window wrote (kept by the
   * record cache); the caller writes the window back with `putUpdated` or calls `forgetUpdate`.
   */
  fetchForUpdate?(key: K, windowStart: number): ValueAndTimestamp<V> | undefined;
  /** `put` whose value the record cache keeps for the next `fetchForUpdate`. */
  putUpdated?(key: K, value: ValueAndTimestamp<V> | null, windowStart: number): void;
  /** Drops the object kept for the window (an update of it failed). */
  forgetUpdate?(key: K, windowStart: number): void;
}

/**
 * The range reads of a timestamped window store that the sliding-window aggregation and the
 * emit-on-window-close strategy use (iterators read synchronously: engines with synchronous
 * reads only, as every window store read of the DSL).
 */
export interface DslWindowRangeStore<K, V> extends DslWindowStore<K, V> {
  fetch(key: K, windowStart: number): ValueAndTimestamp<V> | undefined;
  /** `key`'s windows starting in `[timeFrom, timeTo]`, oldest first. */
  fetch(key: K, timeFrom: number, timeTo: number): KeyValueIterator<number, ValueAndTimestamp<V>>;
  /** `key`'s windows starting in `[timeFrom, timeTo]`, newest first. */
  backwardFetch(
    key: K,
    timeFrom: number,
    timeTo: number,
  ): KeyValueIterator<number, ValueAndTimestamp<V>>;
  /** Every key's windows starting in `[timeFrom, timeTo]`. */
  fetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, ValueAndTimestamp<V>>;
  /** `fetchAll` including windows past retention still in a segment (the metered store has it). */
  fetchAllInSegments?(
    timeFrom: number,
    timeTo: number,
  ): KeyValueIterator<Windowed<K>, ValueAndTimestamp<V>>;
}

/** What the session aggregation uses of its session store (Kafka Streams' `SessionStore`). */
export interface DslSessionStore<K, V> {
  /**
   * Sessions of `key` ending at or after `earliestSessionEndTime` and starting at or before
   * `latestSessionStartTime`.
   */
  findSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): Iterable<KeyValue<Windowed<K>, V>>;
  /** Writes the aggregate of a session (`null` removes it). */
  put(sessionKey: Windowed<K>, value: V | null): void;
  /** Removes a session. */
  remove(sessionKey: Windowed<K>): void;
  /** Loads every live session of `keys`, for synchronous `findSessions` afterwards. */
  prefetch?(keys: readonly K[]): Promise<void>;
  /**
   * Every key's sessions ending in `[earliest, latest]`, including those past retention still
   * in a segment (emit on window close reads the closed ones; the metered store has it).
   */
  findSessionsEndingIn?(earliest: number, latest: number): Iterable<KeyValue<Windowed<K>, V>>;
}
