import type { Processor, ProcessorSupplier } from '../../../processor/processor';
import type { ProcessorContext } from '../../../processor/processor-context';
import type { Record } from '../../../processor/record';
import type { Change } from '../change';
import type { KTableProcessorSupplier, KTableValueGetterSupplier } from '../ktable-value-getter';

/** Forwards every change unchanged: the merge node of a cogrouped aggregation. */
export class KTablePassThroughProcessor<K, V> implements Processor<K, Change<V>, K, Change<V>> {
  readonly keyPreserving = true;
  private context!: ProcessorContext<K, Change<V>>;

  init(context: ProcessorContext<K, Change<V>>): void {
    this.context = context;
  }

  process(record: Record<K, Change<V>>): void {
    this.context.forward(record);
  }
}

/**
 * The KTable node of a cogrouped aggregation's merge (Kafka Streams' `KTablePassThrough`): its
 * rows are the shared store's, read through the first aggregation's view; old values are
 * asked of every aggregation.
 */
export class KTablePassThroughSupplier<K, V> implements KTableProcessorSupplier<K, V> {
  constructor(private readonly aggregations: readonly KTableProcessorSupplier<K, V>[]) {}

  processorSupplier(): ProcessorSupplier<K, Change<V>, K, Change<V>> {
    return () => new KTablePassThroughProcessor<K, V>();
  }

  view(): KTableValueGetterSupplier<K, V> {
    return this.aggregations[0].view();
  }

  /** Aggregations are materialized: they all send old values when asked (as Kafka Streams). */
  enableSendingOldValues(): boolean {
    for (const aggregation of this.aggregations) aggregation.enableSendingOldValues(true);
    return true;
  }
}
