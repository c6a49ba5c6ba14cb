import type { StateStoreContext } from '../../processor/state-store-context';
import { ChangelogWriter } from './changelog-writer';
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
 *
 * It sits below the caching layer, so with caching on only what the cache flushes reaches
 * the changelog. Restores bypass it (they write to the engine directly).
 *
 * Errors: `init` throws `ProcessorStateError` when the context has no record collector (a
 * runtime wiring bug). Writes throw what the engine throws; send failures surface from the
 * collector's `flush` as `RecordCollectorSendError`.
 */
export class ChangeLoggingBytesStore extends WrappedStoreLayer {
  private readonly changelog: ChangelogWriter;

  constructor(
    inner: StoreLayer,
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

  /** Writes through the store below, then logs each write it applied, in order. */
  override write(writes: readonly StampedWrite[]): boolean[] {
    const written = this.inner.write(writes);
    for (let i = 0; i < writes.length; i++) {
      if (written[i]) this.changelog.log(writes[i].key, writes[i].value, writes[i].timestamp);
    }
    return written;
  }
}
