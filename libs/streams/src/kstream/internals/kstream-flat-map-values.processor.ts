import type { Processor } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import type { Record } from '../../processor/record';
import type { ValueMapper } from '../functions';

/** `flatMapValues`: forwards one record per value the mapper returns, keeping the key. */
export class KStreamFlatMapValuesProcessor<K, V, VR> implements Processor<K, V, K, VR> {
  readonly keyPreserving = true;
  private context!: ProcessorContext<K, VR>;

  constructor(private readonly mapper: ValueMapper<V, Iterable<VR>, K>) {}

  init(context: ProcessorContext<K, VR>): void {
    this.context = context;
  }

  process(record: Record<K, V>): void {
    for (const value of this.mapper(record.value, record.key)) {
      this.context.forward(record.withValue(value));
    }
  }
}
