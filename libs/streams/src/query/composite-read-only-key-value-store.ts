import type { KeyValue, KeyValueIterator, ReadOnlyKeyValueStore } from '../state/key-value-store';
import { queryRead } from './query-read';
import { readingStore, readingStoreAsync } from './store-errors';

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
    private readonly stores: () => readonly ReadOnlyKeyValueStore<K, V>[],
  ) {}

  get(key: K): V | undefined {
    return readingStore(this.name, () => {
      for (const store of this.stores()) {
        const value = queryRead(store, key);
        if (value !== undefined) return value;
      }
      return undefined;
    });
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

  async getAsync(key: K): Promise<V | undefined> {
    return readingStoreAsync(this.name, async () => {
      for (const store of this.stores()) {
        const value = await store.getAsync(key);
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
