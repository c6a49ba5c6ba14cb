import type { RocksDBOptions } from './rocksdb-options';

/**
 * Tunes the RocksDB options of each persistent store before it opens, like Kafka Streams'
 * `rocksdb.config.setter`. One instance serves every store; `storeName` tells them apart
 * (window and session segments pass their store's name).
 *
 * @example
 * const setter: RocksDBConfigSetter = {
 *   setConfig(storeName, options) {
 *     if (storeName === 'stats-store') options.blockCacheSize = 16 * 1024 * 1024;
 *   },
 * };
 */
export interface RocksDBConfigSetter {
  /**
   * Changes `options` in place. `configs` is the application's configuration. Throwing fails
   * the store's `open()` with that error. Values the engine cannot apply fail `open()` with a
   * `RocksDBConfigError` listing them: fix the setter.
   */
  setConfig(
    storeName: string,
    options: RocksDBOptions,
    configs: Readonly<Record<string, unknown>>,
  ): void;

  /**
   * Called when the store closes, to release what `setConfig` created for it. Never release
   * anything shared with other stores here. Errors are reported by the store's `close()`.
   */
  close?(storeName: string, options: RocksDBOptions): void;
}
