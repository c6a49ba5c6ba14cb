import type { SegmentedBytesStore } from './internals/segments/segmented-bytes.store';
import type { BytesStoreLocation } from './key-value-bytes-store-supplier';

/**
 * Makes the segmented engine of a window store, once per task (Kafka Streams'
 * `WindowBytesStoreSupplier`). Get one from `Stores.persistentWindowStore` or
 * `Stores.inMemoryWindowStore`.
 */
export interface WindowBytesStoreSupplier {
  readonly name: string;
  readonly metricsScope: string;
  readonly persistent: boolean;
  readonly retentionPeriodMs: number;
  readonly windowSizeMs: number;
  readonly retainDuplicates: boolean;
  /** A new, unopened engine; persistent segments live under `location.directory`. */
  get(location: BytesStoreLocation): SegmentedBytesStore;
}
