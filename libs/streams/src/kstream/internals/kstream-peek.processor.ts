import type { Processor } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import type { Record } from '../../processor/record';
import type { ForeachAction } from '../functions';

/**
 * `peek` (forwards every record after the action) and `foreach` (a terminal: forwards
 * nothing). Key-preserving.
 */
export class KStreamPeekProcessor<K, V> implements Processor<K, V, K, V> {
  readonly keyPreserving = true;
  private context!: ProcessorContext<K, V>;

  constructor(
    private readonly action: ForeachAction<K, V>,
    private readonly forwardDownstream: boolean,
  ) {}

  init(context: ProcessorContext<K, V>): void {
    this.context = context;
  }

  process(record: Record<K, V>): void {
    this.action(record.key, record.value);
    if (this.forwardDownstream) this.context.forward(record);
  }
}
