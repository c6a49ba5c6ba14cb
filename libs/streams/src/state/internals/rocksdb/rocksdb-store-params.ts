import type { RocksDBConfigSetter } from '../../rocksdb-config-setter';

/** What a RocksDB engine needs to open one store. */
export interface RocksDBStoreParams {
  /** The store's name (handed to the config setter). */
  readonly name: string;
  /** The store's own directory, e.g. `<state.dir>/<application.id>/<task>/rocksdb/<store>`. */
  readonly directory: string;
  /** Tunes the store's options before each open. */
  readonly configSetter?: RocksDBConfigSetter;
  /** The application's configuration, passed to the config setter. */
  readonly configs?: Readonly<Record<string, unknown>>;
}
