import type { Processor } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import type { Record } from '../../processor/record';
import type { KeyValue, KeyValueMapper } from '../functions';

/** `flatMap`: forwards every `{ key, value }` the mapper returns, in order. Changes keys. */
export class KStreamFlatMapProcessor<K, V, KR, VR> implements Processor<K, V, KR, VR> {
  private context!: ProcessorContext<KR, VR>;

  constructor(private readonly mapper: KeyValueMapper<K, V, Iterable<KeyValue<KR, VR>>>) {}

  init(context: ProcessorContext<KR, VR>): void {
    this.context = context;
  }

  process(record: Record<K, V>): void {
    for (const pair of this.mapper(record.key, record.value)) {
      this.context.forward(record.withKey(pair.key).withValue(pair.value));
    }
  }
}
