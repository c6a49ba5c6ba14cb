import { join } from 'node:path';
import type { BytesStore } from '../bytes-store';
import type { BytesStoreLocation } from '../key-value-bytes-store-supplier';
import type { RocksDBConfigSetter } from '../rocksdb-config-setter';
import { NativeRocksDBStore } from './native-rocksdb.store';
import { NxteditionRocksDBStore } from './nxtedition-rocksdb.store';
import { chooseRocksDBEngine } from './rocksdb-engine-choice';
import { TaskEngines } from './task-engines';
import { TransactionalBytesStore } from './transactional-bytes-store';

/**
 * The RocksDB engine of one store on the engine chosen for the process
 * (`chooseRocksDBEngine`: made at the first call, before any store opens). The store's own
 * config setter wins; else the application's `rocksDBConfigSetter`, as in Kafka Streams'
 * `rocksdb.config.setter`. Inside a task (its configs carry the task's {@link TaskEngines}),
 * the engine is a {@link TransactionalBytesStore} that the task flushes before checkpoints
 * and, under exactly-once, commits with its transactions.
 */
export function createRocksDBEngine(
  name: string,
  location: BytesStoreLocation,
  storeSetter: RocksDBConfigSetter | undefined,
): BytesStore {
  TaskEngines.of(location.configs)?.declare(name);
  return rocksDBEngine(name, location, storeSetter);
}

/**
 * The factory of a window or session store's segments (each its own RocksDB instance in
 * `<directory>/<segment name>`, the name the config setter gets, as in Kafka Streams).
 */
export function rocksDBSegmentFactory(
  storeName: string,
  { directory, configs }: BytesStoreLocation,
  storeSetter: RocksDBConfigSetter | undefined,
): (segment: string) => BytesStore {
  TaskEngines.of(configs)?.declare(storeName);
  return (segment) =>
    rocksDBEngine(segment, { directory: join(directory, segment), configs }, storeSetter);
}

function rocksDBEngine(
  name: string,
  { directory, configs }: BytesStoreLocation,
  storeSetter: RocksDBConfigSetter | undefined,
): BytesStore {
  const configSetter =
    storeSetter ?? (configs.rocksDBConfigSetter as RocksDBConfigSetter | undefined);
  const params = { name, directory, configs, configSetter };
  const engine =
    chooseRocksDBEngine().engine === '@nest-streams/rocksdb'
      ? new NativeRocksDBStore(params)
      : new NxteditionRocksDBStore(params);
  const engines = TaskEngines.of(configs);
  return engines === undefined ? engine : new TransactionalBytesStore(engine, engines);
}
