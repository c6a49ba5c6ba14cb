import type { ProcessorContext } from '../../../processor/processor-context';
import type { Record } from '../../../processor/record';
import type {
  TimestampedKeyValueStore,
  ValueAndTimestamp,
} from '../../../state/value-and-timestamp';
import { change, type Change } from '../change';
import { TupleForwarder } from '../tuple-forwarder';

/**
 * Where a KTable operator that may be materialized (filter, mapValues, join result) sends
 * its result: unmaterialized, straight downstream; materialized, into its store first, with
 * emission per record (caching off) or on cache flush (caching on).
 */
export class MaterializedTableOutput<K, V> {
  private readonly store: TimestampedKeyValueStore<K, V> | undefined;
  private readonly forwarder: TupleForwarder<K, ValueAndTimestamp<V>, K, V> | undefined;

  constructor(
    private readonly context: ProcessorContext<K, Change<V>>,
    storeName: string | undefined,
    private readonly sendOldValues: boolean,
  ) {
    if (storeName === undefined) return;
    this.store = context.getStateStore<TimestampedKeyValueStore<K, V>>(storeName);
    this.forwarder = TupleForwarder.ofTimestampedValues(this.store, context, sendOldValues);
  }

  /** Whether the result is materialized (in a store of its own). */
  get materialized(): boolean {
    return this.store !== undefined;
  }

  /** The stored result for `key` (materialized only; `null` when absent). */
  current(key: K): V | null {
    return this.store?.get(key)?.value ?? null;
  }

  /** Loads the stored results of `keys` for synchronous {@link current} reads. */
  async prefetch(keys: readonly K[]): Promise<void> {
    await this.store?.prefetch(keys);
  }

  /** Emits the update `(newValue, oldValue)` of `record`'s key at `record`'s timestamp. */
  emit(record: Record<K, unknown>, newValue: V | null, oldValue: V | null): void {
    const update = record.withValue(change(newValue, this.sendOldValues ? oldValue : null));
    if (this.store === undefined || this.forwarder === undefined) {
      this.context.forward(update);
      return;
    }
    this.store.put(
      record.key,
      newValue === null ? null : { value: newValue, timestamp: record.timestamp },
    );
    this.forwarder.maybeForward(update);
  }
}
