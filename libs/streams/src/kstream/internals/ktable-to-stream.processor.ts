import type { Processor } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import type { Record } from '../../processor/record';
import type { Change } from './change';

/** `KTable.toStream`: forwards each update's new value (`null` for a delete). */
export class KTableToStreamProcessor<K, V> implements Processor<K, Change<V>, K, V | null> {
  readonly keyPreserving = true;
  private context!: ProcessorContext<K, V | null>;

  init(context: ProcessorContext<K, V | null>): void {
    this.context = context;
  }

  process(record: Record<K, Change<V>>): void {
    this.context.forward(record.withValue(record.value.newValue));
  }
}
