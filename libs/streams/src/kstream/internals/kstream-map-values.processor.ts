import type { Processor } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import type { Record } from '../../processor/record';
import type { ValueMapper } from '../functions';

/** `mapValues`: replaces the value, keeps the key (key-preserving). */
export class KStreamMapValuesProcessor<K, V, VR> implements Processor<K, V, K, VR> {
  readonly keyPreserving = true;
  private context!: ProcessorContext<K, VR>;

  constructor(private readonly mapper: ValueMapper<V, VR, K>) {}

  init(context: ProcessorContext<K, VR>): void {
    this.context = context;
  }

  process(record: Record<K, V>): void {
    this.context.forward(record.withValue(this.mapper(record.value, record.key)));
  }
}
