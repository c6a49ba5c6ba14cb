import type {
  KeyValue,
  KeyValueIterator,
  ReadOnlyKeyValueStore,
} from '../../state/key-value-store';
import { readKeyPartition, readKeyPartitionAsync } from './key-partition-read';
import { queryRead, readsSynchronously } from './query-read';
import { served, type PartitionedStores } from './store-copies';
import { readingStore, readingStoreAsync } from './store-errors';

const isValue = <V>(value: V | undefined): boolean => value !== undefined;

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
export class CompositeReadOnlyKeyValueStore<K, V> implements ReadOnlyKeyValueStore<K, V> {
  constructor(
    readonly name: string,
    private readonly storeSet: () => PartitionedStores<ReadOnlyKeyValueStore<K, V>>,
  ) {}

  /**
   * The value of `key`: from the copy of its partition (murmur2 of the store's key bytes, as
   * `queryMetadataForKey`), so a hit usually costs one read; the other copies are asked when it
   * lacks the key, so keys placed by another partitioner are still found.
   *
   * @throws StateStoreMigratedError when the key's partition has no queryable copy here and no
   *   other copy has the key (retry on its owner).
   */
  get(key: K): V | undefined {
    return readingStore(this.name, () =>
      readKeyPartition(this.name, this.storeSet(), key, {
        read: (store) => queryRead(store, key),
        found: isValue,
      }),
    );
  }

  /** Every local copy's store; each is reported as serving the read. */
  private stores(): ReadOnlyKeyValueStore<K, V>[] {
    const set = this.storeSet();
    for (const copy of set.stores) served(this.name, set, copy);
    return set.stores.map((s) => s.store);
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
    return readingStoreAsync(this.name, () =>
      readKeyPartitionAsync(this.name, this.storeSet(), key, {
        read: async (store) =>
          readsSynchronously(store) ? queryRead(store, key) : store.getAsync(key),
        found: isValue,
      }),
    );
  }

  async rangeAsync(from?: K, to?: K, reverse?: boolean): Promise<KeyValue<K, V>[]> {
    return readingStoreAsync(this.name, async () => {
      const parts = await Promise.all(this.stores().map((s) => s.rangeAsync(from, to, reverse)));
      return parts.flat();
    });
  }

  async allAsync(reverse?: boolean): Promise<KeyValue<K, V>[]> {
    return readingStoreAsync(this.name, async () => {
      const parts = await Promise.all(this.stores().map((s) => s.allAsync(reverse)));
      return parts.flat();
    });
  }

  private concat(
    open: (store: ReadOnlyKeyValueStore<K, V>) => KeyValueIterator<K, V>,
  ): KeyValueIterator<K, V> {
    const iterators = readingStore(this.name, () => this.stores().map(open));
    return concatIterators(this.name, iterators);
  }
}

/** Chains iterators; closing the result closes every one. */
export function concatIterators<K, V>(
  name: string,
  iterators: KeyValueIterator<K, V>[],
): KeyValueIterator<K, V> {
  let index = 0;
  const advance = (): void => {
    while (index < iterators.length && iterators[index].peekNextKey() === undefined) {
      iterators[index].close();
      index++;
    }
  };
  const result: KeyValueIterator<K, V> = {
    next: () =>
      readingStore(name, () => {
        advance();
        if (index >= iterators.length) return { done: true, value: undefined };
        return iterators[index].next();
      }),
    peekNextKey: () =>
      readingStore(name, () => {
        advance();
        return index < iterators.length ? iterators[index].peekNextKey() : undefined;
      }),
    close: () => {
      for (const it of iterators) it.close();
      index = iterators.length;
    },
    [Symbol.iterator]() {
      return result;
    },
  };
  return result;
}
