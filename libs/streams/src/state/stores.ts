import type { Serde } from '../serde/serde';
import { InMemoryBytesStore } from './internals/in-memory-bytes.store';
import { promises as fs } from 'node:fs';
import { KeyValueStoreBuilder } from './internals/key-value-store-builder';
import { createRocksDBEngine, rocksDBSegmentFactory } from './internals/rocksdb-engine-factory';
import { SegmentedSessionBytesStore } from './internals/segmented-session-bytes.store';
import { SegmentedWindowBytesStore } from './internals/segmented-window-bytes.store';
import { SessionStoreBuilder } from './internals/session-store-builder';
import { WindowStoreBuilder } from './internals/window-store-builder';
import { ValueAndTimestampSerde } from './internals/value-and-timestamp-serde';
import type { KeyValueBytesStoreSupplier } from './key-value-bytes-store-supplier';
import type { RocksDBConfigSetter } from './rocksdb-config-setter';
import type { SessionBytesStoreSupplier } from './session-bytes-store-supplier';
import type { ValueAndTimestamp } from './value-and-timestamp';
import type { WindowBytesStoreSupplier } from './window-bytes-store-supplier';

/** Options of a persistent store supplier. */
export interface PersistentStoreOptions {
  /** Tunes this store's RocksDB options before it opens. */
  readonly configSetter?: RocksDBConfigSetter;
}

/**
 * Factories of store suppliers and builders, as Kafka Streams' `Stores`.
 *
 * @example
 * const builder = Stores.keyValueStoreBuilder(
 *   Stores.persistentKeyValueStore('stats-store'),
 *   Serdes.String(),
 *   Serdes.Json<{ count: number; sum: number }>(),
 * ).withCachingEnabled();
 *
 * Errors: the factories throw `RangeError` for an empty or unsafe store name (it becomes a
 * directory and a topic name: use letters, digits, `.`, `_` and `-`).
 */
export const Stores = {
  /**
   * A RocksDB store in `<taskDir>/rocksdb/<name>`, on the process's RocksDB engine:
   * `@nest-streams/rocksdb` (the system RocksDB), or `@nxtedition/rocksdb` when that addon is
   * not built (logged once at start, with what the fallback loses).
   */
  persistentKeyValueStore(
    name: string,
    options: PersistentStoreOptions = {},
  ): KeyValueBytesStoreSupplier {
    requireStoreName(name);
    const { configSetter } = options;
    return {
      name,
      metricsScope: 'rocksdb',
      persistent: true,
      get: (location) => createRocksDBEngine(name, location, configSetter),
    };
  },

  /**
   * A RocksDB store for timestamped values; the same engine (values carry their timestamp,
   * see `Stores.timestampedKeyValueStoreBuilder`).
   */
  persistentTimestampedKeyValueStore(
    name: string,
    options: PersistentStoreOptions = {},
  ): KeyValueBytesStoreSupplier {
    return Stores.persistentKeyValueStore(name, options);
  },

  /** An in-memory store: fast, rebuilt from its changelog after every restart. */
  inMemoryKeyValueStore(name: string): KeyValueBytesStoreSupplier {
    requireStoreName(name);
    return {
      name,
      metricsScope: 'in-memory',
      persistent: false,
      get: () => new InMemoryBytesStore(name),
    };
  },

  /** A builder of typed key-value stores over `supplier`'s engine. */
  keyValueStoreBuilder<K, V>(
    supplier: KeyValueBytesStoreSupplier,
    keySerde: Serde<K>,
    valueSerde: Serde<V>,
  ): KeyValueStoreBuilder<K, V> {
    return new KeyValueStoreBuilder(supplier, keySerde, valueSerde);
  },

  /**
   * A builder of timestamped key-value stores: values are `{ value, timestamp }`, kept as
   * Kafka Streams' `ValueAndTimestamp` bytes; the changelog holds the plain value with the
   * timestamp as record timestamp.
   */
  timestampedKeyValueStoreBuilder<K, V>(
    supplier: KeyValueBytesStoreSupplier,
    keySerde: Serde<K>,
    valueSerde: Serde<V>,
  ): KeyValueStoreBuilder<K, ValueAndTimestamp<V>> {
    return new KeyValueStoreBuilder(
      supplier,
      keySerde,
      new ValueAndTimestampSerde(valueSerde),
      true,
    );
  },

  /**
   * A RocksDB window store: one RocksDB instance per time segment in
   * `<taskDir>/<name>/<name>.<segmentStart>`, segments of `max(retention / 2, 60 s)`, whole
   * segments dropped past retention.
   *
   * @throws RangeError for an invalid name; `InvalidWindowError` (when the store opens) for a
   *   window size that is not positive or larger than the retention.
   */
  persistentWindowStore(
    name: string,
    retentionPeriodMs: number,
    windowSizeMs: number,
    retainDuplicates = false,
    options: PersistentStoreOptions = {},
  ): WindowBytesStoreSupplier {
    requireStoreName(name);
    const { configSetter } = options;
    return {
      name,
      metricsScope: 'rocksdb-window',
      persistent: true,
      retentionPeriodMs,
      windowSizeMs,
      retainDuplicates,
      get: ({ directory, configs }) =>
        new SegmentedWindowBytesStore({
          name,
          retentionPeriodMs,
          windowSizeMs,
          retainDuplicates,
          capabilities: { syncReads: true, persistent: true },
          // Each segment is a RocksDB instance named like its directory (`<name>.<start>`), the
          // name the config setter gets, as in Kafka Streams.
          segmentFactory: rocksDBSegmentFactory(name, { directory, configs }, configSetter),
          listSegmentNames: async () => {
            try {
              return await fs.readdir(directory);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
              throw error;
            }
          },
        }),
    };
  },

  /** An in-memory window store (segments in memory), rebuilt from its changelog on restart. */
  inMemoryWindowStore(
    name: string,
    retentionPeriodMs: number,
    windowSizeMs: number,
    retainDuplicates = false,
  ): WindowBytesStoreSupplier {
    requireStoreName(name);
    return {
      name,
      metricsScope: 'in-memory-window',
      persistent: false,
      retentionPeriodMs,
      windowSizeMs,
      retainDuplicates,
      get: () =>
        new SegmentedWindowBytesStore({
          name,
          retentionPeriodMs,
          windowSizeMs,
          retainDuplicates,
          capabilities: { syncReads: true, persistent: false },
          segmentFactory: (segment) => new InMemoryBytesStore(segment),
        }),
    };
  },

  /** A builder of typed window stores over `supplier`'s engine. */
  windowStoreBuilder<K, V>(
    supplier: WindowBytesStoreSupplier,
    keySerde: Serde<K>,
    valueSerde: Serde<V>,
  ): WindowStoreBuilder<K, V> {
    return new WindowStoreBuilder(supplier, keySerde, valueSerde);
  },

  /** A builder of window stores whose values carry their timestamps (DSL aggregations). */
  timestampedWindowStoreBuilder<K, V>(
    supplier: WindowBytesStoreSupplier,
    keySerde: Serde<K>,
    valueSerde: Serde<V>,
  ): WindowStoreBuilder<K, ValueAndTimestamp<V>> {
    return new WindowStoreBuilder(supplier, keySerde, new ValueAndTimestampSerde(valueSerde), true);
  },

  /**
   * A RocksDB session store: one RocksDB instance per segment of session ends in
   * `<taskDir>/<name>/<name>.<segmentStart>`, segments of `max(retention / 2, 60 s)`, whole
   * segments dropped past retention (Kafka Streams' `persistentSessionStore`).
   *
   * @throws RangeError for an invalid name; `InvalidWindowError` for a negative retention.
   */
  persistentSessionStore(
    name: string,
    retentionPeriodMs: number,
    options: PersistentStoreOptions = {},
  ): SessionBytesStoreSupplier {
    requireStoreName(name);
    const { configSetter } = options;
    return {
      name,
      metricsScope: 'rocksdb-session',
      persistent: true,
      retentionPeriodMs,
      get: ({ directory, configs }) =>
        new SegmentedSessionBytesStore({
          name,
          retentionPeriodMs,
          capabilities: { syncReads: true, persistent: true },
          // Each segment is a RocksDB instance named like its directory (`<name>.<start>`), the
          // name the config setter gets, as in Kafka Streams.
          segmentFactory: rocksDBSegmentFactory(name, { directory, configs }, configSetter),
          listSegmentNames: () => listDirectory(directory),
        }),
    };
  },

  /** An in-memory session store (segments in memory), rebuilt from its changelog on restart. */
  inMemorySessionStore(name: string, retentionPeriodMs: number): SessionBytesStoreSupplier {
    requireStoreName(name);
    return {
      name,
      metricsScope: 'in-memory-session',
      persistent: false,
      retentionPeriodMs,
      get: () =>
        new SegmentedSessionBytesStore({
          name,
          retentionPeriodMs,
          capabilities: { syncReads: true, persistent: false },
          segmentFactory: (segment) => new InMemoryBytesStore(segment),
        }),
    };
  },

  /** A builder of typed session stores over `supplier`'s engine (aggregates by `aggSerde`). */
  sessionStoreBuilder<K, AGG>(
    supplier: SessionBytesStoreSupplier,
    keySerde: Serde<K>,
    aggSerde: Serde<AGG>,
  ): SessionStoreBuilder<K, AGG> {
    return new SessionStoreBuilder(supplier, keySerde, aggSerde);
  },
} as const;

/** The entries of `directory` (segment names), none when it does not exist yet. */
async function listDirectory(directory: string): Promise<string[]> {
  try {
    return await fs.readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Checks a store name: it becomes a directory and part of the changelog topic name.
 *
 * @throws RangeError when the name is empty or has characters a topic name cannot hold.
 */
export function requireStoreName(name: string): void {
  if (!/^[a-zA-Z0-9._-]+$/.test(name) || name === '.' || name === '..') {
    throw new RangeError(
      `invalid store name '${name}': use letters, digits, '.', '_' and '-' (it names a directory and a topic)`,
    );
  }
}
