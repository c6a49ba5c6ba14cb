import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  InMemoryRecordCollector,
  isTimestamped,
  RecordCache,
  StreamTask,
  unwrapWindowStore,
} from '@nest-streams/streams/internals';
import {
  type Headers,
  type KeyValueStore,
  type ReadOnlyWindowStore,
  type Serde,
  type SessionStore,
  type StateStore,
  type StreamsConfig,
  type StreamsLogger,
  TaskId,
  type TimestampedKeyValueStore,
  type Topology,
  UnknownStateStoreError,
  type ValueAndTimestamp,
} from '@nest-streams/streams';
import { PlainValueKeyValueStore } from './internals/plain-value-key-value-store';
import { GETTERS, kindOf, type StoreKind } from './internals/store-kinds';
import { registerDriverTasks } from './internals/driver-tasks';
import { type DriverMetrics, sumTaskMetrics } from './driver-metrics';
import { driverConfig, driverTaskConfig } from './internals/driver-config';
import { DriverGlobalStores } from './internals/driver-global-stores';
import { rawRecord } from './internals/raw-record';
import { type QueuedRecord, RecordQueues } from './internals/record-queues';
import { TestInputTopic } from './test-input-topic';
import { TestOutputTopic, type OutputSource } from './test-output-topic';
import type { TestRecord } from './test-record';

/** Options of the {@link TopologyTestDriver}. */
export interface TopologyTestDriverOptions {
  /**
   * Streams settings; `applicationId` and `bootstrapServers` get test defaults. The state lives
   * in a new directory under `stateDir` (default the OS temp directory).
   */
  config?: Partial<StreamsConfig>;
  /** The mocked wall clock's start (ms). Default 0. */
  initialWallClockTimeMs?: number;
  /**
   * Commit (flush caches and stores) after every piped record, as Kafka Streams'
   * TopologyTestDriver does. Default true. Set false to observe caching: then call `commit()`.
   */
  commitEveryRecord?: boolean;
  /**
   * Where the tasks log (skipped records, ...): its `warn`. Default the console (`StreamsModule`
   * under `StreamsTestingModule` gives Nest's logger).
   */
  logger?: Partial<StreamsLogger>;
}

/**
 * Runs a topology synchronously without a broker, like Kafka Streams' `TopologyTestDriver`:
 * one task per sub-topology (every topic has one partition), records piped into input topics
 * are processed at once (and records written to topics the topology reads, its repartition
 * topics included, are fed back to it, one at a time in Kafka Streams' order, each committed),
 * output topics are read back, stores are inspected, and the wall clock is mocked for
 * punctuators. State lives in a temporary state directory that `close()` deletes.
 *
 * Errors from processors surface from `pipeInput` as `StreamsProcessingError`.
 */
export class TopologyTestDriver implements OutputSource {
  private readonly collector = new InMemoryRecordCollector();
  private readonly tasks: StreamTask[] = [];
  private readonly readPositions = new Map<string, number>();
  private readonly inputOffsets = new Map<string, number>();
  private readonly queued = new RecordQueues();
  private globals!: DriverGlobalStores;
  private consumedUpTo = 0;
  private wallClock: number;
  private closed = false;

  private constructor(
    private readonly topology: Topology,
    private readonly stateDir: string,
    private readonly options: TopologyTestDriverOptions,
  ) {
    this.wallClock = options.initialWallClockTimeMs ?? 0;
    registerDriverTasks(this, this.tasks);
  }

  /** Builds the tasks, opens their stores and initializes their processors. */
  static async create(
    topology: Topology,
    options: TopologyTestDriverOptions = {},
  ): Promise<TopologyTestDriver> {
    const parent = options.config?.stateDir ?? tmpdir();
    mkdirSync(parent, { recursive: true });
    const stateDir = mkdtempSync(join(parent, 'topology-test-driver-'));
    const driver = new TopologyTestDriver(topology, stateDir, options);
    await driver.start();
    return driver;
  }

  get applicationId(): string {
    return this.config.applicationId;
  }

  private get config() {
    return driverConfig(this.options.config, this.stateDir);
  }

  private async start(): Promise<void> {
    this.topology.applyCacheSize(this.config.statestoreCacheMaxBytes);
    this.globals = await DriverGlobalStores.open(
      this.topology,
      this.config,
      () => this.wallClock,
      (message) => this.options.logger?.warn?.(message),
    );
    const config = driverTaskConfig(this.config, this.globals.all);
    const cache = new RecordCache(config.statestoreCacheMaxBytes);
    for (const sub of this.topology.subtopologies()) {
      const id = new TaskId(sub.id, 0);
      const task = new StreamTask({
        id,
        topology: this.topology,
        subtopology: sub,
        config,
        taskDir: join(this.stateDir, config.applicationId, id.toString()),
        recordCollector: this.collector,
        cache,
        resolveTopic: (t) => this.physical(t),
        partitionsFor: () => 1,
        now: () => this.wallClock,
        log: this.options.logger?.warn?.bind(this.options.logger),
      });
      await task.initializeStores();
      task.initializeTopology();
      this.tasks.push(task);
    }
  }

  createInputTopic<K, V>(
    topic: string,
    keySerde: Serde<K>,
    valueSerde: Serde<V>,
    startTimestamp = 0,
    autoAdvanceMs = 0,
  ): TestInputTopic<K, V> {
    if (!this.reads(topic)) throw new Error(`no source of the topology reads topic '${topic}'`);
    return new TestInputTopic(
      topic,
      { pipe: (...args) => this.pipe(...args) },
      keySerde,
      valueSerde,
      startTimestamp,
      autoAdvanceMs,
    );
  }

  createOutputTopic<K, V>(
    topic: string,
    keySerde: Serde<K>,
    valueSerde: Serde<V>,
  ): TestOutputTopic<K, V> {
    return new TestOutputTopic(topic, this, keySerde, valueSerde);
  }

  /**
   * A key-value store with plain values, as Kafka Streams' driver's `getKeyValueStore`: the
   * DSL's stores keep a timestamp with every value, which this view drops (writes through it
   * take the wall clock's time). Use {@link getTimestampedKeyValueStore} to see the timestamps.
   *
   * @throws UnknownStateStoreError when the topology has no such store, or it is not a
   *   key-value store (use the getter of its kind).
   */
  getKeyValueStore<K, V>(name: string): KeyValueStore<K, V> {
    const store = this.storeOfKind(name, 'key-value');
    return isTimestamped(store)
      ? new PlainValueKeyValueStore<K, V>(
          store as TimestampedKeyValueStore<K, V>,
          () => this.wallClock,
        )
      : (store as KeyValueStore<K, V>);
  }

  /**
   * A key-value store whose values carry the timestamp of the record that wrote them (the
   * DSL's aggregation and table stores), as Kafka Streams' `getTimestampedKeyValueStore`.
   *
   * @throws UnknownStateStoreError when there is no such store, it is not a key-value store,
   *   or it keeps plain values (use {@link getKeyValueStore}).
   */
  getTimestampedKeyValueStore<K, V>(name: string): TimestampedKeyValueStore<K, V> {
    const store = this.timestamped(name, 'key-value', 'getKeyValueStore');
    return store as TimestampedKeyValueStore<K, V>;
  }

  /**
   * A window store's windows with plain values (a timestamped window store's timestamps are
   * dropped), as Kafka Streams' `getWindowStore`.
   *
   * @throws UnknownStateStoreError when there is no such store or it is not a window store.
   */
  getWindowStore<K, V>(name: string): ReadOnlyWindowStore<K, V> {
    const store = this.storeOfKind(name, 'window');
    return isTimestamped(store)
      ? unwrapWindowStore<K, V>(store as ReadOnlyWindowStore<K, ValueAndTimestamp<V>>)
      : (store as ReadOnlyWindowStore<K, V>);
  }

  /**
   * A window store whose values carry the timestamp of the record that wrote them (the DSL's
   * windowed aggregation stores), as Kafka Streams' `getTimestampedWindowStore`.
   * @throws UnknownStateStoreError when there is no such store, it is not a window store, or
   *   it keeps plain values (use {@link getWindowStore}).
   */
  getTimestampedWindowStore<K, V>(name: string): ReadOnlyWindowStore<K, ValueAndTimestamp<V>> {
    const store = this.timestamped(name, 'window', 'getWindowStore');
    return store as ReadOnlyWindowStore<K, ValueAndTimestamp<V>>;
  }

  /**
   * A session store (session-windowed aggregations, `Stores.sessionStoreBuilder`), as Kafka
   * Streams' `getSessionStore`.
   *
   * @throws UnknownStateStoreError when there is no such store or it is not a session store.
   */
  getSessionStore<K, AGG>(name: string): SessionStore<K, AGG> {
    return this.storeOfKind(name, 'session') as SessionStore<K, AGG>;
  }

  /**
   * A state store by name, as processors see it, cast to `S` without any check.
   *
   * @deprecated An unchecked cast (a DSL store holds `ValueAndTimestamp` values whatever `S`
   *   says): use {@link getKeyValueStore}, {@link getTimestampedKeyValueStore},
   *   {@link getWindowStore} or {@link getSessionStore}.
   * @throws UnknownStateStoreError when the topology has no such store.
   */
  getStateStore<S = StateStore>(name: string): S {
    return this.store(name) as unknown as S;
  }

  /** Advances the mocked wall clock and fires due wall-clock punctuators. */
  async advanceWallClockTime(ms: number): Promise<void> {
    this.wallClock += ms;
    for (const task of this.tasks) task.punctuateWallClock(this.wallClock);
    if (this.commitEveryRecord) await this.flushTasks();
    await this.processQueued();
  }

  /** Flushes caches and stores of every task (what a commit does). */
  async commit(): Promise<void> {
    await this.flushTasks();
    await this.processQueued();
  }

  /** Every record written to `topic` so far (raw bytes), including ones already read. */
  producedRecords(topic: string): TestRecord<Buffer | null, Buffer | null>[] {
    return this.collector.recordsFor(topic).map((r) => rawRecord(r));
  }

  /** Task metrics summed over tasks: processed, skipped, dead-lettered, dropped by the DSL. */
  metrics(): DriverMetrics {
    const sum = sumTaskMetrics(this.tasks);
    sum.skippedDeserialization += this.globals.skippedDeserialization;
    sum.skippedProcessing += this.globals.skippedProcessing;
    return sum;
  }

  /** Closes every task (flushing) and deletes the state directory. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      for (const task of this.tasks) await task.close(true);
      await this.globals.close();
    } finally {
      rmSync(this.stateDir, { recursive: true, force: true });
    }
  }

  readRaw(topic: string) {
    const records = this.collector.recordsFor(topic);
    const position = this.readPositions.get(topic) ?? 0;
    if (position >= records.length) return undefined;
    this.readPositions.set(topic, position + 1);
    return rawRecord(records[position]);
  }

  remaining(topic: string): number {
    return this.collector.recordsFor(topic).length - (this.readPositions.get(topic) ?? 0);
  }

  private store(name: string): StateStore {
    const global = this.globals.all.get(name);
    if (global) return global;
    for (const task of this.tasks) {
      const store = task.store(name);
      if (store) return store;
    }
    throw new UnknownStateStoreError(`the topology has no state store named '${name}'`);
  }

  private timestamped(name: string, kind: StoreKind, plainGetter: string): unknown {
    const store = this.storeOfKind(name, kind);
    if (isTimestamped(store)) return store;
    const why = `keeps plain values, without timestamps: use ${plainGetter}`;
    throw new UnknownStateStoreError(`state store '${name}' ${why}`);
  }

  private storeOfKind(name: string, kind: StoreKind): unknown {
    const store = this.store(name);
    const actual = kindOf(store);
    if (actual !== kind) {
      throw new UnknownStateStoreError(
        `state store '${name}' is a ${actual} store, not a ${kind} store: use ${GETTERS[actual]}`,
      );
    }
    return store;
  }

  private get commitEveryRecord(): boolean {
    return this.options.commitEveryRecord ?? true;
  }

  private async pipe(
    topic: string,
    key: Buffer | null,
    value: Buffer | null,
    timestamp: number,
    headers: Headers,
  ): Promise<void> {
    if (this.closed) throw new Error('the driver is closed');
    this.queued.add({ topic, key, value, timestamp, headers });
    await this.processQueued();
    for (const task of this.tasks) task.punctuateWallClock(this.wallClock);
    if (this.commitEveryRecord) await this.commit();
  }

  private async flushTasks(): Promise<void> {
    for (const task of this.tasks) {
      await task.flushState();
      task.markCommitted();
    }
  }

  /**
   * Processes the waiting records as Kafka Streams' driver does: one at a time, in its task's
   * order (see `RecordQueues`), committing after each (unless `commitEveryRecord` is off);
   * records written to topics the topology reads (repartition topics, or its own source
   * topics) join the queue as they are written.
   */
  private async processQueued(): Promise<void> {
    this.captureWritten();
    for (let record = this.queued.poll(); record; record = this.queued.poll()) {
      await this.deliver(record);
      if (this.commitEveryRecord) await this.flushTasks();
      this.captureWritten();
    }
  }

  private async deliver(record: QueuedRecord): Promise<void> {
    const { topic, key, value, timestamp, headers } = record;
    if (this.globals.reads(topic)) return this.globals.process(record);
    const task = this.readingTask(topic);
    if (!task) return;
    const offset = this.inputOffsets.get(topic) ?? 0;
    this.inputOffsets.set(topic, offset + 1);
    await task.process([{ topic, partition: 0, offset, timestamp, key, value, headers }]);
  }

  /** Queues the records written since the last call to topics the topology reads. */
  private captureWritten(): void {
    while (this.consumedUpTo < this.collector.records.length) {
      const record = this.collector.records[this.consumedUpTo++];
      if (this.reads(record.topic)) {
        this.queued.add({ ...record, headers: record.headers ?? {} });
      }
    }
  }

  /** Whether a task or a global store reads `physicalTopic`. */
  private reads(physicalTopic: string): boolean {
    return this.readingTask(physicalTopic) !== undefined || this.globals.reads(physicalTopic);
  }

  private readingTask(physicalTopic: string): StreamTask | undefined {
    for (const sub of this.topology.subtopologies()) {
      if (sub.sourceTopics.some((t) => this.physical(t) === physicalTopic))
        return this.tasks.find((t) => t.id.subtopologyId === sub.id);
    }
    return undefined;
  }

  private physical(logical: string): string {
    return this.topology.internalTopicDefs().has(logical)
      ? `${this.config.applicationId}-${logical}`
      : logical;
  }
}
