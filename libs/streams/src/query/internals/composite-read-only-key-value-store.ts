import type {
  KeyValue,
  KeyValueIterator,
  ReadOnlyKeyValueStore,
} from '../../state/key-value-store';
import { queryRead, readsSynchronously } from './query-read';
import { readingStore } from './store-errors';
import { CompositeReadOnlyStore } from './composite-read-only-store';

/**
 * One read-only key-value store over this instance's local copies of one store (one per task),
 * as Kafka Streams' `CompositeReadOnlyKeyValueStore`, with one difference that matters: a key
 * read answers "not found" only when the copy of the key's own partition said so (see
 * {@link readKeyPartition}); when that partition has no queryable copy here it throws a
 * retriable error instead of asking the other partitions and answering `undefined`. Range and
 * full scans return each copy's entries in turn (sorted within a partition, not across
 * partitions — sort the result when you need a global order).
 *
 * The local copies are looked up again on every call, so a view kept across rebalances keeps
 * working; a store that moved away throws `StateStoreMigratedError`, and no store being
 * available throws `StateStoreNotAvailableError` (both retriable).
 */
export class CompositeReadOnlyKeyValueStore<K, V>
  extends CompositeReadOnlyStore<ReadOnlyKeyValueStore<K, V>>
  implements ReadOnlyKeyValueStore<K, V>
{
  /**
   * The value of `key`: from the copy of its partition (murmur2 of the store's key bytes, as
   * `queryMetadataForKey`), so a hit usually costs one read; the other copies are asked when it
   * lacks the key, so keys placed by another partitioner are still found.
   *
   * @throws StateStoreMigratedError when the key's partition has no queryable copy here and no
   *   other copy has the key (retry on its owner).
   */
  get(key: K): V | undefined {
    return this.readValue(key, (store) => queryRead(store, key));
  }

  range(from?: K, to?: K): KeyValueIterator<K, V> {
    return this.concat((s) => s.range(from, to));
  }

  reverseRange(from?: K, to?: K): KeyValueIterator<K, V> {
    return this.concat((s) => s.reverseRange(from, to));
  }

  prefixScan<P>(
    prefix: P,
    prefixSerializer: { serialize(value: P): Buffer },
  ): KeyValueIterator<K, V> {
    return this.concat((s) => s.prefixScan(prefix, prefixSerializer));
  }

  all(): KeyValueIterator<K, V> {
    return this.concat((s) => s.all());
  }

  reverseAll(): KeyValueIterator<K, V> {
    return this.concat((s) => s.reverseAll());
  }

  approximateNumEntries(): number {
    return readingStore(this.name, () =>
      this.stores().reduce((n, s) => n + s.approximateNumEntries(), 0),
    );
  }

  /**
   * {@link get} for any engine. A store whose engine reads synchronously answers through its
   * synchronous query read (no round trip to the engine's thread pool); the others through
   * their asynchronous read. Throws as {@link get}.
   */
  async getAsync(key: K): Promise<V | undefined> {
    return this.readValueAsync(key, async (store) =>
      readsSynchronously(store) ? queryRead(store, key) : store.getAsync(key),
    );
  }

  async rangeAsync(from?: K, to?: K, reverse?: boolean): Promise<KeyValue<K, V>[]> {
    return this.gatherAsync((s) => s.rangeAsync(from, to, reverse));
  }

  async allAsync(reverse?: boolean): Promise<KeyValue<K, V>[]> {
    return this.gatherAsync((s) => s.allAsync(reverse));
  }
}
