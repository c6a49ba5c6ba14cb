import type { Processor } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import type { Record } from '../../processor/record';
import type { ValueJoiner } from '../functions';
import { DroppedRecords, distinctKeys } from './dropped-records';
import type { KTableValueGetter, KTableValueGetterSupplier } from './ktable-value-getter';

/**
 * Stream-table join (Kafka Streams' `KStreamKTableJoin`): each stream record looks up the
 * table's current row for its key and emits `joiner(streamValue, tableValue)` at the stream
 * record's timestamp. Inner join: no row, no output. Left join: no row gives
 * `joiner(streamValue, null)`. Table updates never trigger output. Stream records with a
 * `null` value are dropped (both kinds), and with a `null` key in an inner join; a left join
 * joins a `null` key with no row.
 *
 * `prefetch` loads the rows of the batch's keys through the table's value getter.
 */
export class KStreamKTableJoinProcessor<K, V, VT, VR> implements Processor<K, V, K, VR> {
  readonly dropped = new DroppedRecords();
  private context!: ProcessorContext<K, VR>;
  private readonly getter: KTableValueGetter<K, VT>;

  constructor(
    getterSupplier: KTableValueGetterSupplier<K, VT>,
    private readonly joiner: ValueJoiner<V, VT | null, VR, K>,
    private readonly leftJoin: boolean,
  ) {
    this.getter = getterSupplier.get();
  }

  init(context: ProcessorContext<K, VR>): void {
    this.dropped.attach(context);
    this.context = context;
    this.getter.init(context);
  }

  prefetch(records: readonly Record<K, V>[]): Promise<void> {
    return this.getter.prefetch(distinctKeys(records));
  }

  process(record: Record<K, V>): void {
    const { key, value } = record;
    if (this.dropped.nullValue(value)) return;
    if (key === null || key === undefined) {
      if (!this.leftJoin) {
        this.dropped.record('null-key');
        return;
      }
      this.context.forward(record.withValue(this.joiner(value, null, key)));
      return;
    }
    const row = this.getter.get(key);
    if (row === undefined && !this.leftJoin) return;
    this.context.forward(record.withValue(this.joiner(value, row?.value ?? null, key)));
  }
}
