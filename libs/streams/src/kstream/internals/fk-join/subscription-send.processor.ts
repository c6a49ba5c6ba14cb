import type { Processor } from '../../../processor/processor';
import type { ProcessorContext } from '../../../processor/processor-context';
import type { Record } from '../../../processor/record';
import type { Serde } from '../../../serde/serde';
import type { Change } from '../change';
import { DroppedRecords } from '../dropped-records';
import { murmur3Hash128 } from './murmur3';
import { Instruction, type SubscriptionWrapper } from './subscription-wrappers';

/** Extracts a row's foreign key; `null` (or `undefined`): the row refers to none. */
export type ForeignKeyExtractor<K, V, KO> = (value: V, key: K) => KO | null | undefined;

/**
 * The primary table's side of a foreign-key join (Kafka Streams'
 * `SubscriptionSendProcessorSupplier`, `...-subscription-registration-processor`): for each
 * row change, subscribes the row to its new foreign key and unsubscribes it from the old one
 * when the key changed, keyed by the foreign key, carrying the hash of the row's new value and
 * the row's partition (Kafka Streams 4.x's instructions). Inner joins count rows without a
 * foreign key as dropped (and unsubscribe them); left joins still send them, to be answered
 * with `null`.
 */
export class SubscriptionSendProcessor<K, V, KO> implements Processor<
  K,
  Change<V>,
  KO | null,
  SubscriptionWrapper<K>
> {
  readonly dropped = new DroppedRecords();
  private context!: ProcessorContext<KO | null, SubscriptionWrapper<K>>;
  private hash: Buffer | null | undefined;

  constructor(
    private readonly extractor: ForeignKeyExtractor<K, V, KO>,
    private readonly foreignKeySerde: Serde<KO>,
    private readonly valueSerde: Serde<V>,
    private readonly leftJoin: boolean,
  ) {}

  init(context: ProcessorContext<KO | null, SubscriptionWrapper<K>>): void {
    this.dropped.attach(context);
    this.context = context;
  }

  process(record: Record<K, Change<V>>): void {
    this.hash = undefined;
    const { newValue, oldValue } = record.value;
    if (oldValue === null && newValue === null) return;
    const oldKey = oldValue === null ? null : this.foreignKey(record.key, oldValue);
    const newKey = newValue === null ? null : this.foreignKey(record.key, newValue);
    if (this.leftJoin) {
      if (oldKey !== null && !this.sameKey(newKey, oldKey)) {
        this.send(record, oldKey, Instruction.DELETE_KEY_NO_PROPAGATE);
      }
      this.send(record, newKey, Instruction.PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE);
      return;
    }
    if (newValue === null) {
      if (oldKey !== null) this.send(record, oldKey, Instruction.DELETE_KEY_AND_PROPAGATE);
    } else if (newKey === null) {
      this.dropped.record('null-key');
      if (oldKey !== null) this.send(record, oldKey, Instruction.DELETE_KEY_AND_PROPAGATE);
    } else if (oldKey !== null && !this.sameKey(newKey, oldKey)) {
      this.send(record, oldKey, Instruction.DELETE_KEY_NO_PROPAGATE);
      this.send(record, newKey, Instruction.PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE);
    } else {
      this.send(record, newKey, Instruction.PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE);
    }
  }

  private foreignKey(key: K, value: V): KO | null {
    return this.extractor(value, key) ?? null;
  }

  private sameKey(a: KO | null, b: KO): boolean {
    return (
      a !== null && this.foreignKeySerde.serialize(a).equals(this.foreignKeySerde.serialize(b))
    );
  }

  private send(
    record: Record<K, Change<V>>,
    foreignKey: KO | null,
    instruction: Instruction,
  ): void {
    const newValue = record.value.newValue;
    this.hash ??= newValue === null ? null : murmur3Hash128(this.valueSerde.serialize(newValue));
    const partition = this.context.recordMetadata()?.partition ?? this.context.taskId.partition;
    const wrapper = {
      hash: this.hash,
      instruction,
      primaryKey: record.key,
      primaryPartition: partition,
    };
    this.context.forward(record.withKey(foreignKey).withValue(wrapper));
  }
}
