import type { Windowed } from '../../windowing/windowed';
import type { KeyValue, KeyValueIterator } from '../../state/key-value-store';
import type { ReadOnlyWindowStore, WindowStoreIterator } from '../../state/window-store';
import { concatIterators } from './composite-read-only-key-value-store';
import { readingStore, readingStoreAsync } from './store-errors';

/**
 * One read-only window store over this instance's local stores of one name (Kafka Streams'
 * `CompositeReadOnlyWindowStore`). A key lives in one partition, so single-key fetches return
 * the first store that has windows for it; range and full fetches return each store's windows
 * in turn. Errors as {@link CompositeReadOnlyKeyValueStore}.
 */
export class CompositeReadOnlyWindowStore<K, V> implements ReadOnlyWindowStore<K, V> {
  constructor(
    readonly name: string,
    private readonly stores: () => readonly ReadOnlyWindowStore<K, V>[],
  ) {}

  fetch(key: K, windowStart: number): V | undefined;
  fetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>;
  fetch(key: K, timeFrom: number, timeTo?: number): V | undefined | WindowStoreIterator<V> {
    if (timeTo === undefined) {
      return readingStore(this.name, () => {
        for (const store of this.stores()) {
          const value = store.fetch(key, timeFrom);
          if (value !== undefined) return value;
        }
        return undefined;
      });
    }
    return this.firstNonEmpty((s) => s.fetch(key, timeFrom, timeTo));
  }

  backwardFetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V> {
    return this.firstNonEmpty((s) => s.backwardFetch(key, timeFrom, timeTo));
  }

  fetchRange(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    timeFrom: number,
    timeTo: number,
  ): KeyValueIterator<Windowed<K>, V> {
    return this.concat((s) => s.fetchRange(keyFrom, keyTo, timeFrom, timeTo));
  }

  fetchAll(timeFrom: number, timeTo: number): KeyValueIterator<Windowed<K>, V> {
    return this.concat((s) => s.fetchAll(timeFrom, timeTo));
  }

  all(): KeyValueIterator<Windowed<K>, V> {
    return this.concat((s) => s.all());
  }

  backwardAll(): KeyValueIterator<Windowed<K>, V> {
    return this.concat((s) => s.backwardAll());
  }

  fetchAsync(key: K, windowStart: number): Promise<V | undefined> {
    return readingStoreAsync(this.name, async () => {
      for (const store of this.stores()) {
        const value = await store.fetchAsync(key, windowStart);
        if (value !== undefined) return value;
      }
      return undefined;
    });
  }

  fetchWindowsAsync(
    key: K,
    timeFrom: number,
    timeTo: number,
    backward?: boolean,
  ): Promise<KeyValue<number, V>[]> {
    return readingStoreAsync(this.name, async () => {
      for (const store of this.stores()) {
        const windows = await store.fetchWindowsAsync(key, timeFrom, timeTo, backward);
        if (windows.length > 0) return windows;
      }
      return [];
    });
  }

  fetchRangeAsync(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    timeFrom: number,
    timeTo: number,
    backward?: boolean,
  ): Promise<KeyValue<Windowed<K>, V>[]> {
    return readingStoreAsync(this.name, async () => {
      const parts = await Promise.all(
        this.stores().map((s) => s.fetchRangeAsync(keyFrom, keyTo, timeFrom, timeTo, backward)),
      );
      return parts.flat();
    });
  }

  private firstNonEmpty(
    open: (store: ReadOnlyWindowStore<K, V>) => WindowStoreIterator<V>,
  ): WindowStoreIterator<V> {
    return readingStore(this.name, () => {
      const stores = this.stores();
      for (let i = 0; i < stores.length; i++) {
        const it = open(stores[i]);
        if (it.peekNextKey() !== undefined || i === stores.length - 1) return it;
        it.close();
      }
      return concatIterators<number, V>(this.name, []);
    });
  }

  private concat<KK>(
    open: (store: ReadOnlyWindowStore<K, V>) => KeyValueIterator<KK, V>,
  ): KeyValueIterator<KK, V> {
    const iterators = readingStore(this.name, () => this.stores().map(open));
    return concatIterators(this.name, iterators);
  }
}
