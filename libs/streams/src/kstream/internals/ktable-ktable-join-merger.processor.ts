import type { Processor } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import type { Record } from '../../processor/record';
import type { Change } from './change';
import { MaterializedTableOutput } from './table-transform/materialized-table-output';

/**
 * The merge node of a table-table join (Kafka Streams' `KTableKTableJoinMerger`): receives
 * the joined changes of both sides and forwards them, through the result's store when the
 * join is materialized.
 */
export class KTableKTableJoinMergerProcessor<K, VR> implements Processor<
  K,
  Change<VR>,
  K,
  Change<VR>
> {
  readonly keyPreserving = true;
  private output!: MaterializedTableOutput<K, VR>;

  constructor(
    private readonly storeName: string | undefined,
    private readonly sendOldValues: boolean,
  ) {}

  init(context: ProcessorContext<K, Change<VR>>): void {
    this.output = new MaterializedTableOutput(context, this.storeName, this.sendOldValues);
  }

  process(record: Record<K, Change<VR>>): void {
    this.output.emit(record, record.value.newValue, record.value.oldValue);
  }
}
