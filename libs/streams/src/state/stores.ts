import { InvalidWindowError } from '../errors/invalid-window.error';
import type { Serde } from '../serde/serde';
import { requireDurationMs } from '../windowing/internals/window-time';
import { InMemoryBytesStore } from './internals/in-memory-bytes.store';
import { MeteredKeyValueStore } from './internals/metered/metered-key-value-store';
import { MeteredSessionStore } from './internals/metered/metered-session-store';
import { MeteredWindowStore } from './internals/metered/metered-window-store';
import { rocksDBEngines } from './internals/rocksdb/rocksdb-engine-factory';
import type { SegmentedKeySchema } from './internals/segments/segmented-bytes.store';
import { SessionKeySchema } from './internals/segments/session-key-schema';
import { StateStoreBuilder } from './internals/state-store-builder';
import {
  keyValueEngineLayer,
  persistentEngine,
  segmentedEngine,
  segmentedEngineLayer,
  type SegmentedEngineSpec,
} from './internals/store-stack';
import { ValueAndTimestampSerde } from './internals/value-and-timestamp-serde';
import { WindowKeySchema } from './internals/segments/window-key-schema';
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

const WINDOW_SCHEMA: SegmentedKeySchema = {
  segmentTimestamp: (storeKey) => WindowKeySchema.extractStoreTimestamp(storeKey),
};
const SESSION_SCHEMA: SegmentedKeySchema = {
  segmentTimestamp: (storeKey) => SessionKeySchema.extractEndTimestamp(storeKey),
};

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
    return {
      name,
      metricsScope: 'rocksdb',
      persistent: true,
      get: (location) => persistentEngine(name, location, rocksDBEngines(options.configSetter)),
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
  ): StateStoreBuilder<MeteredKeyValueStore<K, V>> {
    return keyValueBuilder(supplier, keySerde, valueSerde, false);
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
  ): StateStoreBuilder<MeteredKeyValueStore<K, ValueAndTimestamp<V>>> {
    return keyValueBuilder(supplier, keySerde, new ValueAndTimestampSerde(valueSerde), true);
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
    const { configSetter } = options;
    return windowSupplier(name, retentionPeriodMs, windowSizeMs, retainDuplicates, configSetter);
  },

  /** An in-memory window store (segments in memory), rebuilt from its changelog on restart. */
  inMemoryWindowStore(
    name: string,
    retentionPeriodMs: number,
    windowSizeMs: number,
    retainDuplicates = false,
  ): WindowBytesStoreSupplier {
    return windowSupplier(name, retentionPeriodMs, windowSizeMs, retainDuplicates, false);
  },

  /** A builder of typed window stores over `supplier`'s engine. */
  windowStoreBuilder<K, V>(
    supplier: WindowBytesStoreSupplier,
    keySerde: Serde<K>,
    valueSerde: Serde<V>,
  ): StateStoreBuilder<MeteredWindowStore<K, V>> {
    return windowBuilder(supplier, keySerde, valueSerde, false);
  },

  /** A builder of window stores whose values carry their timestamps (DSL aggregations). */
  timestampedWindowStoreBuilder<K, V>(
    supplier: WindowBytesStoreSupplier,
    keySerde: Serde<K>,
    valueSerde: Serde<V>,
  ): StateStoreBuilder<MeteredWindowStore<K, ValueAndTimestamp<V>>> {
    return windowBuilder(supplier, keySerde, new ValueAndTimestampSerde(valueSerde), true);
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
    return sessionSupplier(name, retentionPeriodMs, options.configSetter);
  },

  /** An in-memory session store (segments in memory), rebuilt from its changelog on restart. */
  inMemorySessionStore(name: string, retentionPeriodMs: number): SessionBytesStoreSupplier {
    return sessionSupplier(name, retentionPeriodMs, false);
  },

  /** A builder of typed session stores over `supplier`'s engine (aggregates by `aggSerde`). */
  sessionStoreBuilder<K, AGG>(
    supplier: SessionBytesStoreSupplier,
    keySerde: Serde<K>,
    aggSerde: Serde<AGG>,
  ): StateStoreBuilder<MeteredSessionStore<K, AGG>> {
    const { retentionPeriodMs: retentionMs } = supplier;
    const engineAt = segmentedEngineLayer(supplier);
    return StateStoreBuilder.of(
      {
        ...{ supplier, keySerde, valueSerde: aggSerde, timestampedValues: false, engineAt },
        ...{ changelogKind: 'session', retentionMs },
      },
      (options) => new MeteredSessionStore(options, supplier.persistent),
    );
  },
} as const;

/** A key-value store builder; `timestampedValues` when values are `ValueAndTimestamp` bytes. */
function keyValueBuilder<K, V>(
  supplier: KeyValueBytesStoreSupplier,
  keySerde: Serde<K>,
  valueSerde: Serde<V>,
  timestampedValues: boolean,
): StateStoreBuilder<MeteredKeyValueStore<K, V>> {
  const engineAt = keyValueEngineLayer(supplier);
  return StateStoreBuilder.of(
    { supplier, keySerde, valueSerde, timestampedValues, engineAt, changelogKind: 'key-value' },
    (options) => new MeteredKeyValueStore(options, supplier.persistent),
  );
}

/** A window store builder; `timestampedValues` when values are `ValueAndTimestamp` bytes. */
function windowBuilder<K, V>(
  supplier: WindowBytesStoreSupplier,
  keySerde: Serde<K>,
  valueSerde: Serde<V>,
  timestampedValues: boolean,
): StateStoreBuilder<MeteredWindowStore<K, V>> {
  const { windowSizeMs, retainDuplicates, retentionPeriodMs: retentionMs } = supplier;
  const engineAt = segmentedEngineLayer(supplier);
  return StateStoreBuilder.of(
    {
      ...{ supplier, keySerde, valueSerde, timestampedValues, engineAt, retentionMs },
      ...{ changelogKind: 'window', cacheable: !retainDuplicates },
    },
    (options) =>
      new MeteredWindowStore({ ...options, windowSizeMs, retainDuplicates }, supplier.persistent),
  );
}

/**
 * A window store's supplier: RocksDB segments (with `configSetter`, or the application's) or,
 * when `configSetter` is `false`, segments in memory.
 */
function windowSupplier(
  name: string,
  retentionPeriodMs: number,
  windowSizeMs: number,
  retainDuplicates: boolean,
  configSetter: RocksDBConfigSetter | undefined | false,
): WindowBytesStoreSupplier {
  requireStoreName(name);
  const persistent = configSetter !== false;
  return {
    name,
    metricsScope: persistent ? 'rocksdb-window' : 'in-memory-window',
    persistent,
    retentionPeriodMs,
    windowSizeMs,
    retainDuplicates,
    get: (at) => {
      requireDurationMs(windowSizeMs, 'window size', true);
      if (retentionPeriodMs < windowSizeMs) {
        throw new InvalidWindowError(
          `the retention period of window store ${name} (${retentionPeriodMs} ms) must be no smaller than its window size (${windowSizeMs} ms)`,
        );
      }
      return segmentedEngine(
        segmentedSpec(name, retentionPeriodMs, WINDOW_SCHEMA, configSetter),
        at,
      );
    },
  };
}

/** A session store's supplier, as {@link windowSupplier}. */
function sessionSupplier(
  name: string,
  retentionPeriodMs: number,
  configSetter: RocksDBConfigSetter | undefined | false,
): SessionBytesStoreSupplier {
  requireStoreName(name);
  const persistent = configSetter !== false;
  return {
    name,
    metricsScope: persistent ? 'rocksdb-session' : 'in-memory-session',
    persistent,
    retentionPeriodMs,
    get: (at) =>
      segmentedEngine(segmentedSpec(name, retentionPeriodMs, SESSION_SCHEMA, configSetter), at),
  };
}

/** A segmented engine's spec: RocksDB segments (with `configSetter`), or in memory (`false`). */
function segmentedSpec(
  name: string,
  retentionPeriodMs: number,
  schema: SegmentedKeySchema,
  configSetter: RocksDBConfigSetter | undefined | false,
): SegmentedEngineSpec {
  const segments = configSetter === false ? 'in-memory' : rocksDBEngines(configSetter);
  return { name, retentionPeriodMs, schema, segments };
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
