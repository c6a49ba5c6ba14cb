import { ProcessorStateError } from '../../errors/processor-state.error';
import type { RecordCollector } from '../../processor/internals/record-collector';
import type { StateStoreContext } from '../state-store-context';
import type { BytesStoreCapabilities, BytesWrite } from './bytes-store';
import { changelogTopicName } from './changelog-topic-name';
import { readTimestamp } from './ordered-bytes';
import type { RestoreBatchResult } from './segmented-bytes.store';
import type {
  WindowBytesEntry,
  WindowBytesStore,
  WindowRangeQuery,
} from './segmented-window-bytes.store';

/**
 * The change-logging layer of window stores: every write the engine accepts is sent to the
 * changelog with the engine's store key (`[key][window start][seqnum]`, Kafka Streams'
 * changelog key of window stores) on the task's partition. Writes of expired windows, which
 * the engine drops, are not logged. Timestamped values are logged as the plain value with
 * their timestamp as record timestamp.
 *
 * Errors: `init` throws `ProcessorStateError` without a record collector (a wiring bug);
 * send failures surface from the collector's `flush` as `RecordCollectorSendError`.
 */
export class ChangeLoggingWindowBytesStore implements WindowBytesStore {
  private collector: RecordCollector | undefined;
  private context: StateStoreContext | undefined;
  private topic = '';
  private partition = -1;

  constructor(
    readonly inner: WindowBytesStore,
    private readonly timestampedValues = false,
  ) {}

  get name(): string {
    return this.inner.name;
  }
  get capabilities(): BytesStoreCapabilities {
    return this.inner.capabilities;
  }
  get windowSizeMs(): number {
    return this.inner.windowSizeMs;
  }
  get retentionPeriodMs(): number {
    return this.inner.retentionPeriodMs;
  }
  get segmentIntervalMs(): number {
    return this.inner.segmentIntervalMs;
  }
  get retainDuplicates(): boolean {
    return this.inner.retainDuplicates;
  }
  get changelogTopic(): string {
    return this.topic;
  }
  get changelogPartition(): number {
    return this.partition;
  }

  async init(context: StateStoreContext): Promise<void> {
    if (!context.recordCollector) {
      throw new ProcessorStateError(
        this.name,
        'init',
        new Error('logging is enabled but the task context has no record collector'),
      );
    }
    await this.inner.open();
    this.context = context;
    this.collector = context.recordCollector;
    this.topic = changelogTopicName(context.applicationId, this.name);
    this.partition = context.taskId.partition;
  }

  open(): Promise<void> {
    return this.inner.open();
  }
  isOpen(): boolean {
    return this.inner.isOpen();
  }
  observedStreamTime(): number {
    return this.inner.observedStreamTime();
  }

  put(
    key: Buffer,
    value: Buffer | null,
    windowStart: number,
    timestamp?: number,
  ): Buffer | undefined {
    const storeKey = this.inner.put(key, value, windowStart);
    if (storeKey === undefined) return undefined;
    const collector = this.collector;
    const context = this.context;
    if (!collector || !context) {
      throw new ProcessorStateError(
        this.name,
        'log a write',
        new Error('store is not initialized'),
      );
    }
    let recordTimestamp = timestamp ?? context.currentTimestamp();
    let payload = value;
    if (this.timestampedValues && value !== null && value.length >= 8) {
      recordTimestamp = readTimestamp(value, 0);
      payload = value.subarray(8);
    }
    collector.send({
      topic: this.topic,
      partition: this.partition,
      key: storeKey,
      value: payload,
      timestamp: recordTimestamp,
    });
    return storeKey;
  }

  fetch(key: Buffer, windowStart: number): Buffer | undefined {
    return this.inner.fetch(key, windowStart);
  }
  fetchAsync(key: Buffer, windowStart: number): Promise<Buffer | undefined> {
    return this.inner.fetchAsync(key, windowStart);
  }
  range(query: WindowRangeQuery): IterableIterator<WindowBytesEntry> {
    return this.inner.range(query);
  }
  rangeAsync(query: WindowRangeQuery): Promise<WindowBytesEntry[]> {
    return this.inner.rangeAsync(query);
  }
  restoreAll(records: readonly BytesWrite[]): RestoreBatchResult {
    return this.inner.restoreAll(records);
  }
  approximateNumEntries(): number {
    return this.inner.approximateNumEntries();
  }
  flush(): Promise<void> {
    return this.inner.flush();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
