import type { FixedKeyRecord } from './fixed-key-record';
import type { ProcessorContext } from './processor-context';

/**
 * What a {@link FixedKeyProcessor} can do (Kafka Streams' `FixedKeyProcessorContext`): the
 * {@link ProcessorContext} of any processor, forwarding {@link FixedKeyRecord}s only (to every
 * child, or only to the named one).
 *
 * Errors: as `ProcessorContext`: `getStateStore` throws `UnknownStateStoreError` for a store not
 * connected to the processor (name it in `processValues`), `forward` to an unknown child
 * `TopologyError`.
 */
export interface FixedKeyProcessorContext<KForward, VForward> extends Omit<
  ProcessorContext<KForward, VForward>,
  'forward'
> {
  forward<V extends VForward>(record: FixedKeyRecord<KForward, V>, childName?: string): void;
}

/**
 * A processor that transforms values but never keys (Kafka Streams' `FixedKeyProcessor`), for
 * `KStream.processValues`: it receives each record as a {@link FixedKeyRecord} and forwards
 * copies of it with other values, so the stream after it keeps its partitioning. Synchronous,
 * as every `Processor`.
 *
 * Errors thrown from `process` fail the task (they reach the uncaught-exception handler of
 * `KafkaStreams`), as from any processor.
 */
export interface FixedKeyProcessor<KIn, VIn, VOut> {
  /** Called once per task before the first record; keep the context for later calls. */
  init?(context: FixedKeyProcessorContext<KIn, VOut>): void;
  process(record: FixedKeyRecord<KIn, VIn>): void;
  /**
   * Optional: loads what processing `records` will read from its stores in one multi-get per
   * store, before the task processes them synchronously (see `Processor.prefetch`).
   */
  prefetch?(records: readonly FixedKeyRecord<KIn, VIn>[]): Promise<void>;
  /** Called when the task closes; release what `init` acquired. */
  close?(): void;
}

/** Makes a fresh {@link FixedKeyProcessor} per task (never share one between tasks). */
export type FixedKeyProcessorSupplier<KIn, VIn, VOut> = () => FixedKeyProcessor<KIn, VIn, VOut>;
