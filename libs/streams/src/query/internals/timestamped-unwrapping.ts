import type { Windowed } from '../../windowing/windowed';
import type {
  KeyValue,
  KeyValueIterator,
  ReadOnlyKeyValueStore,
} from '../../state/key-value-store';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp';
import type { ReadOnlyWindowStore, WindowStoreIterator } from '../../state/window-store';
import { queryRead, readsSynchronously, storedKeyBytes } from './query-read';

/** Whether a store keeps `ValueAndTimestamp` values (the DSL's stores do). */
export function isTimestamped(store: unknown): boolean {
  return (store as { timestampedValues?: boolean }).timestampedValues === true;
}

const unwrap = <V>(v: ValueAndTimestamp<V> | undefined): V | undefined =>
  v === undefined ? undefined : v.value;
const unwrapAll = <K, V>(entries: KeyValue<K, ValueAndTimestamp<V>>[]): KeyValue<K, V>[] =>
  entries.map(({ key, value }) => ({ key, value: value.value }));

function unwrapIterator<K, V>(
  it: KeyValueIterator<K, ValueAndTimestamp<V>>,
): KeyValueIterator<K, V> {
  const result: KeyValueIterator<K, V> = {
    next: () => {
      const n = it.next();
      return n.done ? n : { done: false, value: { key: n.value.key, value: n.value.value.value } };
    },
    peekNextKey: () => it.peekNextKey(),
    close: () => it.close(),
    [Symbol.iterator]: () => result,
  };
  return result;
}

/** Plain-value views already made, per store: a query must not rebuild them on every read. */
const keyValueViews = new WeakMap<object, ReadOnlyKeyValueStore<unknown, unknown>>();
const windowViews = new WeakMap<object, ReadOnlyWindowStore<unknown, unknown>>();

/**
 * A plain-value view of a timestamped key-value store, as Kafka Streams'
 * `QueryableStoreTypes.keyValueStore()` gives over a timestamped store. One view per store
 * (made once, kept while the store lives). The view keeps the store's query reads: a `get`
 * that never caches, `syncReads` and `keyBytes`.
 */
export function unwrapKeyValueStore<K, V>(
  store: ReadOnlyKeyValueStore<K, ValueAndTimestamp<V>>,
): ReadOnlyKeyValueStore<K, V> {
  const known = keyValueViews.get(store);
  if (known) return known as ReadOnlyKeyValueStore<K, V>;
  const view: ReadOnlyKeyValueStore<K, V> & {
    readonly syncReads: boolean;
    keyBytes(key: K): Buffer | undefined;
  } = {
    name: store.name,
    get: (key) => unwrap(queryRead(store, key)),
    get syncReads() {
      return readsSynchronously(store);
    },
    keyBytes: (key) => storedKeyBytes(store, key),
    range: (from, to) => unwrapIterator(store.range(from, to)),
    reverseRange: (from, to) => unwrapIterator(store.reverseRange(from, to)),
    prefixScan: (prefix, serializer) => unwrapIterator(store.prefixScan(prefix, serializer)),
    all: () => unwrapIterator(store.all()),
    reverseAll: () => unwrapIterator(store.reverseAll()),
    approximateNumEntries: () => store.approximateNumEntries(),
    getAsync: async (key) => unwrap(await store.getAsync(key)),
    rangeAsync: async (from, to, reverse) => unwrapAll(await store.rangeAsync(from, to, reverse)),
    allAsync: async (reverse) => unwrapAll(await store.allAsync(reverse)),
  };
  keyValueViews.set(store, view as ReadOnlyKeyValueStore<unknown, unknown>);
  return view;
}

/** A plain-value view of a timestamped window store (one per store, made once). */
export function unwrapWindowStore<K, V>(
  store: ReadOnlyWindowStore<K, ValueAndTimestamp<V>>,
): ReadOnlyWindowStore<K, V> {
  const known = windowViews.get(store);
  if (known) return known as ReadOnlyWindowStore<K, V>;
  function fetch(key: K, windowStart: number): V | undefined;
  function fetch(key: K, timeFrom: number, timeTo: number): WindowStoreIterator<V>;
  function fetch(
    key: K,
    timeFrom: number,
    timeTo?: number,
  ): V | undefined | WindowStoreIterator<V> {
    return timeTo === undefined
      ? unwrap(store.fetch(key, timeFrom))
      : unwrapIterator(store.fetch(key, timeFrom, timeTo));
  }
  const view: ReadOnlyWindowStore<K, V> & { keyBytes(key: K): Buffer | undefined } = {
    name: store.name,
    keyBytes: (key) => storedKeyBytes(store, key),
    fetch,
    backwardFetch: (key, from, to) => unwrapIterator(store.backwardFetch(key, from, to)),
    fetchRange: (kf, kt, from, to) =>
      unwrapIterator<Windowed<K>, V>(store.fetchRange(kf, kt, from, to)),
    fetchAll: (from, to) => unwrapIterator<Windowed<K>, V>(store.fetchAll(from, to)),
    all: () => unwrapIterator<Windowed<K>, V>(store.all()),
    backwardAll: () => unwrapIterator<Windowed<K>, V>(store.backwardAll()),
    fetchAsync: async (key, start) => unwrap(await store.fetchAsync(key, start)),
    fetchWindowsAsync: async (key, from, to, backward) =>
      unwrapAll(await store.fetchWindowsAsync(key, from, to, backward)),
    fetchRangeAsync: async (kf, kt, from, to, backward) =>
      unwrapAll(await store.fetchRangeAsync(kf, kt, from, to, backward)),
  };
  windowViews.set(store, view as ReadOnlyWindowStore<unknown, unknown>);
  return view;
}
