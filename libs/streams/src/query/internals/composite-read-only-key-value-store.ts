import type {
  KeyValue,
  KeyValueIterator,
  ReadOnlyKeyValueStore,
} from '../../state/key-value-store';
import { murmur2, toPositive } from '../../cluster/internals/murmur2';
import { queryRead, readsSynchronously, storedKeyBytes } from './query-read';
import { readingStore, readingStoreAsync } from './store-errors';

/** Local stores of one name with their partitions (in partition order). */
export interface PartitionedStores<S> {
  /** Partitions of the store's sub-topology, when known. */
  readonly partitionCount: number | undefined;
  readonly stores: readonly { readonly partition: number; readonly store: S }[];
}

/**
 * Index in `stores` of the store of `key`'s partition under the default partitioner, or -1
 * when it cannot be told (one store, unknown partition count, a store that does not give its
 * key bytes) or is not local.
 */
function likelyIndex<K>(
  stores: PartitionedStores<unknown>['stores'],
  partitionCount: number | undefined,
  key: K,
): number {
  if (stores.length < 2 || partitionCount === undefined) return -1;
  const bytes = storedKeyBytes(stores[0].store, key);
  if (bytes === undefined) return -1;
  const partition = toPositive(murmur2(bytes)) % partitionCount;
  return stores.findIndex((s) => s.partition === partition);
}

/**
 * One read-only key-value store over this instance's local stores of one name (one per task),
 * as Kafka Streams' `CompositeReadOnlyKeyValueStore`: `get` asks each local store until one
 * has the key; range and full scans return each store's entries in turn (sorted within a
 * partition, not across partitions — sort the result when you need a global order).
 *
 * The local stores are looked up again on every call, so a facade kept across rebalances
 * keeps working; a store that moved away throws `StateStoreMigratedError`, and no store being
 * available throws `StateStoreNotAvailableError` (both retriable).
 */
export class CompositeReadOnlyKeyValueStore<K, V> implements ReadOnlyKeyValueStore<K, V> {
  constructor(
    readonly name: string,
    private readonly storeSet: () => PartitionedStores<ReadOnlyKeyValueStore<K, V>>,
  ) {}

  /**
   * The value of `key` in the first local store that has it. The store of the key's partition
   * under the default partitioner (murmur2 of the store's key bytes) is asked first, so a hit
   * usually costs one read; the others follow in partition order, so keys placed by another
   * partitioner are still found.
   */
  get(key: K): V | undefined {
    return readingStore(this.name, () => {
      const { stores, partitionCount } = this.storeSet();
      const first = likelyIndex(stores, partitionCount, key);
      if (first >= 0) {
        const value = queryRead(stores[first].store, key);
        if (value !== undefined) return value;
      }
      for (let i = 0; i < stores.length; i++) {
        if (i === first) continue;
        const value = queryRead(stores[i].store, key);
        if (value !== undefined) return value;
      }
      return undefined;
    });
  }

  private stores(): ReadOnlyKeyValueStore<K, V>[] {
    return this.storeSet().stores.map((s) => s.store);
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
   * {@link get} for any engine; the key's partition is asked first. A store whose engine reads
   * synchronously answers through its synchronous query read (no round trip to the engine's
   * thread pool); the others through their asynchronous read.
   */
  async getAsync(key: K): Promise<V | undefined> {
    return readingStoreAsync(this.name, async () => {
      const { stores, partitionCount } = this.storeSet();
      const read = (store: ReadOnlyKeyValueStore<K, V>) =>
        readsSynchronously(store) ? queryRead(store, key) : store.getAsync(key);
      const first = likelyIndex(stores, partitionCount, key);
      if (first >= 0) {
        const value = await read(stores[first].store);
        if (value !== undefined) return value;
      }
      for (let i = 0; i < stores.length; i++) {
        if (i === first) continue;
        const value = await read(stores[i].store);
        if (value !== undefined) return value;
      }
      return undefined;
    });
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
