import type { Processor } from '../../../processor/processor';
import type { ProcessorContext } from '../../../processor/processor-context';
import type { Record } from '../../../processor/record';
import type { Serde } from '../../../serde/serde';
import type { ValueJoiner } from '../../functions';
import { DroppedRecords, distinctKeys } from '../dropped-records';
import type { KTableValueGetter, KTableValueGetterSupplier } from '../ktable-value-getter';
import { murmur3Hash128 } from './murmur3';
import type { SubscriptionResponseWrapper } from './subscription-wrappers';

/**
 * Resolves the foreign side's answers on the primary side (Kafka Streams'
 * `ResponseJoinProcessorSupplier`, `...-subscription-response-resolver`): an answer counts only
 * when it answers the row's current value (same hash), else it is stale and dropped (counted);
 * it then emits `joiner(row, foreignValue, key)`, or a delete when there is no foreign value
 * (an inner join) or no row.
 */
export class ResponseJoinProcessor<K, V, VO, VR> implements Processor<
  K,
  SubscriptionResponseWrapper<VO>,
  K,
  VR | null
> {
  readonly dropped = new DroppedRecords();
  private context!: ProcessorContext<K, VR | null>;
  private readonly rows: KTableValueGetter<K, V>;

  constructor(
    primaryRows: KTableValueGetterSupplier<K, V>,
    private readonly valueSerde: Serde<V>,
    private readonly joiner: ValueJoiner<V | null, VO | null, VR, K>,
    private readonly leftJoin: boolean,
  ) {
    this.rows = primaryRows.get();
  }

  init(context: ProcessorContext<K, VR | null>): void {
    this.dropped.attach(context);
    this.context = context;
    this.rows.init(context);
  }

  prefetch(records: readonly Record<K, SubscriptionResponseWrapper<VO>>[]): Promise<void> {
    return this.rows.prefetch(distinctKeys(records));
  }

  process(record: Record<K, SubscriptionResponseWrapper<VO>>): void {
    const row = this.rows.get(record.key);
    const currentHash =
      row === undefined ? null : murmur3Hash128(this.valueSerde.serialize(row.value));
    const answered = record.value.originalValueHash;
    const current =
      answered === null
        ? currentHash === null
        : currentHash !== null && answered.equals(currentHash);
    if (!current) {
      this.dropped.record('no-join-partner');
      return;
    }
    const { foreignValue } = record.value;
    const tombstone = foreignValue === null && (!this.leftJoin || row === undefined);
    const result = tombstone ? null : this.joiner(row?.value ?? null, foreignValue, record.key);
    this.context.forward(record.withValue(result));
  }
}
