import { StoreClosedError } from '../../errors/store-closed.error';
import type { RecordCollector } from '../../processor/internals/record-collector';
import type { Serde } from '../../serde/serde';
import { changelogTopicName } from '../../state/internals/changelog-topic-name';
import { InMemoryBytesStore } from '../../state/internals/in-memory-bytes.store';
import { SegmentedSessionBytesStore } from '../../state/internals/segmented-session-bytes.store';
import type { KeyValue } from '../../state/key-value-store';
import type { StateStore } from '../../state/state-store';
import type { StateStoreContext } from '../../state/state-store-context';
import type { StoreBuilder } from '../../state/store-builder';
import { SessionWindow } from '../windows/session-window';
import { Windowed } from '../windows/windowed';
import type { DslSessionStore } from './dsl-window-stores';

/**
 * A stop-gap session store for session-windowed aggregations until the store layer ships its
 * own: typed, over the store layer's segmented session engine with in-memory segments, every
 * write mirrored to `<applicationId>-<name>-changelog` (key: the session key
 * `[key][end][start]`, as Kafka Streams) and restored from it. Not persistent across restarts
 * (rebuilt from the changelog); no caching (every update is emitted at once).
 *
 * Errors: calls before `init` or after `close` throw `StoreClosedError` (reopen the task);
 * serdes throw `SerializationError` (fix the serde); the engine throws `InvalidWindowError`
 * for invalid times (fix the caller).
 */
export class SessionStoreAdapter<K, V> implements StateStore, DslSessionStore<K, V> {
  readonly persistent = false;
  private engine: SegmentedSessionBytesStore | undefined;
  private collector: RecordCollector | undefined;
  private context: StateStoreContext | undefined;
  private topic: string;
  private partition = -1;

  constructor(
    readonly name: string,
    private readonly retentionPeriodMs: number,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
    private readonly logging: boolean,
  ) {
    this.topic = name;
  }

  async init(context: StateStoreContext): Promise<void> {
    if (this.engine?.isOpen()) return;
    const engine = new SegmentedSessionBytesStore({
      name: this.name,
      retentionPeriodMs: this.retentionPeriodMs,
      capabilities: { syncReads: true, persistent: false },
      segmentFactory: (segment) => new InMemoryBytesStore(segment),
    });
    await engine.open();
    this.engine = engine;
    this.context = context;
    this.topic = changelogTopicName(context.applicationId, this.name);
    this.partition = context.taskId.partition;
    this.collector = this.logging ? context.recordCollector : undefined;
    context.register({
      store: this,
      name: this.name,
      persistent: false,
      changelog: this.logging ? { topic: this.topic, partition: this.partition } : undefined,
      restoreBatch: (records) => {
        engine.restoreAll(records);
      },
      wipe: async () => {
        await engine.destroy();
        await engine.open();
      },
    });
  }

  isOpen(): boolean {
    return this.engine?.isOpen() ?? false;
  }

  findSessions(
    key: K,
    earliestSessionEndTime: number,
    latestSessionStartTime: number,
  ): KeyValue<Windowed<K>, V>[] {
    const engine = this.open();
    const result: KeyValue<Windowed<K>, V>[] = [];
    const query = {
      key: this.keySerde.serialize(key, this.topic),
      earliestSessionEndTime,
      latestSessionStartTime,
    };
    for (const entry of engine.findSessions(query)) {
      result.push({
        key: new Windowed(key, new SessionWindow(entry.start, entry.end)),
        value: this.valueSerde.deserialize(entry.value, this.topic),
      });
    }
    return result;
  }

  /** Every live session of `key`, oldest first. */
  fetch(key: K): KeyValue<Windowed<K>, V>[] {
    return this.findSessions(key, 0, Number.MAX_SAFE_INTEGER);
  }

  put(sessionKey: Windowed<K>, value: V | null): void {
    const engine = this.open();
    const { start, end } = sessionKey.window;
    const bytes = value === null ? null : this.valueSerde.serialize(value, this.topic);
    const written = engine.put(
      this.keySerde.serialize(sessionKey.key, this.topic),
      start,
      end,
      bytes,
    );
    if (written === undefined || this.collector === undefined) return;
    this.collector.send({
      topic: this.topic,
      partition: this.partition,
      key: written,
      value: bytes,
      timestamp: this.context!.currentTimestamp(),
    });
  }

  remove(sessionKey: Windowed<K>): void {
    this.put(sessionKey, null);
  }

  async flush(): Promise<void> {
    await this.open().flush();
  }

  async close(): Promise<void> {
    await this.engine?.close();
  }

  private open(): SegmentedSessionBytesStore {
    if (this.engine === undefined) throw new StoreClosedError(this.name, 'is not initialized');
    return this.engine;
  }
}

/** Builds {@link SessionStoreAdapter}s (caching is accepted and ignored). */
export class SessionStoreAdapterBuilder<K, V> implements StoreBuilder<SessionStoreAdapter<K, V>> {
  private caching = false;
  private logging = true;
  private topicConfig: Readonly<Record<string, string>> = {};

  constructor(
    readonly name: string,
    /** The store's retention, for its changelog's `retention.ms` (retention + 1 day). */
    readonly retentionPeriodMs: number,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
  ) {}

  get cachingEnabled(): boolean {
    return this.caching;
  }
  get loggingEnabled(): boolean {
    return this.logging;
  }
  get logConfig(): Readonly<Record<string, string>> {
    return this.topicConfig;
  }
  withCachingEnabled(): this {
    this.caching = true;
    return this;
  }
  withCachingDisabled(): this {
    this.caching = false;
    return this;
  }
  withLoggingEnabled(topicConfig: Readonly<Record<string, string>> = {}): this {
    this.logging = true;
    this.topicConfig = { ...topicConfig };
    return this;
  }
  withLoggingDisabled(): this {
    this.logging = false;
    this.topicConfig = {};
    return this;
  }
  build(): SessionStoreAdapter<K, V> {
    return new SessionStoreAdapter(
      this.name,
      this.retentionPeriodMs,
      this.keySerde,
      this.valueSerde,
      this.logging,
    );
  }
}
