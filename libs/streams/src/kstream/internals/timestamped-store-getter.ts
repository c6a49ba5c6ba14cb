import type { ProcessorContext } from '../../processor/processor-context';
import type { TimestampedKeyValueStore } from '../../state/value-and-timestamp';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp';
import type { KTableValueGetter, KTableValueGetterSupplier } from './ktable-value-getter';

/** Reads a materialized KTable's rows from its timestamped key-value store. */
export class TimestampedStoreGetter<K, V> implements KTableValueGetter<K, V> {
  private store!: TimestampedKeyValueStore<K, V>;

  constructor(private readonly storeName: string) {}

  init(context: ProcessorContext<unknown, unknown>): void {
    this.store = context.getStateStore<TimestampedKeyValueStore<K, V>>(this.storeName);
  }

  get(key: K): ValueAndTimestamp<V> | undefined {
    return this.store.get(key);
  }

  prefetch(keys: readonly K[]): Promise<void> {
    return this.store.prefetch(keys);
  }
}

/** Supplies {@link TimestampedStoreGetter}s of one store. */
export function storeGetterSupplier<K, V>(storeName: string): KTableValueGetterSupplier<K, V> {
  return {
    get: () => new TimestampedStoreGetter<K, V>(storeName),
    storeNames: () => [storeName],
  };
}
