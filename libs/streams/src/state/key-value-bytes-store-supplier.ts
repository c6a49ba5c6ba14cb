import type { BytesStore } from './bytes-store';

/** Where and how a supplier's engine lives, given when a task opens the store. */
export interface BytesStoreLocation {
  /** The store's own directory, `<taskDir>/rocksdb/<store>` (unused by in-memory engines). */
  readonly directory: string;
  /** The application's configuration (handed to a RocksDB config setter). */
  readonly configs: Readonly<Record<string, unknown>>;
}

/**
 * Makes the storage engine of a key-value store, once per task (Kafka Streams'
 * `KeyValueBytesStoreSupplier`). Get one from `Stores`, or implement it to plug in another
 * engine that honours the `BytesStore` contract.
 */
export interface KeyValueBytesStoreSupplier {
  readonly name: string;
  /** The engine kind, used as the metrics scope: `rocksdb`, `in-memory`, ... */
  readonly metricsScope: string;
  /** Whether the engine keeps its data across restarts. */
  readonly persistent: boolean;
  /** A new, unopened engine for one task's instance of the store. */
  get(location: BytesStoreLocation): BytesStore;
}
