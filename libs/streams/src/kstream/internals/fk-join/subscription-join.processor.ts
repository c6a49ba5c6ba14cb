import type { Processor } from '../../../processor/processor';
import type { ProcessorContext } from '../../../processor/processor-context';
import type { Record } from '../../../processor/record';
import type { ValueAndTimestamp } from '../../../state/value-and-timestamp';
import type { Change } from '../change';
import type { KTableValueGetter, KTableValueGetterSupplier } from '../ktable-value-getter';
import type { CombinedKey } from './subscription-receive.processor';
import {
  Instruction,
  type SubscriptionResponseWrapper,
  type SubscriptionWrapper,
} from './subscription-wrappers';

/**
 * Answers a subscription with the foreign table's current row (Kafka Streams'
 * `SubscriptionJoinProcessorSupplier`, `...-subscription-join-foreign`), keyed by the primary
 * key, at the later of the subscription's and the row's timestamps: a delete answers `null`,
 * a left or moved row's subscription answers the row or `null`, a new inner row's only when the
 * row exists; an unsubscription answers nothing.
 */
export class SubscriptionJoinProcessor<KO, K, VO> implements Processor<
  CombinedKey<KO, K>,
  Change<ValueAndTimestamp<SubscriptionWrapper<K>>>,
  K,
  SubscriptionResponseWrapper<VO>
> {
  private context!: ProcessorContext<K, SubscriptionResponseWrapper<VO>>;
  private readonly foreign: KTableValueGetter<KO, VO>;

  constructor(foreignRows: KTableValueGetterSupplier<KO, VO>) {
    this.foreign = foreignRows.get();
  }

  init(context: ProcessorContext<K, SubscriptionResponseWrapper<VO>>): void {
    this.context = context;
    this.foreign.init(context);
  }

  process(
    record: Record<CombinedKey<KO, K>, Change<ValueAndTimestamp<SubscriptionWrapper<K>>>>,
  ): void {
    const subscription = record.value.newValue!;
    const { hash, instruction, primaryPartition } = subscription.value;
    const { foreignKey, primaryKey } = record.key;
    const row = foreignKey === null ? undefined : this.foreign.get(foreignKey);
    const timestamp =
      row === undefined ? subscription.timestamp : Math.max(subscription.timestamp, row.timestamp);
    const answer = (foreignValue: VO | null): void =>
      this.context.forward(
        record
          .withKey(primaryKey)
          .withValue({ originalValueHash: hash, foreignValue, primaryPartition })
          .withTimestamp(timestamp),
      );
    if (instruction === Instruction.DELETE_KEY_AND_PROPAGATE) answer(null);
    else if (instruction === Instruction.PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE)
      answer(row?.value ?? null);
    else if (instruction === Instruction.PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE && row !== undefined) {
      answer(row.value);
    }
  }
}
