import type { Processor } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import type { Record } from '../../processor/record';
import type { Predicate } from '../functions';

/**
 * `filter` / `filterNot`: forwards the records the predicate keeps (with `not`, the ones it
 * rejects), unchanged. Key-preserving, so prefetching looks through it. A predicate that
 * throws fails the task (see {@link Predicate}).
 */
export class KStreamFilterProcessor<K, V> implements Processor<K, V, K, V> {
  readonly keyPreserving = true;
  private context!: ProcessorContext<K, V>;

  constructor(
    private readonly predicate: Predicate<K, V>,
    private readonly not: boolean,
  ) {}

  init(context: ProcessorContext<K, V>): void {
    this.context = context;
  }

  process(record: Record<K, V>): void {
    if (this.predicate(record.key, record.value) !== this.not) this.context.forward(record);
  }
}
