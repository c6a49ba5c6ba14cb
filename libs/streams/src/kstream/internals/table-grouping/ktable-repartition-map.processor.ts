import type { Processor } from '../../../processor/processor';
import type { ProcessorContext } from '../../../processor/processor-context';
import type { Record } from '../../../processor/record';
import type { KeyValue, KeyValueMapper } from '../../functions';
import { change, type Change } from '../change';

/**
 * `KTable.groupBy`'s key selection (Kafka Streams' `KTableRepartitionMap`, `KTABLE-SELECT-...`):
 * maps a row's old and new values to their new key and value; when both land on one key
 * (primitive keys compared by value, `Buffer`s by bytes) one change carries both, else the
 * old pair is forwarded first, as a removal, then the new one, as an addition. Pairs with a
 * `null` key or value are skipped.
 *
 * Errors: a row with a `null` key throws (the task fails; a table never has one).
 */
export class KTableRepartitionMapProcessor<K, V, KR, VR> implements Processor<
  K,
  Change<V>,
  KR,
  Change<VR>
> {
  private context!: ProcessorContext<KR, Change<VR>>;

  constructor(private readonly mapper: KeyValueMapper<K, V, KeyValue<KR, VR>>) {}

  init(context: ProcessorContext<KR, Change<VR>>): void {
    this.context = context;
  }

  process(record: Record<K, Change<V>>): void {
    if (record.key === null || record.key === undefined) {
      throw new Error('Record key for the grouping KTable should not be null.');
    }
    const { newValue, oldValue } = record.value;
    const newPair = newValue === null ? undefined : this.pair(record.key, newValue);
    const oldPair = oldValue === null ? undefined : this.pair(record.key, oldValue);
    if (oldPair !== undefined && newPair !== undefined && sameKey(oldPair.key, newPair.key)) {
      this.context.forward(
        record.withKey(oldPair.key).withValue(change(newPair.value, oldPair.value)),
      );
      return;
    }
    if (oldPair !== undefined) {
      this.context.forward(record.withKey(oldPair.key).withValue(change<VR>(null, oldPair.value)));
    }
    if (newPair !== undefined) {
      this.context.forward(record.withKey(newPair.key).withValue(change<VR>(newPair.value, null)));
    }
  }

  private pair(key: K, value: V): KeyValue<KR, VR> | undefined {
    const pair = this.mapper(key, value);
    const ok =
      pair.key !== null &&
      pair.key !== undefined &&
      pair.value !== null &&
      pair.value !== undefined;
    return ok ? pair : undefined;
  }
}

function sameKey(a: unknown, b: unknown): boolean {
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  return Object.is(a, b);
}
