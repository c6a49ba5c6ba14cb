import type { BytesStore } from '../bytes-store';
import type { BytesStoreLocation } from '../key-value-bytes-store-supplier';
import type { RocksDBConfigSetter } from '../rocksdb-config-setter';
import { NativeRocksDBStore } from './native-rocksdb.store';
import { NxteditionRocksDBStore } from './nxtedition-rocksdb.store';
import { chooseRocksDBEngine } from './rocksdb-engine-choice';

/**
 * The RocksDB engine of one store (or window/session segment) on the engine chosen for the
 * process (`chooseRocksDBEngine`): the choice is made at the first call, before any store
 * opens. The store's own config setter wins; else the application's `rocksDBConfigSetter`, as
 * in Kafka Streams' `rocksdb.config.setter`.
 */
export function createRocksDBEngine(
  name: string,
  { directory, configs }: BytesStoreLocation,
  storeSetter: RocksDBConfigSetter | undefined,
): BytesStore {
  const configSetter =
    storeSetter ?? (configs.rocksDBConfigSetter as RocksDBConfigSetter | undefined);
  const params = { name, directory, configs, configSetter };
  return chooseRocksDBEngine().engine === '@nest-streams/rocksdb'
    ? new NativeRocksDBStore(params)
    : new NxteditionRocksDBStore(params);
}
