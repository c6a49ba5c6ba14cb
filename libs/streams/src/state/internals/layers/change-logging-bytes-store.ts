import { ProcessorStateError } from '../../../errors/processor-state.error';
import type { RecordCollector } from '../../../processor/internals/record-collector';
import type { StateStoreContext } from '../../../processor/state-store-context';
import { changelogTopicName } from '../changelog-topic-name';
import { readTimestamp } from '../ordered-bytes';
import type { StampedWrite, StoreLayer } from './store-layer';
import { WrappedStoreLayer } from './wrapped-store-layer';

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
 * The change-logging layer of every store kind: every write the store below applies is sent
 * to the store's changelog, `<applicationId>-<store>-changelog`, partition = the task's
 * partition, through the task's record collector, keyed by the store key (a window store's
 * `[key][start][seqnum]`, a session store's `[key][end][start]`, as Kafka Streams logs them).
 * Deletes become tombstones; writes a segmented store drops (past retention) are not logged.
 * The record timestamp is the write's (a cache writing through) or the current record's; a
 * timestamped value is logged as its plain value with its own timestamp.
 *
 * It sits below the caching layer, so with caching on only what the cache flushes reaches
 * the changelog. Restores bypass it (they write to the engine directly).
 *
 * Errors: `init` throws `ProcessorStateError` when the context has no record collector (a
 * runtime wiring bug). Writes throw what the engine throws; send failures surface from the
 * collector's `flush` as `RecordCollectorSendError`.
 */
export class ChangeLoggingBytesStore extends WrappedStoreLayer {
  private collector: RecordCollector | undefined;
  private context: StateStoreContext | undefined;
  /** The changelog topic (known after `init`). */
  changelogTopic = '';
  /** The changelog partition, the task's partition (known after `init`). */
  changelogPartition = -1;

  constructor(
    inner: StoreLayer,
    readonly options: ChangeLoggingOptions = {},
  ) {
    super(inner);
  }

  override async init(context: StateStoreContext): Promise<void> {
    if (!context.recordCollector) {
      const cause = new Error('logging is enabled but the task context has no record collector');
      throw new ProcessorStateError(this.name, 'init', cause);
    }
    this.context = context;
    this.collector = context.recordCollector;
    this.changelogTopic = changelogTopicName(context.applicationId, this.name);
    this.changelogPartition = context.taskId.partition;
    await super.init(context);
  }

  /** Writes through the store below, then logs each write it applied, in order. */
  override write(writes: readonly StampedWrite[]): boolean[] {
    const written = this.inner.write(writes);
    const { collector, context } = this;
    if (!collector || !context) {
      throw new ProcessorStateError(this.name, 'log', new Error('store is not initialized'));
    }
    for (let i = 0; i < writes.length; i++) {
      if (!written[i]) continue;
      const { key, value, timestamp } = writes[i];
      const stamped =
        this.options.timestampedValues === true && value !== null && value.length >= 8;
      collector.send({
        topic: this.changelogTopic,
        partition: this.changelogPartition,
        key,
        value: stamped ? value.subarray(8) : value,
        timestamp: stamped ? readTimestamp(value, 0) : (timestamp ?? context.currentTimestamp()),
      });
    }
    return written;
  }
}
