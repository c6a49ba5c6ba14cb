import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { InvalidWindowError } from '../errors/invalid-window.error';
import type { StateStoreContext } from '../processor/state-store-context';
import type { Serde } from '../serde/serde';
import { requireDurationMs } from '../windowing/internals/window-time';
import type { BytesStore, BytesStoreCapabilities } from './bytes-store';
import { InMemoryBytesStore } from './internals/in-memory-bytes.store';
import { KeyValueEngineLayer } from './internals/key-value-engine-layer';
import { MeteredKeyValueStore } from './internals/metered-key-value-store';
import { MeteredSessionStore } from './internals/metered-session-store';
import { MeteredWindowStore } from './internals/metered-window-store';
import { NxteditionRocksDBStore } from './internals/nxtedition-rocksdb.store';
import { SegmentedBytesStore, type SegmentedKeySchema } from './internals/segmented-bytes.store';
import { SessionKeySchema } from './internals/session-key-schema';
import { StateStoreBuilder, stackOver } from './internals/state-store-builder';
import { ValueAndTimestampSerde } from './internals/value-and-timestamp-serde';
import { WindowKeySchema } from './internals/window-key-schema';
import type {
  BytesStoreLocation,
  KeyValueBytesStoreSupplier,
} from './key-value-bytes-store-supplier';
import type { RocksDBConfigSetter } from './rocksdb-config-setter';
import type { SessionBytesStoreSupplier } from './session-bytes-store-supplier';
import type { ValueAndTimestamp } from './value-and-timestamp';
import type { WindowBytesStoreSupplier } from './window-bytes-store-supplier';

/** Options of a persistent store supplier. */
export interface PersistentStoreOptions {
  /** Tunes this store's RocksDB options before it opens. */
  readonly configSetter?: RocksDBConfigSetter;
}

/** The sub-directory of a task directory holding key-value engines (Kafka Streams' layout). */
const KEY_VALUE_DIR = 'rocksdb';

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
  /** A RocksDB store in `<taskDir>/rocksdb/<name>` (engine: `@nxtedition/rocksdb`). */
  persistentKeyValueStore(
    name: string,
    options: PersistentStoreOptions = {},
  ): KeyValueBytesStoreSupplier {
    requireStoreName(name);
    return {
      name,
      metricsScope: 'rocksdb',
      persistent: true,
      get: (location) => rocksDBEngine(name, location, options.configSetter),
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
    const scope = { metricsScope: 'rocksdb-window', persistent: true } as const;
    return {
      ...windowSupplier(name, retentionPeriodMs, windowSizeMs, retainDuplicates),
      ...scope,
      get: (at) => {
        requireWindowFits(name, retentionPeriodMs, windowSizeMs);
        return segmentedRocksDB(name, retentionPeriodMs, WINDOW_SCHEMA, at, options.configSetter);
      },
    };
  },

  /** An in-memory window store (segments in memory), rebuilt from its changelog on restart. */
  inMemoryWindowStore(
    name: string,
    retentionPeriodMs: number,
    windowSizeMs: number,
    retainDuplicates = false,
  ): WindowBytesStoreSupplier {
    const scope = { metricsScope: 'in-memory-window', persistent: false } as const;
    return {
      ...windowSupplier(name, retentionPeriodMs, windowSizeMs, retainDuplicates),
      ...scope,
      get: () => {
        requireWindowFits(name, retentionPeriodMs, windowSizeMs);
        return segmentedInMemory(name, retentionPeriodMs, WINDOW_SCHEMA);
      },
    };
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
    requireStoreName(name);
    return {
      name,
      metricsScope: 'rocksdb-session',
      persistent: true,
      retentionPeriodMs,
      get: (at) =>
        segmentedRocksDB(name, retentionPeriodMs, SESSION_SCHEMA, at, options.configSetter),
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
      get: () => segmentedInMemory(name, retentionPeriodMs, SESSION_SCHEMA),
    };
  },

  /** A builder of typed session stores over `supplier`'s engine (aggregates by `aggSerde`). */
  sessionStoreBuilder<K, AGG>(
    supplier: SessionBytesStoreSupplier,
    keySerde: Serde<K>,
    aggSerde: Serde<AGG>,
  ): StateStoreBuilder<MeteredSessionStore<K, AGG>> {
    const { name, metricsScope, persistent } = supplier;
    return new StateStoreBuilder(
      supplier,
      (choice) => {
        const buildStack = (context: StateStoreContext) =>
          stackOver(supplier.get(location(context, name)), choice, false);
        const options = { name, metricsScope, keySerde, valueSerde: aggSerde };
        return new MeteredSessionStore(
          { ...options, caching: choice.caching, buildStack },
          persistent,
        );
      },
      'session',
      supplier.retentionPeriodMs,
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
  const { name, metricsScope, persistent } = supplier;
  return new StateStoreBuilder(supplier, (choice) => {
    const engineAt = (context: StateStoreContext): KeyValueEngineLayer =>
      new KeyValueEngineLayer(supplier.get(location(context, path.join(KEY_VALUE_DIR, name))));
    const buildStack = (context: StateStoreContext) =>
      stackOver(engineAt(context), choice, timestampedValues);
    const options = { name, metricsScope, keySerde, valueSerde, timestampedValues };
    return new MeteredKeyValueStore(
      { ...options, caching: choice.caching, buildStack },
      persistent,
    );
  });
}

/** A window store builder; `timestampedValues` when values are `ValueAndTimestamp` bytes. */
function windowBuilder<K, V>(
  supplier: WindowBytesStoreSupplier,
  keySerde: Serde<K>,
  valueSerde: Serde<V>,
  timestampedValues: boolean,
): StateStoreBuilder<MeteredWindowStore<K, V>> {
  const { name, metricsScope, persistent, windowSizeMs, retainDuplicates } = supplier;
  return new StateStoreBuilder(
    supplier,
    (choice) => {
      // Stores retaining duplicates (stream-stream joins) are never cached, as in Kafka Streams.
      const caching = choice.caching && !retainDuplicates;
      const buildStack = (context: StateStoreContext) =>
        stackOver(supplier.get(location(context, name)), { ...choice, caching }, timestampedValues);
      const options = { name, metricsScope, keySerde, valueSerde, timestampedValues, caching };
      return new MeteredWindowStore(
        { ...options, windowSizeMs, retainDuplicates, buildStack },
        persistent,
      );
    },
    'window',
    supplier.retentionPeriodMs,
  );
}

/** The supplier fields every window store has. */
function windowSupplier(
  name: string,
  retentionPeriodMs: number,
  windowSizeMs: number,
  retainDuplicates: boolean,
) {
  requireStoreName(name);
  return { name, retentionPeriodMs, windowSizeMs, retainDuplicates };
}

/**
 * @throws InvalidWindowError when the window size is not positive or exceeds the retention
 *   (fix the store definition; Kafka Streams requires retention >= size + grace).
 */
function requireWindowFits(name: string, retentionPeriodMs: number, windowSizeMs: number): void {
  requireDurationMs(windowSizeMs, 'window size', true);
  if (retentionPeriodMs < windowSizeMs) {
    throw new InvalidWindowError(
      `the retention period of window store ${name} (${retentionPeriodMs} ms) must be no smaller than its window size (${windowSizeMs} ms)`,
    );
  }
}

/** Where a store's engine lives in a task: `<taskDir>/<sub>`, with the application's configs. */
function location(context: StateStoreContext, sub: string): BytesStoreLocation {
  return { directory: path.join(context.taskDir, sub), configs: context.appConfigs ?? {} };
}

/**
 * Segments of RocksDB instances, each named like its directory (`<name>.<start>`), the name
 * the config setter gets, as in Kafka Streams.
 */
function segmentedRocksDB(
  name: string,
  retentionPeriodMs: number,
  schema: SegmentedKeySchema,
  { directory, configs }: BytesStoreLocation,
  configSetter: RocksDBConfigSetter | undefined,
): SegmentedBytesStore {
  const capabilities: BytesStoreCapabilities = { syncReads: true, persistent: true };
  return new SegmentedBytesStore(
    {
      name,
      retentionPeriodMs,
      capabilities,
      segmentFactory: (segment) =>
        rocksDBEngine(segment, { directory: path.join(directory, segment), configs }, configSetter),
      listSegmentNames: () => listDirectory(directory),
    },
    schema,
  );
}

function segmentedInMemory(
  name: string,
  retentionPeriodMs: number,
  schema: SegmentedKeySchema,
): SegmentedBytesStore {
  const capabilities: BytesStoreCapabilities = { syncReads: true, persistent: false };
  const segmentFactory = (segment: string) => new InMemoryBytesStore(segment);
  return new SegmentedBytesStore({ name, retentionPeriodMs, capabilities, segmentFactory }, schema);
}

/** The RocksDB engine of one store (or segment); the binding loads when the first one opens. */
function rocksDBEngine(
  name: string,
  { directory, configs }: BytesStoreLocation,
  storeSetter: RocksDBConfigSetter | undefined,
): BytesStore {
  // The store's own setter wins; else the application's `rocksDBConfigSetter`, as in Kafka
  // Streams' `rocksdb.config.setter`.
  const configSetter =
    storeSetter ?? (configs.rocksDBConfigSetter as RocksDBConfigSetter | undefined);
  return new NxteditionRocksDBStore({ name, directory, configs, configSetter });
}

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
