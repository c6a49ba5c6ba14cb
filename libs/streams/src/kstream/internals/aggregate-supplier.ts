import type { Processor, ProcessorSupplier } from '../../processor/processor';
import type { Change } from './change';
import type {
  KTableProcessorSupplier,
  KTableValueGetter,
  KTableValueGetterSupplier,
} from './ktable-value-getter';

/**
 * The KTable node of an aggregation, whose store is the table (`KT` is the table's key: the
 * record's key, or a `Windowed` one): it makes the aggregation's processor, which sends old
 * values once downstream asked for them, and reads rows from the store. Each kind of
 * aggregation (by key, by time window, by session) gives its processor and its row getter.
 */
export class AggregateSupplier<K, V, KT, VA> implements KTableProcessorSupplier<KT, VA> {
  /** Whether the processors the task creates emit the values they replace. */
  private sendOldValues = false;

  constructor(
    readonly storeName: string,
    /** A new processor, emitting the values it replaces when `sendOldValues`. */
    private readonly processor: (sendOldValues: boolean) => Processor<K, V, KT, Change<VA>>,
    /** A new getter of the store's rows. */
    private readonly getter: () => KTableValueGetter<KT, VA>,
  ) {}

  processorSupplier(): ProcessorSupplier<K, V, KT, Change<VA>> {
    return () => this.processor(this.sendOldValues);
  }

  view(): KTableValueGetterSupplier<KT, VA> {
    return { get: this.getter, storeNames: () => [this.storeName] };
  }

  /** An aggregation's table is always materialized: it sends old values when asked. */
  enableSendingOldValues(): boolean {
    this.sendOldValues = true;
    return true;
  }
}
