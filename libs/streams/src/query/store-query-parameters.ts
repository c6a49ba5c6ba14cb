import type { QueryableStoreType } from './queryable-store-type';

/**
 * What `KafkaStreams.store()` should return (Kafka Streams' `StoreQueryParameters`): a store
 * name and kind, optionally one partition, optionally stale stores (standbys and restoring
 * tasks) — reads from those may lag the active copy, so callers must accept staleness.
 */
export class StoreQueryParameters<T> {
  private constructor(
    readonly storeName: string,
    readonly queryableStoreType: QueryableStoreType<T>,
    readonly partition: number | undefined,
    readonly staleStoresEnabled: boolean,
  ) {}

  static fromNameAndType<T>(
    storeName: string,
    queryableStoreType: QueryableStoreType<T>,
  ): StoreQueryParameters<T> {
    return new StoreQueryParameters(storeName, queryableStoreType, undefined, false);
  }

  /** Only the given partition's store. */
  withPartition(partition: number): StoreQueryParameters<T> {
    return new StoreQueryParameters(
      this.storeName,
      this.queryableStoreType,
      partition,
      this.staleStoresEnabled,
    );
  }

  /** Also standby and restoring copies (stale reads). */
  enableStaleStores(): StoreQueryParameters<T> {
    return new StoreQueryParameters(this.storeName, this.queryableStoreType, this.partition, true);
  }
}
