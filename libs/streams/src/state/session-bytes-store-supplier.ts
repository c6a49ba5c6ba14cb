import type { SegmentedBytesStore } from './internals/segments/segmented-bytes.store';
import type { BytesStoreLocation } from './key-value-bytes-store-supplier';

/**
 * Makes the segmented engine of a session store, once per task (Kafka Streams'
 * `SessionBytesStoreSupplier`). Get one from `Stores.persistentSessionStore` or
 * `Stores.inMemorySessionStore`.
 */
export interface SessionBytesStoreSupplier {
  readonly name: string;
  /** The engine kind, used as the metrics scope: `rocksdb-session`, `in-memory-session`. */
  readonly metricsScope: string;
  /** Whether the engine keeps its data across restarts. */
  readonly persistent: boolean;
  /** How long sessions stay, in ms of stream time past their end. */
  readonly retentionPeriodMs: number;
  /** A new, unopened engine; persistent segments live under `location.directory`. */
  get(location: BytesStoreLocation): SegmentedBytesStore;
}
