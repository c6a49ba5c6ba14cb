import type { Processor } from '../../../processor/processor';
import type { ProcessorContext } from '../../../processor/processor-context';
import type { Record } from '../../../processor/record';
import type { Change } from '../change';
import { distinctKeys } from '../dropped-records';
import { MaterializedTableOutput } from './materialized-table-output';

/**
 * A KTable processor that transforms each change of its parent (filter, mapValues) and sends
 * the result through a {@link MaterializedTableOutput}: into its own store first when
 * materialized. Keys are kept. When it sends old values and is materialized, the old values
 * come from its own store, whose rows {@link prefetch} loads per batch.
 */
export abstract class MaterializedTableProcessor<K, V, VR> implements Processor<
  K,
  Change<V>,
  K,
  Change<VR>
> {
  readonly keyPreserving = true;
  protected output!: MaterializedTableOutput<K, VR>;

  /** Loads the stored rows of a batch's keys, when old values come from the own store. */
  readonly prefetch?: (records: readonly Record<K, Change<V>>[]) => Promise<void>;

  constructor(
    protected readonly sendOldValues: boolean,
    private readonly storeName: string | undefined,
  ) {
    if (sendOldValues && storeName !== undefined) {
      this.prefetch = (records) => this.output.prefetch(distinctKeys(records));
    }
  }

  init(context: ProcessorContext<K, Change<VR>>): void {
    this.output = new MaterializedTableOutput(context, this.storeName, this.sendOldValues);
  }

  abstract process(record: Record<K, Change<V>>): void;
}
