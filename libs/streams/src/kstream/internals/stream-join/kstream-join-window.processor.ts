import type { Processor } from '../../../processor/processor';
import type { ProcessorContext } from '../../../processor/processor-context';
import type { Record } from '../../../processor/record';
import type { WindowStore } from '../../../state/window-store';

/**
 * The windowing step before each side of a stream-stream join (Kafka Streams'
 * `KStreamJoinWindow`, `KSTREAM-WINDOWED-...`): forwards the record to the join first, then
 * keeps it in its side's window store (by key, at its timestamp; records with a `null` key
 * are never joined, so not kept) for the other side's records to find.
 */
export class KStreamJoinWindowProcessor<K, V> implements Processor<K, V, K, V> {
  readonly keyPreserving = true;
  private context!: ProcessorContext<K, V>;
  private window!: WindowStore<K, V>;

  constructor(private readonly storeName: string) {}

  init(context: ProcessorContext<K, V>): void {
    this.context = context;
    this.window = context.getStateStore<WindowStore<K, V>>(this.storeName);
  }

  process(record: Record<K, V>): void {
    this.context.forward(record);
    if (record.key !== null && record.key !== undefined) {
      this.window.put(record.key, record.value, record.timestamp);
    }
  }
}
