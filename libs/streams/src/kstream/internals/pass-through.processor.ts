import type { Processor } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import type { Record } from '../../processor/record';

/** Forwards every record unchanged: merge nodes and branch children. Key-preserving. */
export class PassThroughProcessor<K, V> implements Processor<K, V, K, V> {
  readonly keyPreserving = true;
  private context!: ProcessorContext<K, V>;

  init(context: ProcessorContext<K, V>): void {
    this.context = context;
  }

  process(record: Record<K, V>): void {
    this.context.forward(record);
  }
}
