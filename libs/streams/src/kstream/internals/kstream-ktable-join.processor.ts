import type { Processor } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import type { Record } from '../../processor/record';
import type { ValueJoiner } from '../functions';
import { DroppedRecords, distinctKeys } from './dropped-records';
import type { KTableValueGetter, KTableValueGetterSupplier } from './ktable-value-getter';

/**
 * Stream-table join (Kafka Streams' `KStreamKTableJoin`, and `KStreamGlobalKTableJoin` with a
 * key mapper): each stream record looks up the table's current row for its key (or for the key
 * `keyMapper(key, value)` computes, for a global table) and emits
 * `joiner(streamValue, tableValue, key)` at the stream record's timestamp. Inner join: no row,
 * no output. Left join: no row gives `joiner(streamValue, null, key)`. Table updates never
 * trigger output. Stream records with a `null` value are dropped (both kinds), and those whose
 * join key is `null`, except that a left join joins a record with a `null` key with no row.
 *
 * `prefetch` loads the rows of the batch's join keys through the table's value getter.
 */
export class KStreamKTableJoinProcessor<K, V, VT, VR, KT = K> implements Processor<K, V, K, VR> {
  readonly dropped = new DroppedRecords();
  private context!: ProcessorContext<K, VR>;
  private readonly getter: KTableValueGetter<KT, VT>;

  constructor(
    getterSupplier: KTableValueGetterSupplier<KT, VT>,
    private readonly joiner: ValueJoiner<V, VT | null, VR, K>,
    private readonly leftJoin: boolean,
    private readonly keyMapper: (key: K, value: V) => KT | null | undefined = (key) =>
      key as unknown as KT,
  ) {
    this.getter = getterSupplier.get();
  }

  init(context: ProcessorContext<K, VR>): void {
    this.dropped.attach(context);
    this.context = context;
    this.getter.init(context);
  }

  prefetch(records: readonly Record<K, V>[]): Promise<void> {
    const keys = records
      .filter((r) => r.value !== null && r.value !== undefined)
      .map((r) => ({ key: this.keyMapper(r.key, r.value) }));
    return this.getter.prefetch(distinctKeys(keys) as KT[]);
  }

  process(record: Record<K, V>): void {
    const { key, value } = record;
    if (this.dropped.nullValue(value)) return;
    const joinKey = this.keyMapper(key, value);
    const nullRecordKey = key === null || key === undefined;
    if ((joinKey === null || joinKey === undefined) && !(this.leftJoin && nullRecordKey)) {
      this.dropped.record('null-key');
      return;
    }
    const row = joinKey === null || joinKey === undefined ? undefined : this.getter.get(joinKey);
    if (row === undefined && !this.leftJoin) return;
    this.context.forward(record.withValue(this.joiner(value, row?.value ?? null, key)));
  }
}
