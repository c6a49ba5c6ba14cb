import type { Processor } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import type { Record } from '../../processor/record';
import type { Predicate } from '../functions';

/**
 * The splitter of `split()`: sends each record to the child of the first predicate that
 * matches, else to the default branch's child when there is one, else drops it. Predicates
 * and child names are shared with the `BranchedKStream` that is still adding branches, so
 * they are read at processing time. Key-preserving.
 */
export class KStreamBranchProcessor<K, V> implements Processor<K, V, K, V> {
  readonly keyPreserving = true;
  private context!: ProcessorContext<K, V>;

  constructor(
    private readonly predicates: readonly Predicate<K, V>[],
    private readonly childNames: readonly string[],
  ) {}

  init(context: ProcessorContext<K, V>): void {
    this.context = context;
  }

  process(record: Record<K, V>): void {
    const predicates = this.predicates;
    for (let i = 0; i < predicates.length; i++) {
      if (predicates[i](record.key, record.value)) {
        this.context.forward(record, this.childNames[i]);
        return;
      }
    }
    if (this.childNames.length > predicates.length) {
      this.context.forward(record, this.childNames[predicates.length]);
    }
  }
}
