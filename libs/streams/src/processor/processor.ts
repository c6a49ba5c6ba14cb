import type { ProcessorContext } from './processor-context';
import type { Record } from './record';

/**
 * A node of a topology that handles records one at a time, synchronously: Kafka Streams'
 * `Processor`. `process` must not return a promise: state stores answer synchronously on the
 * processing path (the runtime prefetches what a batch needs), which is what keeps the
 * per-record cost low.
 *
 * Errors thrown from `process` reach the uncaught-exception handler of `KafkaStreams`
 * (replace the processing loop, shut down the client, or shut down the application).
 */
export interface Processor<KIn, VIn, KOut = never, VOut = never> {
  /** Called once per task before the first record; keep the context for later calls. */
  init?(context: ProcessorContext<KOut, VOut>): void;
  process(record: Record<KIn, VIn>): void;
  /**
   * Optional: loads what processing `records` will read from state stores, in one multi-get
   * per store (`KeyValueStore.prefetch`), before the task processes them synchronously. The
   * task calls it with a fetched batch for processors fed directly by a source, or through
   * key-preserving processors (see {@link Processor.keyPreserving}).
   */
  prefetch?(records: readonly Record<KIn, VIn>[]): Promise<void>;
  /**
   * Optional: true when this processor forwards records with the keys it received (filter,
   * mapValues, peek), so prefetching may look through it to its children.
   */
  readonly keyPreserving?: boolean;
  /** Called when the task closes; release what `init` acquired. */
  close?(): void;
}

/** Makes a fresh processor per task (processors hold per-task state: never share one). */
export type ProcessorSupplier<KIn, VIn, KOut = never, VOut = never> = () => Processor<
  KIn,
  VIn,
  KOut,
  VOut
>;
