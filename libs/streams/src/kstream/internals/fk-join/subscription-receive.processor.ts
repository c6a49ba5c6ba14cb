import type { Processor } from '../../../processor/processor';
import type { ProcessorContext } from '../../../processor/processor-context';
import type { Record } from '../../../processor/record';
import type {
  TimestampedKeyValueStore,
  ValueAndTimestamp,
} from '../../../state/value-and-timestamp';
import { change, type Change } from '../change';
import { DroppedRecords } from '../dropped-records';
import {
  Instruction,
  type CombinedKeySchema,
  type SubscriptionWrapper,
} from './subscription-wrappers';

/** A subscription's foreign key (`null` for a left join's row without one) and primary key. */
export interface CombinedKey<KO, K> {
  readonly foreignKey: KO | null;
  readonly primaryKey: K;
}

/** The subscription store: raw combined keys to the latest subscription of each row. */
export type SubscriptionStore<K> = TimestampedKeyValueStore<Buffer, SubscriptionWrapper<K>>;

/**
 * The foreign table's receiving end (Kafka Streams' `SubscriptionReceiveProcessorSupplier`,
 * `...-subscription-receive`): keeps each row's subscription in the subscription store under
 * (foreign key, primary key), or forgets it for a delete instruction, and forwards the change.
 * A subscription without a foreign key (left join) is forwarded without being kept; other
 * instructions without one are dropped.
 */
export class SubscriptionReceiveProcessor<KO, K> implements Processor<
  KO | null,
  SubscriptionWrapper<K>,
  CombinedKey<KO, K>,
  Change<ValueAndTimestamp<SubscriptionWrapper<K>>>
> {
  readonly dropped = new DroppedRecords();
  private context!: ProcessorContext<
    CombinedKey<KO, K>,
    Change<ValueAndTimestamp<SubscriptionWrapper<K>>>
  >;
  private store!: SubscriptionStore<K>;

  constructor(
    private readonly storeName: string,
    private readonly schema: CombinedKeySchema<KO, K>,
  ) {}

  init(
    context: ProcessorContext<
      CombinedKey<KO, K>,
      Change<ValueAndTimestamp<SubscriptionWrapper<K>>>
    >,
  ): void {
    this.dropped.attach(context);
    this.context = context;
    this.store = context.getStateStore<SubscriptionStore<K>>(this.storeName);
  }

  process(record: Record<KO | null, SubscriptionWrapper<K>>): void {
    const wrapper = record.value;
    const foreignKey = record.key ?? null;
    const latest = { value: wrapper, timestamp: record.timestamp };
    const key = { foreignKey, primaryKey: wrapper.primaryKey };
    if (foreignKey === null) {
      if (wrapper.instruction !== Instruction.PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE) {
        this.dropped.record('null-key');
        return;
      }
      this.context.forward(record.withKey(key).withValue(change(latest, null)));
      return;
    }
    const subscriptionKey = this.schema.toBytes(foreignKey, wrapper.primaryKey);
    const old = this.store.get(subscriptionKey) ?? null;
    const forget =
      wrapper.instruction === Instruction.DELETE_KEY_AND_PROPAGATE ||
      wrapper.instruction === Instruction.DELETE_KEY_NO_PROPAGATE;
    if (forget) this.store.delete(subscriptionKey);
    else this.store.put(subscriptionKey, latest);
    this.context.forward(record.withKey(key).withValue(change(latest, old)));
  }
}
