import type { QueryableStoreType } from './queryable-store-type';
import type { ServedListener } from './served-copy';

/**
 * What `KafkaStreams.store()` should return (Kafka Streams' `StoreQueryParameters`): a store
 * name and kind, optionally one partition, optionally stale stores (standby copies) — reads
 * from those may lag the active copy, so callers must accept staleness —, optionally a
 * listener told which copy answered each read and how far behind it was.
 */
export class StoreQueryParameters<T> {
  private constructor(
    readonly storeName: string,
    readonly queryableStoreType: QueryableStoreType<T>,
    readonly partition: number | undefined,
    readonly staleStoresEnabled: boolean,
    readonly servedListener?: ServedListener,
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
      this.servedListener,
    );
  }

  /**
   * Also standby copies (stale reads). A standby answers with what it has applied; the
   * {@link withServedListener} listener learns how many records it was behind.
   */
  enableStaleStores(): StoreQueryParameters<T> {
    return new StoreQueryParameters(
      this.storeName,
      this.queryableStoreType,
      this.partition,
      true,
      this.servedListener,
    );
  }

  /**
   * Tells `listener` which local copy answered each read of the returned view: its partition,
   * whether it is the active copy, and its lag (what to report to a caller of a stale read,
   * e.g. as `X-Stale`/`X-Lag`). The listener must not throw.
   */
  withServedListener(listener: ServedListener): StoreQueryParameters<T> {
    return new StoreQueryParameters(
      this.storeName,
      this.queryableStoreType,
      this.partition,
      this.staleStoresEnabled,
      listener,
    );
  }
}
