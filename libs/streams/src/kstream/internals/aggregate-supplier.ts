import type { ProcessorSupplier } from '../../processor/processor';
import type { Change } from './change';
import type {
  KTableProcessorSupplier,
  KTableValueGetter,
  KTableValueGetterSupplier,
} from './ktable-value-getter';

/**
 * The KTable node of an aggregation, whose store is the table (`KT` is the table's key: the
 * record's key, or a `Windowed` one): it makes the aggregation's processor, which sends old
 * values once downstream asked for them, and reads rows from the store.
 */
export abstract class AggregateSupplier<K, V, KT, VA> implements KTableProcessorSupplier<KT, VA> {
  /** Whether the processors the task creates emit the values they replace. */
  protected sendOldValues = false;

  constructor(readonly storeName: string) {}

  abstract processorSupplier(): ProcessorSupplier<K, V, KT, Change<VA>>;

  abstract view(): KTableValueGetterSupplier<KT, VA>;

  enableSendingOldValues(): void {
    this.sendOldValues = true;
  }

  /** The view of the store through the value getters `getter` makes. */
  protected storeView(getter: () => KTableValueGetter<KT, VA>): KTableValueGetterSupplier<KT, VA> {
    return { get: getter, storeNames: () => [this.storeName] };
  }
}
