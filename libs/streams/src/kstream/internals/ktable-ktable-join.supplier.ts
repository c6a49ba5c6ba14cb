import type { ProcessorSupplier } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp';
import type { ValueJoiner } from '../functions';
import type { Change } from './change';
import { KTableKTableJoinMergerProcessor } from './ktable-ktable-join-merger.processor';
import {
  KTableKTableJoinProcessor,
  type SideJoiner,
  type TableJoinSide,
} from './ktable-ktable-join.processor';
import type {
  KTableProcessorSupplier,
  KTableValueGetter,
  KTableValueGetterSupplier,
} from './ktable-value-getter';
import { storeGetterSupplier } from './timestamped-store-getter';

/** Reads an unmaterialized join result: joins the two tables' current rows. */
class KTableKTableJoinValueGetter<K, V1, V2, VR> implements KTableValueGetter<K, VR> {
  constructor(
    private readonly left: KTableValueGetter<K, V1>,
    private readonly right: KTableValueGetter<K, V2>,
    private readonly joiner: ValueJoiner<V1, V2 | null, VR>,
    private readonly leftJoin: boolean,
  ) {}

  init(context: ProcessorContext<unknown, unknown>): void {
    this.left.init(context);
    this.right.init(context);
  }

  get(key: K): ValueAndTimestamp<VR> | undefined {
    const left = this.left.get(key);
    if (left === undefined) return undefined;
    const right = this.right.get(key);
    if (right === undefined && !this.leftJoin) return undefined;
    return {
      value: this.joiner(left.value, right?.value ?? null),
      timestamp: right === undefined ? left.timestamp : Math.max(left.timestamp, right.timestamp),
    };
  }

  async prefetch(keys: readonly K[]): Promise<void> {
    await Promise.all([this.left.prefetch(keys), this.right.prefetch(keys)]);
  }
}

/**
 * The KTable node of a table-table join: the processors of both sides and of the merge, and
 * the value getter of the result. A left join makes the left table send old values, so that a
 * deleted left row is seen as a delete.
 */
export class KTableKTableJoinSupplier<K, V1, V2, VR> implements KTableProcessorSupplier<K, VR> {
  private sendOldValues = false;

  constructor(
    private readonly left: KTableProcessorSupplier<K, V1>,
    private readonly right: KTableProcessorSupplier<K, V2>,
    private readonly joiner: ValueJoiner<V1, V2 | null, VR>,
    private readonly leftJoin: boolean,
    readonly storeName: string | undefined,
  ) {
    if (leftJoin) left.enableSendingOldValues(true);
  }

  /** The processor of the left table's updates. */
  leftProcessorSupplier(): ProcessorSupplier<K, Change<V1>, K, Change<VR>> {
    return this.sideSupplier<V1, V2>(
      this.right,
      (value, other) => this.joiner(value as V1, other),
      this.leftJoin ? 'left' : 'inner',
    );
  }

  /** The processor of the right table's updates. */
  rightProcessorSupplier(): ProcessorSupplier<K, Change<V2>, K, Change<VR>> {
    return this.sideSupplier<V2, V1>(
      this.left,
      (value, other) => this.joiner(other as V1, value),
      this.leftJoin ? 'right-of-left' : 'inner',
    );
  }

  mergerSupplier(): ProcessorSupplier<K, Change<VR>, K, Change<VR>> {
    return () => new KTableKTableJoinMergerProcessor<K, VR>(this.storeName, this.sendOldValues);
  }

  /** The processor of one side's updates, joining them with the `other` table's rows. */
  private sideSupplier<V, VO>(
    other: KTableProcessorSupplier<K, VO>,
    joiner: SideJoiner<V, VO, VR>,
    side: TableJoinSide,
  ): ProcessorSupplier<K, Change<V>, K, Change<VR>> {
    const otherView = other.view();
    return () =>
      new KTableKTableJoinProcessor<K, V, VO, VR>(otherView, joiner, side, this.sendOldValues);
  }

  view(): KTableValueGetterSupplier<K, VR> {
    if (this.storeName !== undefined) return storeGetterSupplier(this.storeName);
    const left = this.left.view();
    const right = this.right.view();
    return {
      get: () =>
        new KTableKTableJoinValueGetter(left.get(), right.get(), this.joiner, this.leftJoin),
      storeNames: () => [...left.storeNames(), ...right.storeNames()],
    };
  }

  /** Joins read both tables' stores: both send old values, forced (as Kafka Streams). */
  enableSendingOldValues(): boolean {
    this.left.enableSendingOldValues(true);
    this.right.enableSendingOldValues(true);
    this.sendOldValues = true;
    return true;
  }
}
