import type { StateStoreContext } from '../state-store-context';
import { ChangelogWriter } from './changelog-writer';
import type { BytesStoreCapabilities, BytesWrite } from './bytes-store';
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
  private readonly changelog: ChangelogWriter;

  constructor(
    readonly inner: WindowBytesStore,
    timestampedValues = false,
  ) {
    this.changelog = new ChangelogWriter(inner.name, timestampedValues);
  }

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
    return this.changelog.topic;
  }
  get changelogPartition(): number {
    return this.changelog.partition;
  }

  async init(context: StateStoreContext): Promise<void> {
    this.changelog.bind(context);
    await this.inner.open();
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
    this.changelog.log(storeKey, value, timestamp);
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
