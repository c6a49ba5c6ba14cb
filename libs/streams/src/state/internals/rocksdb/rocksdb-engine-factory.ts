import type { RocksDBConfigSetter } from '../../rocksdb-config-setter';
import { NativeRocksDBStore } from './native-rocksdb.store';
import { NxteditionRocksDBStore } from './nxtedition-rocksdb.store';
import { chooseRocksDBEngine } from './rocksdb-engine-choice';
import type { RocksDBMemory } from './rocksdb-memory';
import type { EngineFactory } from '../store-stack';

/**
 * Makes the RocksDB engines of one store (the store's own, or each of its segments) on the
 * engine chosen for the process (`chooseRocksDBEngine`: made at the first call, before any
 * store opens). The store's own config setter wins; else the application's
 * `rocksDBConfigSetter`, as in Kafka Streams' `rocksdb.config.setter`; else the instance's
 * memory budget (`rocksDBMemoryBudgetMb`, bounded by default: see {@link RocksDBMemory}). It makes engines only:
 * the store stack (`store-stack.ts`) lays the task's transactional layer over each.
 */
export function rocksDBEngines(storeSetter: RocksDBConfigSetter | undefined): EngineFactory {
  return (name, { directory, configs }) => {
    const configSetter =
      storeSetter ??
      (configs.rocksDBConfigSetter as RocksDBConfigSetter | undefined) ??
      (configs.rocksDBMemory as RocksDBMemory | undefined)?.defaultSetter();
    const params = { name, directory, configs, configSetter };
    return chooseRocksDBEngine().engine === '@nest-streams/rocksdb'
      ? new NativeRocksDBStore(params)
      : new NxteditionRocksDBStore(params);
  };
}
