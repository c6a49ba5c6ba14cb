import { ProcessorStateError } from '../../errors/processor-state.error';
import type { RecordCollector } from '../../processor/internals/record-collector';
import type { StateStoreContext } from '../state-store-context';
import type { BytesStoreCapabilities, BytesWrite } from './bytes-store';
import { changelogTopicName } from './changelog-topic-name';
import type { RestoreBatchResult } from './segmented-bytes.store';
import type {
  SessionBytesEntry,
  SessionBytesStore,
  SessionQuery,
} from './segmented-session-bytes.store';

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
export class ChangeLoggingSessionBytesStore implements SessionBytesStore {
  private collector: RecordCollector | undefined;
  private context: StateStoreContext | undefined;
  private topic = '';
  private partition = -1;

  constructor(readonly inner: SessionBytesStore) {}

  get name(): string {
    return this.inner.name;
  }
  get capabilities(): BytesStoreCapabilities {
    return this.inner.capabilities;
  }
  get retentionPeriodMs(): number {
    return this.inner.retentionPeriodMs;
  }
  get segmentIntervalMs(): number {
    return this.inner.segmentIntervalMs;
  }
  /** `<applicationId>-<name>-changelog`, once initialized. */
  get changelogTopic(): string {
    return this.topic;
  }
  /** The task's partition, once initialized. */
  get changelogPartition(): number {
    return this.partition;
  }

  /** Opens the engine and binds the task's record collector. */
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
    start: number,
    end: number,
    value: Buffer | null,
    timestamp?: number,
  ): Buffer | undefined {
    const sessionKey = this.inner.put(key, start, end, value);
    if (sessionKey === undefined) return undefined;
    const collector = this.collector;
    const context = this.context;
    if (!collector || !context) {
      throw new ProcessorStateError(
        this.name,
        'log a write',
        new Error('store is not initialized'),
      );
    }
    collector.send({
      topic: this.topic,
      partition: this.partition,
      key: sessionKey,
      value,
      timestamp: timestamp ?? context.currentTimestamp(),
    });
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
