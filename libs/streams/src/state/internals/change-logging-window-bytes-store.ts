import type { StateStoreContext } from '../../processor/state-store-context';
import { ChangelogWriter } from './changelog-writer';
import type {
  WindowBytesEntry,
  WindowBytesStore,
  WindowRangeQuery,
} from './segmented-window-bytes.store';
import { WrappedSegmentedStore, type TimestampedBytesWrite } from './wrapped-segmented-store';

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
export class ChangeLoggingWindowBytesStore
  extends WrappedSegmentedStore<WindowBytesStore>
  implements WindowBytesStore
{
  private readonly changelog: ChangelogWriter;

  constructor(inner: WindowBytesStore, timestampedValues = false) {
    super(inner);
    this.changelog = new ChangelogWriter(inner.name, timestampedValues);
  }

  get windowSizeMs(): number {
    return this.inner.windowSizeMs;
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

  /** Writes through the store below, then logs each write it accepted, in order. */
  override putAll(writes: readonly TimestampedBytesWrite[]): boolean[] {
    const written = this.inner.putAll(writes);
    for (let i = 0; i < writes.length; i++) {
      if (written[i]) this.changelog.log(writes[i].key, writes[i].value, writes[i].timestamp);
    }
    return written;
  }
}
