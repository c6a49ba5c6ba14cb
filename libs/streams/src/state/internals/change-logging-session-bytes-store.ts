import type { StateStoreContext } from '../../processor/state-store-context';
import { ChangelogWriter } from './changelog-writer';
import type {
  SessionBytesEntry,
  SessionBytesStore,
  SessionQuery,
} from './segmented-session-bytes.store';
import { WrappedSegmentedStore, type TimestampedBytesWrite } from './wrapped-segmented-store';

/**
 * The change-logging layer of session stores: every write the engine accepts is sent to the
 * changelog on the task's partition, keyed by the session key `[key][end][start]` (Kafka
 * Streams' changelog key of session stores) with the aggregate bytes (or `null`, a tombstone)
 * as value and the current record's timestamp. Writes of expired sessions, which the engine
 * drops, are not logged.
 *
 * Errors: `init` throws `ProcessorStateError` without a record collector (a wiring bug);
 * send failures surface from the collector's `flush` as `RecordCollectorSendError`.
 */
export class ChangeLoggingSessionBytesStore
  extends WrappedSegmentedStore<SessionBytesStore>
  implements SessionBytesStore
{
  private readonly changelog: ChangelogWriter;

  constructor(inner: SessionBytesStore) {
    super(inner);
    this.changelog = new ChangelogWriter(inner.name);
  }

  /** `<applicationId>-<name>-changelog`, once initialized. */
  get changelogTopic(): string {
    return this.changelog.topic;
  }
  /** The task's partition, once initialized. */
  get changelogPartition(): number {
    return this.changelog.partition;
  }

  /** Opens the engine and binds the task's record collector. */
  async init(context: StateStoreContext): Promise<void> {
    this.changelog.bind(context);
    await this.inner.open();
  }

  put(
    key: Buffer,
    start: number,
    end: number,
    value: Buffer | null,
    timestamp?: number,
  ): Buffer | undefined {
    const sessionKey = this.inner.put(key, start, end, value);
    if (sessionKey === undefined) return undefined;
    this.changelog.log(sessionKey, value, timestamp);
    return sessionKey;
  }

  remove(key: Buffer, start: number, end: number): Buffer | undefined {
    return this.put(key, start, end, null);
  }

  fetchSession(key: Buffer, start: number, end: number): Buffer | undefined {
    return this.inner.fetchSession(key, start, end);
  }
  fetchSessionAsync(key: Buffer, start: number, end: number): Promise<Buffer | undefined> {
    return this.inner.fetchSessionAsync(key, start, end);
  }
  findSessions(query: SessionQuery): IterableIterator<SessionBytesEntry> {
    return this.inner.findSessions(query);
  }
  findSessionsAsync(query: SessionQuery): Promise<SessionBytesEntry[]> {
    return this.inner.findSessionsAsync(query);
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
