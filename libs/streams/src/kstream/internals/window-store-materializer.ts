import { TopologyError } from '../../errors/topology.error';
import type { Serde } from '../../serde/serde';
import type { StateStore } from '../../processor/state-store';
import type { StoreBuilder } from '../../processor/store-builder';
import { Stores } from '../../state/stores';
import type { Materialized } from '../materialized';
import type { SessionWindows } from '../windows/session-windows';
import type { SlidingWindows } from '../windows/sliding-windows';
import type { TimeWindows } from '../windows/time-windows';
import { serdeOrDefault, type DefaultSerde } from './default-serde';
import { withCachingAndLogging } from './key-value-store-materializer';
import type { StoreMaterializer } from './store-materializer';

/**
 * The retention of a window or session store: `materialized`'s, else window size (or gap)
 * plus grace.
 *
 * @throws TopologyError when the given retention is shorter than size (gap) plus grace (the
 *   store would drop windows that can still be updated: raise the retention), or for a
 *   key-value store supplier (use `Materialized.as(name)`).
 */
function windowedRetention<K, V>(
  kind: 'window' | 'session',
  storeName: string,
  materialized: Materialized<K, V> | undefined,
  minimum: { minimumMs: number; what: string },
): number {
  const retention = materialized?.retentionMs ?? minimum.minimumMs;
  if (retention < minimum.minimumMs) {
    throw new TopologyError(
      `the retention of window store '${storeName}' (${retention} ms) must be no smaller than its ${minimum.what} (${minimum.minimumMs} ms): raise it with Materialized.withRetention`,
    );
  }
  if (materialized?.storeSupplier !== undefined) {
    throw new TopologyError(
      `${kind} store '${storeName}' cannot use a key-value store supplier: use Materialized.as(name)`,
    );
  }
  return retention;
}

/** Serdes of a windowed store, with default-serde placeholders where none is given. */
function serdesFor<K, V>(
  storeName: string,
  materialized: Materialized<K, V> | undefined,
  keySerde: Serde<K> | undefined,
  valueSerde: Serde<V> | undefined,
): { keySerde: Serde<K>; valueSerde: Serde<V>; defaultSerdes: DefaultSerde<unknown>[] } {
  const defaultSerdes: DefaultSerde<unknown>[] = [];
  return {
    keySerde: serdeOrDefault(materialized?.keySerde ?? keySerde, 'key', storeName, defaultSerdes),
    valueSerde: serdeOrDefault(
      materialized?.valueSerde ?? valueSerde,
      'value',
      storeName,
      defaultSerdes,
    ),
    defaultSerdes,
  };
}

/**
 * The timestamped window store of a time-windowed aggregation (retention per
 * {@link windowedRetention}, window size of `windows`, no duplicates).
 *
 * @throws TopologyError for a retention below size + grace, or a key-value store supplier.
 */
export function timestampedWindowStore(windows: TimeWindows): StoreMaterializer {
  const size = windows.size();
  return timestampedWindowsOf(size, {
    minimumMs: size + windows.gracePeriodMs(),
    what: 'window size plus grace period',
  });
}

/**
 * The timestamped window store of a sliding-window aggregation, as Kafka Streams'
 * `SlidingWindowStoreMaterializer`: windows of the time difference, retained for
 * `materialized`'s retention, else `2 * difference + grace` (a record may need the windows of
 * records up to twice the difference before it).
 *
 * @throws TopologyError for a retention below `2 * difference + grace`, or a key-value store
 *   supplier.
 */
export function slidingWindowStore(windows: SlidingWindows): StoreMaterializer {
  const size = windows.timeDifferenceMs();
  return timestampedWindowsOf(size, {
    minimumMs: 2 * size + windows.gracePeriodMs(),
    what: 'twice the time difference plus grace period',
  });
}

/** A timestamped window store of windows `size` long, retained at least `retention.minimumMs`. */
function timestampedWindowsOf(
  size: number,
  retention: { minimumMs: number; what: string },
): StoreMaterializer {
  return windowedStore(
    'window',
    retention,
    (name, retentionMs, inMemory) =>
      inMemory
        ? Stores.inMemoryWindowStore(name, retentionMs, size, false)
        : Stores.persistentWindowStore(name, retentionMs, size, false),
    (supplier, keySerde, valueSerde) =>
      Stores.timestampedWindowStoreBuilder(supplier, keySerde, valueSerde),
  );
}

/**
 * `materializer` with caching off whatever `Materialized` says: the store of an aggregation
 * that emits on window close (Kafka Streams caches neither).
 */
export function withoutCaching(materializer: StoreMaterializer): StoreMaterializer {
  return (storeName, materialized, keySerde, valueSerde) => {
    const store = materializer(storeName, materialized, keySerde, valueSerde);
    store.builder.withCachingDisabled();
    return store;
  };
}

/**
 * The session store of a session-windowed aggregation (retention per
 * {@link windowedRetention}: at least gap plus grace).
 *
 * A RocksDB session store unless `materialized` asks for `IN_MEMORY`; change-logged unless
 * logging is disabled; caching is accepted but writes go straight through (no session cache).
 *
 * @throws TopologyError for a retention below gap + grace.
 */
export function sessionStore(windows: SessionWindows): StoreMaterializer {
  return windowedStore(
    'session',
    {
      minimumMs: windows.inactivityGap() + windows.gracePeriodMs(),
      what: 'inactivity gap plus grace period',
    },
    (name, retention, inMemory) =>
      inMemory
        ? Stores.inMemorySessionStore(name, retention)
        : Stores.persistentSessionStore(name, retention),
    (supplier, keySerde, valueSerde) => Stores.sessionStoreBuilder(supplier, keySerde, valueSerde),
  );
}

/**
 * A windowed store (window or session): retention per {@link windowedRetention}, the bytes
 * store from `supply` (in memory when `materialized` asks for `IN_MEMORY`), built by `build`
 * with caching and logging as `materialized` says.
 */
function windowedStore<S>(
  kind: 'window' | 'session',
  minimum: { minimumMs: number; what: string },
  supply: (storeName: string, retentionMs: number, inMemory: boolean) => S,
  build: <K, V>(supplier: S, keySerde: Serde<K>, valueSerde: Serde<V>) => StoreBuilder<StateStore>,
): StoreMaterializer {
  return (storeName, materialized, keySerde, valueSerde) => {
    const retention = windowedRetention(kind, storeName, materialized, minimum);
    const { defaultSerdes, ...serdes } = serdesFor(storeName, materialized, keySerde, valueSerde);
    const inMemory = materialized?.storeType === 'IN_MEMORY';
    const builder = build(
      supply(storeName, retention, inMemory),
      serdes.keySerde,
      serdes.valueSerde,
    );
    withCachingAndLogging(builder, materialized);
    return { storeName, queryableStoreName: materialized?.storeName, builder, defaultSerdes };
  };
}
