import { ProcessorStateError } from '../../errors/processor-state.error';
import type { RecordCollector } from '../../processor/internals/record-collector';
import type { StateStoreContext } from '../state-store-context';
import type { BytesStore, BytesWrite } from './bytes-store';
import { changelogTopicName } from './changelog-topic-name';
import { readTimestamp } from './ordered-bytes';
import { WrappedBytesStore } from './wrapped-bytes-store';

/** A write that carries the timestamp of the record that made it (set by the caching layer). */
export interface StampedBytesWrite extends BytesWrite {
  readonly timestamp?: number;
}

/** Options of a {@link ChangeLoggingBytesStore}. */
export interface ChangeLoggingOptions {
  /**
   * Values are Kafka Streams' `ValueAndTimestamp` bytes (8-byte timestamp, then the value):
   * the changelog gets the plain value with that timestamp as the record timestamp.
   */
  readonly timestampedValues?: boolean;
  /** Extra configs of the changelog topic (`withLoggingEnabled(topicConfig)`). */
  readonly topicConfig?: Readonly<Record<string, string>>;
}

/**
 * The change-logging layer: every write that reaches it is applied to the store below and
 * sent to the store's changelog, `<applicationId>-<store>-changelog`, partition = the task's
 * partition, through the task's {@link RecordCollector}. Deletes become tombstones.
 *
 * It sits below the caching layer, so with caching on only what the cache flushes reaches
 * the changelog. Restores bypass it (they write to the engine directly).
 *
 * Errors: `init` throws `ProcessorStateError` when the context has no record collector (a
 * runtime wiring bug). Writes throw what the engine throws; send failures surface from the
 * collector's `flush` as `RecordCollectorSendError`.
 */
export class ChangeLoggingBytesStore extends WrappedBytesStore {
  private collector: RecordCollector | undefined;
  private context: StateStoreContext | undefined;
  private topic = '';
  private partition = -1;

  constructor(
    inner: BytesStore,
    readonly options: ChangeLoggingOptions = {},
  ) {
    super(inner);
  }

  /** The changelog topic (known after `init`). */
  get changelogTopic(): string {
    return this.topic;
  }

  /** The changelog partition, the task's partition (known after `init`). */
  get changelogPartition(): number {
    return this.partition;
  }

  override async init(context: StateStoreContext): Promise<void> {
    if (!context.recordCollector) {
      throw new ProcessorStateError(
        this.name,
        'init',
        new Error('logging is enabled but the task context has no record collector'),
      );
    }
    await super.init(context);
    this.context = context;
    this.collector = context.recordCollector;
    this.topic = changelogTopicName(context.applicationId, this.name);
    this.partition = context.taskId.partition;
  }

  override put(key: Buffer, value: Buffer | null): void {
    this.inner.put(key, value);
    this.log(key, value, undefined);
  }

  override putAll(writes: readonly StampedBytesWrite[]): void {
    this.inner.putAll(writes);
    for (let i = 0; i < writes.length; i++) {
      const write = writes[i];
      this.log(write.key, write.value, write.timestamp);
    }
  }

  override putIfAbsent(key: Buffer, value: Buffer): Buffer | undefined {
    const existing = this.inner.putIfAbsent(key, value);
    if (existing === undefined) this.log(key, value, undefined);
    return existing;
  }

  override delete(key: Buffer): Buffer | undefined {
    const old = this.inner.delete(key);
    this.log(key, null, undefined);
    return old;
  }

  private log(key: Buffer, value: Buffer | null, timestamp: number | undefined): void {
    const collector = this.collector;
    if (!collector || !this.context) {
      throw new ProcessorStateError(
        this.name,
        'log a write',
        new Error('store is not initialized'),
      );
    }
    let ts = timestamp;
    let payload = value;
    if (this.options.timestampedValues && value !== null && value.length >= 8) {
      ts = readTimestamp(value, 0);
      payload = value.subarray(8);
    }
    collector.send({
      topic: this.topic,
      partition: this.partition,
      key,
      value: payload,
      timestamp: ts ?? this.context.currentTimestamp(),
    });
  }
}
