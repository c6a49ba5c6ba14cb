import type {
  FixedKeyProcessor,
  FixedKeyProcessorContext,
} from '../../processor/fixed-key-processor';
import { FixedKeyRecord } from '../../processor/fixed-key-record';
import type { Processor } from '../../processor/processor';
import type { ProcessorContext } from '../../processor/processor-context';
import { Record } from '../../processor/record';

/**
 * `KStream.processValues` (Kafka Streams' `KStreamProcessValues`, `KSTREAM-PROCESSVALUES-...`):
 * runs a {@link FixedKeyProcessor}, handing it each record as a `FixedKeyRecord` and forwarding
 * what it forwards with the key unchanged. Key-preserving: prefetching looks through it.
 */
export class KStreamProcessValuesProcessor<K, V, VOut> implements Processor<K, V, K, VOut> {
  readonly keyPreserving = true;
  readonly prefetch?: (records: readonly Record<K, V>[]) => Promise<void>;

  constructor(private readonly processor: FixedKeyProcessor<K, V, VOut>) {
    const prefetch = processor.prefetch?.bind(processor);
    if (prefetch !== undefined) this.prefetch = (records) => prefetch(records.map(fixedKeyOf));
  }

  init(context: ProcessorContext<K, VOut>): void {
    const fixed: FixedKeyProcessorContext<K, VOut> = Object.create(context, {
      forward: {
        value: <VF extends VOut>(record: FixedKeyRecord<K, VF>, childName?: string): void =>
          context.forward(
            new Record(record.key, record.value, record.timestamp, record.headers),
            childName,
          ),
      },
    }) as FixedKeyProcessorContext<K, VOut>;
    this.processor.init?.(fixed);
  }

  process(record: Record<K, V>): void {
    this.processor.process(fixedKeyOf(record));
  }

  close(): void {
    this.processor.close?.();
  }
}

function fixedKeyOf<K, V>(record: Record<K, V>): FixedKeyRecord<K, V> {
  return new FixedKeyRecord(record.key, record.value, record.timestamp, record.headers);
}
