import type { Windowed } from '../kstream/windows/windowed';
import type { KeyValue, KeyValueIterator, ReadOnlyKeyValueStore } from '../state/key-value-store';
import type { ValueAndTimestamp } from '../state/value-and-timestamp';
import type { ReadOnlyWindowStore, WindowStoreIterator } from '../state/window-store';
import { queryRead } from './query-read';

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

/**
 * A plain-value view of a timestamped key-value store, as Kafka Streams'
 * `QueryableStoreTypes.keyValueStore()` gives over a timestamped store.
 */
export function unwrapKeyValueStore<K, V>(
  store: ReadOnlyKeyValueStore<K, ValueAndTimestamp<V>>,
): ReadOnlyKeyValueStore<K, V> {
  return {
    name: store.name,
    get: (key) => unwrap(queryRead(store, key)),
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
}

/** A plain-value view of a timestamped window store. */
export function unwrapWindowStore<K, V>(
  store: ReadOnlyWindowStore<K, ValueAndTimestamp<V>>,
): ReadOnlyWindowStore<K, V> {
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
  return {
    name: store.name,
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
}
