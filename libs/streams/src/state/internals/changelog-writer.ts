import { ProcessorStateError } from '../../errors/processor-state.error';
import type { RecordCollector } from '../../processor/internals/record-collector';
import type { StateStoreContext } from '../../processor/state-store-context';
import { changelogTopicName } from './changelog-topic-name';
import { readTimestamp } from './ordered-bytes';

/**
 * The change-logging rule every store kind shares (key-value, window, session): a write the
 * store accepted goes to `<applicationId>-<store>-changelog`, on the task's partition, through
 * the task's record collector, keyed by the store's key bytes; `null` is a tombstone. With
 * timestamped values (`ValueAndTimestamp` bytes) the plain value is logged with its timestamp
 * as the record timestamp; otherwise the record timestamp is the given one or the current
 * record's.
 *
 * Errors: `bind` throws `ProcessorStateError` when the context has no record collector (a
 * wiring bug: logging needs a task); `log` throws it before `bind`. Send failures surface
 * from the collector's `flush` as `RecordCollectorSendError`.
 */
export class ChangelogWriter {
  private collector: RecordCollector | undefined;
  private context: StateStoreContext | undefined;
  private topicName = '';
  private partitionNumber = -1;

  constructor(
    private readonly storeName: string,
    private readonly timestampedValues = false,
  ) {}

  /** `<applicationId>-<store>-changelog`, once bound. */
  get topic(): string {
    return this.topicName;
  }

  /** The task's partition, once bound. */
  get partition(): number {
    return this.partitionNumber;
  }

  /** Binds the task's collector, changelog topic and partition. */
  bind(context: StateStoreContext): void {
    if (!context.recordCollector) {
      throw new ProcessorStateError(
        this.storeName,
        'init',
        new Error('logging is enabled but the task context has no record collector'),
      );
    }
    this.context = context;
    this.collector = context.recordCollector;
    this.topicName = changelogTopicName(context.applicationId, this.storeName);
    this.partitionNumber = context.taskId.partition;
  }

  /** Logs one accepted write (`value` null: a tombstone). */
  log(key: Buffer, value: Buffer | null, timestamp?: number): void {
    const collector = this.collector;
    const context = this.context;
    if (!collector || !context) {
      throw new ProcessorStateError(
        this.storeName,
        'log a write',
        new Error('store is not initialized'),
      );
    }
    let recordTimestamp = timestamp;
    let payload = value;
    if (this.timestampedValues && value !== null && value.length >= 8) {
      recordTimestamp = readTimestamp(value, 0);
      payload = value.subarray(8);
    }
    collector.send({
      topic: this.topicName,
      partition: this.partitionNumber,
      key,
      value: payload,
      timestamp: recordTimestamp ?? context.currentTimestamp(),
    });
  }
}
