import type { StateStoreContext } from '../../processor/state-store-context';
import { ChangelogWriter } from './changelog-writer';
import type { BytesStore, BytesWrite } from '../bytes-store';
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
  private readonly changelog: ChangelogWriter;

  constructor(
    inner: BytesStore,
    readonly options: ChangeLoggingOptions = {},
  ) {
    super(inner);
    this.changelog = new ChangelogWriter(inner.name, options.timestampedValues === true);
  }

  /** The changelog topic (known after `init`). */
  get changelogTopic(): string {
    return this.changelog.topic;
  }

  /** The changelog partition, the task's partition (known after `init`). */
  get changelogPartition(): number {
    return this.changelog.partition;
  }

  override async init(context: StateStoreContext): Promise<void> {
    this.changelog.bind(context);
    await super.init(context);
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
    this.changelog.log(key, value, timestamp);
  }
}
