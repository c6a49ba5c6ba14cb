import type { TaskId } from './task-id';
import type { Cancellable, PunctuationType, Punctuator } from './punctuation';
import type { Headers, Record } from './record';

/**
 * Where the record being processed came from. `undefined` while a punctuator runs or a cache
 * flush forwards (there is no input record then), as in Kafka Streams.
 */
export interface RecordMetadata {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly headers: Headers;
}

/**
 * Why a DSL processor dropped an input record on purpose (the `reason` tag of the task's
 * `dropped-records` metric): a `null` key or value where the operator needs one, a record past
 * its window's grace period, a join record without a partner where the join needs one.
 */
export type DroppedRecordReason = 'null-key' | 'null-value' | 'late' | 'no-join-partner';

/**
 * What a processor can do besides processing: forward records to its children, reach its
 * connected state stores, schedule punctuators and request a commit.
 *
 * Errors: `getStateStore` throws `UnknownStateStoreError` for a store not connected to this
 * processor (connect it with `Topology.connectProcessorAndStateStores` or name it in
 * `addProcessor`/`addStateStore`); `forward` to an unknown child throws `TopologyError`.
 */
export interface ProcessorContext<KForward = unknown, VForward = unknown> {
  readonly applicationId: string;
  readonly taskId: TaskId;
  /** The application's configuration (the `StreamsConfig` values). */
  readonly appConfigs: { readonly [name: string]: unknown };
  /** Topic, partition, offset and headers of the input record, if any. */
  recordMetadata(): RecordMetadata | undefined;
  /** Sends a record to every child, or only to the named child. */
  forward<K extends KForward, V extends VForward>(record: Record<K, V>, childName?: string): void;
  /** A state store connected to this processor, typed by the caller. */
  getStateStore<S>(name: string): S;
  /**
   * Runs `punctuator` every `intervalMs` of stream time or wall-clock time. Stream-time
   * punctuators fire when records advance stream time past the next boundary.
   */
  schedule(intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable;
  /** Asks for a commit of this task as soon as the current batch is done. */
  commit(): void;
  /** The task's stream time: the largest record timestamp seen, or -1 before any record. */
  currentStreamTimeMs(): number;
  /** The wall-clock time the processing loop last read (ms), cheap to call per record. */
  currentSystemTimeMs(): number;
  /**
   * Counts one input record this processor skipped on purpose (a `null` key or value, a late
   * record, no join partner) in the task's `dropped-records` metric, as Kafka Streams' DSL
   * processors do, under `reason` (without one: `other`). Optional: contexts of test doubles
   * may leave it out.
   */
  recordDropped?(reason?: DroppedRecordReason): void;
  /**
   * Whether this processor has any child to forward to. The DSL's aggregations use it to skip
   * typing the cache's flushed entries when nothing downstream would receive them (a table
   * kept only for interactive queries or as a join's lookup side). Optional: a context that
   * leaves it out counts as having children.
   */
  hasChildren?(): boolean;
  /**
   * A number this task's processors committed under `key` with the task's offsets (Kafka
   * Streams' processor metadata, KIP-825): the emit-on-window-close aggregations keep the
   * window close time they last emitted up to, so that a restarted task does not emit those
   * windows again. Optional: without it (the runtime does not commit processor metadata yet)
   * such an aggregation starts from nothing after a restart and emits again the closed windows
   * its store still holds.
   */
  processorMetadataForKey?(key: string): number | undefined;
  /** Records `value` under `key`, to be committed with the task's next offsets. Optional. */
  addProcessorMetadataKeyValue?(key: string, value: number): void;
}
