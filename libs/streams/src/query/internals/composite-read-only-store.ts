import type { KeyValueIterator } from '../../state/key-value-store';
import {
  readKeyPartition,
  readKeyPartitionAsync,
  type AsyncKeyRead,
  type KeyRead,
} from './key-partition-read';
import { served, type PartitionedStores } from './store-copies';
import { readingStore, readingStoreAsync } from './store-errors';

/** Whether a single-key read found a value. */
const isValue = <V>(value: V | undefined): boolean => value !== undefined;

/** Whether a single-key read found entries. */
const nonEmpty = <T>(entries: readonly T[]): boolean => entries.length > 0;

/**
 * What the composite read-only stores share over this instance's local copies (`S`, one per
 * task) of one store: a single-key read answers from the copy of the key's partition (see
 * {@link readKeyPartition}), the other reads ask every copy, each reported as serving the
 * read, and a copy closed underneath (its task moved) surfaces as `StateStoreMigratedError`.
 * The copies are looked up again on every call.
 */
export abstract class CompositeReadOnlyStore<S> {
  constructor(
    readonly name: string,
    protected readonly storeSet: () => PartitionedStores<S>,
  ) {}

  /** A single-key read, as {@link readKeyPartition} runs it. */
  protected readKey<K, R>(key: K, how: KeyRead<S, R>): R {
    return readingStore(this.name, () => readKeyPartition(this.name, this.storeSet(), key, how));
  }

  /** {@link readKey} for an asynchronous read. */
  protected readKeyAsync<K, R>(key: K, how: AsyncKeyRead<S, R>): Promise<R> {
    return readingStoreAsync(this.name, () =>
      readKeyPartitionAsync(this.name, this.storeSet(), key, how),
    );
  }

  /** A single-key read of one value: found when `read` returns one. */
  protected readValue<K, V>(key: K, read: (store: S) => V | undefined): V | undefined {
    return this.readKey(key, { read, found: isValue });
  }

  /** {@link readValue} for an asynchronous read. */
  protected readValueAsync<K, V>(
    key: K,
    read: (store: S) => Promise<V | undefined>,
  ): Promise<V | undefined> {
    return this.readKeyAsync(key, { read, found: isValue });
  }

  /** A single-key read of entries (sessions, windows): found when `read` returns some. */
  protected readEntries<K, T>(key: K, read: (store: S) => T[]): T[] {
    return this.readKey(key, { read, found: nonEmpty });
  }

  /** {@link readEntries} for an asynchronous read. */
  protected readEntriesAsync<K, T>(key: K, read: (store: S) => Promise<T[]>): Promise<T[]> {
    return this.readKeyAsync(key, { read, found: nonEmpty });
  }

  /** Every local copy's store; each is reported as serving the read. */
  protected stores(): S[] {
    const set = this.storeSet();
    for (const copy of set.stores) served(this.name, set, copy);
    return set.stores.map((c) => c.store);
  }

  /** Every copy's iterator from `open`, one after the other. */
  protected concat<KK, VV>(open: (store: S) => KeyValueIterator<KK, VV>): KeyValueIterator<KK, VV> {
    const iterators = readingStore(this.name, () => this.stores().map(open));
    return concatIterators(this.name, iterators);
  }

  /** Every copy's entries from `read`, asked all at once, one copy's after the other. */
  protected gatherAsync<T>(read: (store: S) => Promise<T[]>): Promise<T[]> {
    return readingStoreAsync(this.name, async () =>
      (await Promise.all(this.stores().map(read))).flat(),
    );
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
