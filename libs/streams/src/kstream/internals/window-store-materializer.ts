import { TopologyError } from '../../errors/topology.error';
import type { Serde } from '../../serde/serde';
import type { StateStore } from '../../processor/state-store';
import { Stores } from '../../state/stores';
import type { Materialized } from '../materialized';
import type { SessionWindows } from '../windows/session-windows';
import type { TimeWindows } from '../windows/time-windows';
import { serdeOrDefault, type DefaultSerde } from './default-serde';
import type { MaterializedStore } from './store-materializer';

/**
 * The retention of a windowed store: `materialized`'s, else window size (or gap) plus grace.
 *
 * @throws TopologyError when the given retention is shorter than size (gap) plus grace: the
 *   store would drop windows that can still be updated; raise the retention.
 */
export function windowedRetention(
  storeName: string,
  minimumMs: number,
  what: string,
  materialized: Materialized<unknown, unknown> | undefined,
): number {
  const retention = materialized?.retentionMs ?? minimumMs;
  if (retention < minimumMs) {
    throw new TopologyError(
      `the retention of window store '${storeName}' (${retention} ms) must be no smaller than its ${what} (${minimumMs} ms): raise it with Materialized.withRetention`,
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
  const retention = windowedRetention(
    storeName,
    windows.size() + windows.gracePeriodMs(),
    'window size plus grace period',
    materialized as Materialized<unknown, unknown> | undefined,
  );
  if (materialized?.storeSupplier !== undefined) {
    throw new TopologyError(
      `window store '${storeName}' cannot use a key-value store supplier: use Materialized.as(name)`,
    );
  }
  const serdes = serdesFor(storeName, materialized, keySerde, valueSerde);
  const size = windows.size();
  const supplier =
    materialized?.storeType === 'IN_MEMORY'
      ? Stores.inMemoryWindowStore(storeName, retention, size, false)
      : Stores.persistentWindowStore(storeName, retention, size, false);
  const builder = Stores.timestampedWindowStoreBuilder(
    supplier,
    serdes.keySerde,
    serdes.valueSerde,
  );
  if (materialized?.cachingEnabled ?? true) builder.withCachingEnabled();
  else builder.withCachingDisabled();
  if (materialized?.loggingEnabled ?? true) builder.withLoggingEnabled(materialized?.topicConfig);
  else builder.withLoggingDisabled();
  return {
    storeName,
    queryableStoreName: materialized?.storeName,
    builder,
    defaultSerdes: serdes.defaultSerdes,
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
export function sessionStore<K, V>(
  storeName: string,
  windows: SessionWindows,
  materialized: Materialized<K, V> | undefined,
  keySerde: Serde<K> | undefined,
  valueSerde: Serde<V> | undefined,
): MaterializedStore<StateStore> {
  const retention = windowedRetention(
    storeName,
    windows.inactivityGap() + windows.gracePeriodMs(),
    'inactivity gap plus grace period',
    materialized as Materialized<unknown, unknown> | undefined,
  );
  if (materialized?.storeSupplier !== undefined) {
    throw new TopologyError(
      `session store '${storeName}' cannot use a key-value store supplier: use Materialized.as(name)`,
    );
  }
  const serdes = serdesFor(storeName, materialized, keySerde, valueSerde);
  const supplier =
    materialized?.storeType === 'IN_MEMORY'
      ? Stores.inMemorySessionStore(storeName, retention)
      : Stores.persistentSessionStore(storeName, retention);
  const builder = Stores.sessionStoreBuilder(supplier, serdes.keySerde, serdes.valueSerde);
  if (materialized?.cachingEnabled ?? true) builder.withCachingEnabled();
  else builder.withCachingDisabled();
  if (materialized?.loggingEnabled ?? true) builder.withLoggingEnabled(materialized?.topicConfig);
  else builder.withLoggingDisabled();
  return {
    storeName,
    queryableStoreName: materialized?.storeName,
    builder,
    defaultSerdes: serdes.defaultSerdes,
  };
}
