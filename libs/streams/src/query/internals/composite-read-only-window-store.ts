import type { Windowed } from '../../windowing/windowed';
import type { KeyValue, KeyValueIterator } from '../../state/key-value-store';
import type { ReadOnlyWindowStore, WindowStoreIterator } from '../../state/window-store';
import { CompositeReadOnlyStore } from './composite-read-only-store';

const hasNext = <T>(it: { peekNextKey(): T | undefined }): boolean =>
  it.peekNextKey() !== undefined;

/**
 * One read-only window store over this instance's local copies of one store (Kafka Streams'
 * `CompositeReadOnlyWindowStore`). A key lives in one partition: single-key fetches read the
 * copy of the key's partition (no windows is an answer only that copy gives; see
 * `readKeyPartition`); range and full fetches return each copy's windows in turn. Errors as
 * {@link CompositeReadOnlyKeyValueStore}.
 */
export class CompositeReadOnlyWindowStore<K, V>
  extends CompositeReadOnlyStore<ReadOnlyWindowStore<K, V>>
  implements ReadOnlyWindowStore<K, V>
{
  fetch(key: K, windowStart: number): V | undefined;
  fetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>;
  fetch(key: K, timeFrom: number, timeTo?: number): V | undefined | WindowStoreIterator<V> {
    if (timeTo === undefined) {
      return this.readValue(key, (store) => store.fetch(key, timeFrom));
    }
    return this.keyIterator(key, (s) => s.fetch(key, timeFrom, timeTo));
  }

  backwardFetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V> {
    return this.keyIterator(key, (s) => s.backwardFetch(key, timeFrom, timeTo));
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
    return this.readValueAsync(key, (store) => store.fetchAsync(key, windowStart));
  }

  fetchWindowsAsync(
    key: K,
    timeFrom: number,
    timeTo: number,
    backward?: boolean,
  ): Promise<KeyValue<number, V>[]> {
    return this.readEntriesAsync(key, (store) =>
      store.fetchWindowsAsync(key, timeFrom, timeTo, backward),
    );
  }

  fetchRangeAsync(
    keyFrom: K | undefined,
    keyTo: K | undefined,
    timeFrom: number,
    timeTo: number,
    backward?: boolean,
  ): Promise<KeyValue<Windowed<K>, V>[]> {
    return this.gatherAsync((s) => s.fetchRangeAsync(keyFrom, keyTo, timeFrom, timeTo, backward));
  }

  private keyIterator(
    key: K,
    open: (store: ReadOnlyWindowStore<K, V>) => WindowStoreIterator<V>,
  ): WindowStoreIterator<V> {
    return this.readKey(key, {
      read: open,
      found: hasNext,
      discard: (it) => it.close(),
    });
  }
}
