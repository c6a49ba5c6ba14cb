import type { KeyValue, KeyValueIterator, KeyValueStore } from '../../key-value-store';
import type { BytesWrite, KeyValueBytes } from '../../bytes-store';
import { MappingKeyValueIterator } from './mapping-key-value-iterator';
import { MeteredStore } from './metered-store';
import { PrefetchingBytesStore } from '../layers/prefetching-bytes-store';
import { NOT_SAMPLED, OP } from './store-metrics';
import type { StoreRange } from '../layers/store-layer';

export type { TypedCacheFlushListener } from './metered-store';

/**
 * The key-value facade of the metered layer: typed reads and writes over the stack, whose
 * store keys are the serialized keys (see {@link MeteredStore} for the rest).
 */
export class MeteredKeyValueStore<K, V>
  extends MeteredStore<K, V, K>
  implements KeyValueStore<K, V>
{
  protected flushKeyOf(storeKey: Buffer): K {
    return this.keySerde.deserialize(storeKey, this.topic);
  }

  get(key: K): V | undefined {
    const stack = this.open();
    const mark = this.metrics.start(OP.get);
    const value = this.value(stack.get(this.keyBytes(key)));
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.get, mark);
    return value;
  }

  /**
   * `get` for interactive queries: the same answer, but a read miss is never put in the record
   * cache (so a query can never evict, flush or forward anything). The query layer uses it.
   */
  queryGet(key: K): V | undefined {
    this.open();
    const caching = this.cachingLayer;
    if (caching === undefined) return this.get(key);
    const mark = this.metrics.start(OP.get);
    const value = this.value(caching.getWithoutCaching(this.keyBytes(key)));
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.get, mark);
    return value;
  }

  /**
   * Engine-internal, for the DSL's aggregations (read, fold, write back at once): `get` that
   * may return the very object the last {@link putUpdated} of the key wrote, kept by the record
   * cache, instead of deserializing its bytes again (Kafka Streams' cache keeps bytes only).
   * The caller writes the key back with `putUpdated`, `put` or `delete` before anything else
   * reads it, or calls {@link forgetUpdate} when it could not (it may have mutated the object).
   * Without a caching layer it is `get`. Errors are those of `get`.
   */
  getForUpdate(key: K): V | undefined {
    const caching = this.cachingLayer;
    if (caching === undefined) return this.get(key);
    this.open();
    const mark = this.metrics.start(OP.get);
    const value = caching.getForUpdate(this.keyBytes(key), this.decode);
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.get, mark);
    return value;
  }

  /**
   * `put` whose value the record cache keeps as an object for the next {@link getForUpdate}
   * (its bytes are written as by `put`); the caller must not mutate `value` afterwards.
   * Without a caching layer it is `put`. Errors are those of `put`.
   */
  putUpdated(key: K, value: V | null): void {
    const caching = this.cachingLayer;
    if (caching === undefined) return this.put(key, value);
    this.open();
    const mark = this.metrics.start(OP.put);
    caching.putUpdated(this.keyBytes(key), this.valueBytes(value), value);
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.put, mark);
  }

  /** Drops the object kept for `key` by {@link getForUpdate} (an update of it failed). */
  forgetUpdate(key: K): void {
    this.cachingLayer?.forgetObject(this.keyBytes(key));
  }

  async getAsync(key: K): Promise<V | undefined> {
    const stack = this.open();
    const mark = this.metrics.start(OP.get);
    const bytes = await stack.getAsync(this.keyBytes(key));
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.get, mark);
    return this.value(bytes);
  }

  put(key: K, value: V | null): void {
    const stack = this.open();
    const mark = this.metrics.start(OP.put);
    stack.put(this.keyBytes(key), this.valueBytes(value));
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.put, mark);
  }

  putAll(entries: readonly KeyValue<K, V | null>[]): void {
    const stack = this.open();
    const mark = this.metrics.start(OP.putAll);
    const writes = new Array<BytesWrite>(entries.length);
    for (let i = 0; i < entries.length; i++) {
      const { key, value } = entries[i];
      writes[i] = { key: this.keyBytes(key), value: this.valueBytes(value) };
    }
    stack.putAll(writes);
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.putAll, mark);
  }

  putIfAbsent(key: K, value: V): V | undefined {
    const stack = this.open();
    const mark = this.metrics.start(OP.putIfAbsent);
    const existing = stack.putIfAbsent(
      this.keyBytes(key),
      this.valueSerde.serialize(value, this.topic),
    );
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.putIfAbsent, mark);
    return this.value(existing);
  }

  delete(key: K): V | undefined {
    const stack = this.open();
    const mark = this.metrics.start(OP.delete);
    const old = stack.delete(this.keyBytes(key));
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.delete, mark);
    return this.value(old);
  }

  async prefetch(keys: readonly K[]): Promise<void> {
    const stack = this.open();
    const prefetcher =
      stack instanceof PrefetchingBytesStore ? stack : (this.cachingLayer ?? undefined);
    if (prefetcher === undefined || keys.length === 0) return;
    const mark = this.metrics.start(OP.prefetch);
    await prefetcher.prefetch(keys.map((key) => this.keyBytes(key)));
    if (mark !== NOT_SAMPLED) this.metrics.end(OP.prefetch, mark);
  }

  range(from?: K, to?: K): KeyValueIterator<K, V> {
    return this.read(OP.range, { lower: this.bound(from), upper: this.bound(to) });
  }

  reverseRange(from?: K, to?: K): KeyValueIterator<K, V> {
    return this.read(OP.range, { lower: this.bound(from), upper: this.bound(to), backward: true });
  }

  prefixScan<P>(
    prefix: P,
    prefixSerializer: { serialize(value: P): Buffer },
  ): KeyValueIterator<K, V> {
    return this.read(OP.prefixScan, { prefix: prefixSerializer.serialize(prefix) });
  }

  all(): KeyValueIterator<K, V> {
    return this.read(OP.all, {});
  }

  reverseAll(): KeyValueIterator<K, V> {
    return this.read(OP.all, { backward: true });
  }

  async rangeAsync(from?: K, to?: K, reverse = false): Promise<KeyValue<K, V>[]> {
    const stack = this.open();
    this.metrics.add(OP.range, 1);
    const range = { lower: this.bound(from), upper: this.bound(to), backward: reverse };
    return (await stack.readAsync(range)).map((e) => this.entry(e));
  }

  async allAsync(reverse = false): Promise<KeyValue<K, V>[]> {
    const stack = this.open();
    this.metrics.add(OP.all, 1);
    return (await stack.readAsync({ backward: reverse })).map((e) => this.entry(e));
  }

  private read(op: number, range: StoreRange): KeyValueIterator<K, V> {
    const stack = this.open();
    this.metrics.add(op, 1);
    return new MappingKeyValueIterator(
      stack.read(range),
      (e: KeyValueBytes) => this.keySerde.deserialize(e.key, this.topic),
      (e: KeyValueBytes) => this.valueSerde.deserialize(e.value, this.topic),
    );
  }

  private entry(e: KeyValueBytes): KeyValue<K, V> {
    return {
      key: this.keySerde.deserialize(e.key, this.topic),
      value: this.valueSerde.deserialize(e.value, this.topic),
    };
  }

  private bound(key: K | undefined): Buffer | undefined {
    return key === undefined ? undefined : this.keyBytes(key);
  }

  private valueBytes(value: V | null): Buffer | null {
    return value === null ? null : this.valueSerde.serialize(value, this.topic);
  }
}
