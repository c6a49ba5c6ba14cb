import { unwrapKeyValueStore } from '@nest-streams/streams/internals';
import type {
  KeyValue,
  KeyValueIterator,
  KeyValueStore,
  ReadOnlyKeyValueStore,
  TimestampedKeyValueStore,
} from '@nest-streams/streams';

/**
 * A timestamped key-value store seen with plain values, as Kafka Streams' driver's
 * `getKeyValueStore` shows a DSL store: reads drop the timestamps, writes stamp the value
 * with `now()` (the driver's wall clock).
 */
export class PlainValueKeyValueStore<K, V> implements KeyValueStore<K, V> {
  private readonly view: ReadOnlyKeyValueStore<K, V>;

  constructor(
    private readonly inner: TimestampedKeyValueStore<K, V>,
    private readonly now: () => number,
  ) {
    this.view = unwrapKeyValueStore<K, V>(inner);
  }

  get name(): string {
    return this.inner.name;
  }

  get(key: K): V | undefined {
    return this.view.get(key);
  }

  range(from?: K, to?: K): KeyValueIterator<K, V> {
    return this.view.range(from, to);
  }

  reverseRange(from?: K, to?: K): KeyValueIterator<K, V> {
    return this.view.reverseRange(from, to);
  }

  prefixScan<P>(prefix: P, serializer: { serialize(value: P): Buffer }): KeyValueIterator<K, V> {
    return this.view.prefixScan(prefix, serializer);
  }

  all(): KeyValueIterator<K, V> {
    return this.view.all();
  }

  reverseAll(): KeyValueIterator<K, V> {
    return this.view.reverseAll();
  }

  approximateNumEntries(): number {
    return this.view.approximateNumEntries();
  }

  getAsync(key: K): Promise<V | undefined> {
    return this.view.getAsync(key);
  }

  rangeAsync(from?: K, to?: K, reverse?: boolean): Promise<KeyValue<K, V>[]> {
    return this.view.rangeAsync(from, to, reverse);
  }

  allAsync(reverse?: boolean): Promise<KeyValue<K, V>[]> {
    return this.view.allAsync(reverse);
  }

  put(key: K, value: V | null): void {
    this.inner.put(key, value === null ? null : { value, timestamp: this.now() });
  }

  putAll(entries: readonly KeyValue<K, V | null>[]): void {
    for (const { key, value } of entries) this.put(key, value);
  }

  putIfAbsent(key: K, value: V): V | undefined {
    return this.inner.putIfAbsent(key, { value, timestamp: this.now() })?.value;
  }

  delete(key: K): V | undefined {
    return this.inner.delete(key)?.value;
  }

  prefetch(keys: readonly K[]): Promise<void> {
    return this.inner.prefetch(keys);
  }
}
