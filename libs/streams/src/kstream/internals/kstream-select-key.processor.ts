import type { Processor } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import type { Record } from '../../processor/record';
import type { KeyValueMapper } from '../functions';

/** `selectKey` (and the key selection of `groupBy`): replaces the key. Changes keys. */
export class KStreamSelectKeyProcessor<K, V, KR> implements Processor<K, V, KR, V> {
  private context!: ProcessorContext<KR, V>;

  constructor(private readonly selector: KeyValueMapper<K, V, KR>) {}

  init(context: ProcessorContext<KR, V>): void {
    this.context = context;
  }

  process(record: Record<K, V>): void {
    this.context.forward(record.withKey(this.selector(record.key, record.value)));
  }
}
