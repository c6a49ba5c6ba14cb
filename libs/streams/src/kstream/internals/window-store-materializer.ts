import { TopologyError } from '../../errors/topology.error';
import type { Serde } from '../../serde/serde';
import type { StateStore } from '../../processor/state-store';
import type { StoreBuilder } from '../../processor/store-builder';
import { Stores } from '../../state/stores';
import type { Materialized } from '../materialized';
import type { SessionWindows } from '../windows/session-windows';
import type { TimeWindows } from '../windows/time-windows';
import { serdeOrDefault, type DefaultSerde } from './default-serde';
import { withCachingAndLogging } from './key-value-store-materializer';
import type { MaterializedStore } from './store-materializer';

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
export function timestampedWindowStore<K, V>(
  storeName: string,
  windows: TimeWindows,
  materialized: Materialized<K, V> | undefined,
  keySerde: Serde<K> | undefined,
  valueSerde: Serde<V> | undefined,
): MaterializedStore<StateStore> {
  const size = windows.size();
  const retention = windowedRetention('window', storeName, materialized, {
    minimumMs: size + windows.gracePeriodMs(),
    what: 'window size plus grace period',
  });
  const serdes = serdesFor(storeName, materialized, keySerde, valueSerde);
  const supplier =
    materialized?.storeType === 'IN_MEMORY'
      ? Stores.inMemoryWindowStore(storeName, retention, size, false)
      : Stores.persistentWindowStore(storeName, retention, size, false);
  const builder = Stores.timestampedWindowStoreBuilder(
    supplier,
    serdes.keySerde,
    serdes.valueSerde,
  );
  return materializedAs(storeName, materialized, builder, serdes.defaultSerdes);
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
export function sessionStore<K, V>(
  storeName: string,
  windows: SessionWindows,
  materialized: Materialized<K, V> | undefined,
  keySerde: Serde<K> | undefined,
  valueSerde: Serde<V> | undefined,
): MaterializedStore<StateStore> {
  const retention = windowedRetention('session', storeName, materialized, {
    minimumMs: windows.inactivityGap() + windows.gracePeriodMs(),
    what: 'inactivity gap plus grace period',
  });
  const serdes = serdesFor(storeName, materialized, keySerde, valueSerde);
  const supplier =
    materialized?.storeType === 'IN_MEMORY'
      ? Stores.inMemorySessionStore(storeName, retention)
      : Stores.persistentSessionStore(storeName, retention);
  const builder = Stores.sessionStoreBuilder(supplier, serdes.keySerde, serdes.valueSerde);
  return materializedAs(storeName, materialized, builder, serdes.defaultSerdes);
}

/** A windowed store's builder with caching and logging as `materialized` says, and its names. */
function materializedAs<K, V>(
  storeName: string,
  materialized: Materialized<K, V> | undefined,
  builder: StoreBuilder<StateStore>,
  defaultSerdes: DefaultSerde<unknown>[],
): MaterializedStore<StateStore> {
  withCachingAndLogging(builder, materialized);
  return { storeName, queryableStoreName: materialized?.storeName, builder, defaultSerdes };
}
