import type { Windowed } from '../windowing/windowed';
import type { KeyValue } from './key-value-store';
import type { StateStore } from '../processor/state-store';

/** The sessions a session-store read returns: session-windowed keys and their aggregates. */
export type SessionEntries<K, AGG> = KeyValue<Windowed<K>, AGG>[];

/**
 * Read access to a session store (Kafka Streams' `ReadOnlySessionStore`): per key, one
 * aggregate per session `[start, end]` (both inclusive, keyed by `SessionWindow`s).
 *
 * Reads return arrays, read eagerly (session lookups are per key and small); results are
 * ordered as in Kafka Streams' RocksDB session store: by segment (session end), then key
 * bytes, end and start inside a segment; `backward` reads reverse that.
 *
 * Synchronous reads need an engine with synchronous reads (in-memory, `@nxtedition/rocksdb`),
 * else they throw `UnsupportedStoreOperationError`: use the `...Async` reads. Reads of a
 * closed store throw `StoreClosedError` (rediscover the store and retry); an aggregate that
 * does not deserialize throws `SerializationError` (fix the serde).
 */
export interface ReadOnlySessionStore<K, AGG> {
  readonly name: string;
  /** Every live session of `key`. */
  fetch(key: K): SessionEntries<K, AGG>;
  /** Every live session of keys in `[keyFrom, keyTo]` (open when undefined). */
  fetch(keyFrom: K | undefined, keyTo: K | undefined): SessionEntries<K, AGG>;
  /** The aggregate of exactly `key`'s session `[start, end]`, or `undefined`. */
  fetchSession(key: K, start: number, end: number): AGG | undefined;
  /**
   * `key`'s sessions ending at or after `earliestSessionEndTime` and starting at or before
   * `latestSessionStartTime` (the sessions a record at `t` may merge with, for gap `g`:
   * `findSessions(key, t - g, t + g)`).
   */
  findSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): SessionEntries<K, AGG>;
  /** {@link ReadOnlySessionStore.findSessions}, newest first. */
  backwardFindSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): SessionEntries<K, AGG>;

  /** `fetch(key)` (or, with `backward`, newest first) for every engine. */
  fetchAsync(key: K, backward?: boolean): Promise<SessionEntries<K, AGG>>;
  /** `fetch(keyFrom, keyTo)` for every engine. */
  fetchRangeAsync(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    backward?: boolean,
  ): Promise<SessionEntries<K, AGG>>;
  /** `fetchSession` for every engine. */
  fetchSessionAsync(key: K, start: number, end: number): Promise<AGG | undefined>;
  /** `findSessions` (or, with `backward`, `backwardFindSessions`) for every engine. */
  findSessionsAsync(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
    backward?: boolean,
  ): Promise<SessionEntries<K, AGG>>;
}

/**
 * A session store as processors use it (Kafka Streams' `SessionStore`): writes are
 * synchronous and go to the changelog at once (session stores have no caching layer yet).
 */
export interface SessionStore<K, AGG> extends ReadOnlySessionStore<K, AGG>, StateStore {
  /**
   * Writes the aggregate of a session (`sessionKey.window` is `[start, end]`); `null` removes
   * it. A session already past retention is dropped silently.
   */
  put(sessionKey: Windowed<K>, aggregate: AGG | null): void;
  /** Removes a session: `put(sessionKey, null)`. */
  remove(sessionKey: Windowed<K>): void;
}
