import type { Processor } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import type { Record } from '../../processor/record';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp';
import { change, type Change } from './change';
import { DroppedRecords, distinctKeys } from './dropped-records';
import type { KTableValueGetter, KTableValueGetterSupplier } from './ktable-value-getter';

/**
 * Which side of a table-table join a processor serves:
 * - `inner`: either side of an inner join, and the left side of a left join sees the other
 *   side as required (`inner`) or optional (`left`);
 * - `right-of-left`: the right table's processor of a left join (emits only when the left
 *   row exists, and then always, with `null` for a deleted right row);
 * - `outer`: either side of an outer join (emits when either row exists).
 */
export type TableJoinSide = 'inner' | 'left' | 'right-of-left' | 'outer';

/** Joins this side's value with the other side's (the arguments are already in left/right order). */
export type SideJoiner<V, VO, VR, K> = (thisValue: V | null, otherValue: VO | null, key: K) => VR;

/**
 * One side of a table-table join (Kafka Streams' `KTableKTableInnerJoin`, `...LeftJoin`,
 * `...RightJoin`, `...OuterJoin`): an update of this table looks up the other table's row for the key and
 * emits the joined change at `max(this timestamp, other row timestamp)`. Deletes propagate as
 * `newValue: null`. The two sides' outputs meet in a merge node.
 */
export class KTableKTableJoinProcessor<K, V, VO, VR> implements Processor<
  K,
  Change<V>,
  K,
  Change<VR>
> {
  readonly keyPreserving = true;
  readonly dropped = new DroppedRecords();
  private context!: ProcessorContext<K, Change<VR>>;
  private readonly other: KTableValueGetter<K, VO>;

  constructor(
    otherGetter: KTableValueGetterSupplier<K, VO>,
    private readonly joiner: SideJoiner<V, VO, VR, K>,
    private readonly side: TableJoinSide,
    private readonly sendOldValues: boolean,
  ) {
    this.other = otherGetter.get();
  }

  init(context: ProcessorContext<K, Change<VR>>): void {
    this.dropped.attach(context);
    this.context = context;
    this.other.init(context);
  }

  prefetch(records: readonly Record<K, unknown>[]): Promise<void> {
    return this.other.prefetch(distinctKeys(records));
  }

  process(record: Record<K, Change<V>>): void {
    const key = record.key;
    if (this.dropped.nullKey(key)) return;
    const row: ValueAndTimestamp<VO> | undefined = this.other.get(key);
    const { newValue, oldValue } = record.value;
    let joinedNew: VR | null = null;
    let joinedOld: VR | null = null;
    if (this.side === 'right-of-left') {
      if (row === undefined) return;
      joinedNew = this.joiner(newValue, row.value, key);
      if (this.sendOldValues) joinedOld = this.joiner(oldValue, row.value, key);
    } else if (this.side === 'outer') {
      if (row === undefined && newValue === null && oldValue === null) return;
      const other = row?.value ?? null;
      if (row !== undefined || newValue !== null) joinedNew = this.joiner(newValue, other, key);
      if (this.sendOldValues && (row !== undefined || oldValue !== null)) {
        joinedOld = this.joiner(oldValue, other, key);
      }
    } else {
      if (row === undefined && this.side === 'inner') return;
      if (row === undefined && newValue === null && oldValue === null) return;
      if (newValue !== null) joinedNew = this.joiner(newValue, row?.value ?? null, key);
      if (this.sendOldValues && oldValue !== null) {
        joinedOld = this.joiner(oldValue, row?.value ?? null, key);
      }
    }
    const timestamp =
      row === undefined ? record.timestamp : Math.max(record.timestamp, row.timestamp);
    this.context.forward(record.withValue(change(joinedNew, joinedOld)).withTimestamp(timestamp));
  }
}
