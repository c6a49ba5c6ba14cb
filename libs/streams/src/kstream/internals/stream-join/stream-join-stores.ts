import { TopologyError } from '../../../errors/topology.error';
import type { StateStore } from '../../../processor/state-store';
import type { StoreBuilder } from '../../../processor/store-builder';
import type { Serde } from '../../../serde/serde';
import { Stores } from '../../../state/stores';
import type { WindowBytesStoreSupplier } from '../../../state/window-bytes-store-supplier';
import type { StreamJoined } from '../../stream-joined';
import type { JoinWindows } from '../../windows/join-windows';
import { LeftOrRightValuesSerde, TimestampedKeyAndJoinSideSerde } from './outer-join-records';

/** The serdes of a join's stores (placeholders for the application's defaults included). */
export interface JoinSerdes<K, V1, V2> {
  readonly keySerde: Serde<K>;
  readonly valueSerde: Serde<V1>;
  readonly otherValueSerde: Serde<V2>;
}

/**
 * The window store of one side of a stream-stream join (Kafka Streams'
 * `StreamJoinedStoreFactory`): records kept by timestamp with duplicates, window size
 * `before + after`, retention `size + grace`; never cached; change-logged unless the join's
 * logging is off, with `cleanup.policy=delete` (a store of duplicates cannot be compacted).
 * RocksDB unless `supplier` is given.
 *
 * @throws TopologyError when `supplier` does not retain duplicates, or its window size or
 *   retention differ from the join's: build it with `Stores.persistentWindowStore(name,
 *   size + grace, size, true)`.
 */
export function joinWindowStore<K, V>(
  name: string,
  windows: JoinWindows,
  supplier: WindowBytesStoreSupplier | undefined,
  streamJoined: StreamJoined<K, unknown, unknown> | undefined,
  keySerde: Serde<K>,
  valueSerde: Serde<V>,
): StoreBuilder<StateStore> {
  const size = windows.size();
  const retention = size + windows.gracePeriodMs();
  if (supplier !== undefined) checkSupplier(supplier, size, retention);
  const builder = Stores.windowStoreBuilder(
    supplier ?? Stores.persistentWindowStore(name, retention, size, true),
    keySerde,
    valueSerde,
  );
  builder.withCachingDisabled();
  if (streamJoined?.loggingEnabled ?? true) {
    builder.withLoggingEnabled({
      ...(streamJoined?.topicConfig ?? {}),
      'cleanup.policy': 'delete',
    });
  } else {
    builder.withLoggingDisabled();
  }
  return builder;
}

/**
 * The store shared by both sides of a left or outer join (Kafka Streams'
 * `OuterStreamJoinStoreFactory`): a key-value store of the records waiting for a partner,
 * keyed by timestamp, side and key, each key holding the list of its records. In memory when
 * this side's store supplier is, else RocksDB; never cached; change-logged unless the join's
 * logging is off.
 */
export function outerJoinStore<K, V1, V2>(
  name: string,
  thisSupplier: WindowBytesStoreSupplier | undefined,
  streamJoined: StreamJoined<K, V1, V2> | undefined,
  serdes: JoinSerdes<K, V1, V2>,
): StoreBuilder<StateStore> {
  const inMemory = thisSupplier !== undefined && !thisSupplier.persistent;
  const builder = Stores.keyValueStoreBuilder(
    inMemory ? Stores.inMemoryKeyValueStore(name) : Stores.persistentKeyValueStore(name),
    new TimestampedKeyAndJoinSideSerde(serdes.keySerde),
    new LeftOrRightValuesSerde(serdes.valueSerde, serdes.otherValueSerde),
  );
  builder.withCachingDisabled();
  if (streamJoined?.loggingEnabled ?? true) builder.withLoggingEnabled(streamJoined?.topicConfig);
  else builder.withLoggingDisabled();
  return builder;
}

function checkSupplier(supplier: WindowBytesStoreSupplier, size: number, retention: number): void {
  if (!supplier.retainDuplicates) {
    throw new TopologyError(
      `the store supplier '${supplier.name}' of a stream-stream join must retain duplicates: build it with retainDuplicates true`,
    );
  }
  if (supplier.windowSizeMs !== size || supplier.retentionPeriodMs !== retention) {
    throw new TopologyError(
      `the store supplier '${supplier.name}' (window size ${supplier.windowSizeMs} ms, retention ${supplier.retentionPeriodMs} ms) must match the join window (size ${size} ms, retention ${retention} ms = size plus grace)`,
    );
  }
}
