import { join } from 'node:path';
import type { QueuedRecord } from './record-queues';
import {
  decideGlobalDeserializationError,
  decideGlobalProcessingError,
  globalProcessorContext,
} from '@nest-streams/streams/internals';
import {
  type Processor,
  type RecordMetadata,
  Record,
  type ResolvedStreamsConfig,
  type Serde,
  type StateStore,
  TaskId,
  type Topology,
} from '@nest-streams/streams';

/** One global store as the driver runs it: its store, source and update processor. */
interface GlobalStoreRun {
  readonly store: StateStore;
  readonly processorName: string;
  readonly processor: Processor<unknown, unknown, unknown, unknown>;
  readonly keySerde: Serde<unknown>;
  readonly valueSerde: Serde<unknown>;
  readonly extract: (record: QueuedRecord, offset: number, key: unknown, value: unknown) => number;
}

/**
 * The global stores of a topology in the TopologyTestDriver (Kafka Streams' driver runs a
 * global task the same way): each store is opened under `<stateDir>/<applicationId>/global`,
 * its update processor (`globalTable`'s table source, or `addGlobalStore`'s) gets every record
 * piped to the store's topic at once, and the tasks' processors reach the stores through
 * `getStateStore`'s fallback (`InternalConfig.GLOBAL_STATE_STORES`).
 *
 * Errors: a global update processor calling `schedule` or `currentStreamTimeMs` gets an error
 * (global processors have neither, as in Kafka Streams); one asking for a store other than a
 * global one gets `UnknownStateStoreError`. A record that does not deserialize, or that the
 * update processor fails on, goes to the exception handlers as in `KafkaStreams`' global
 * thread (CONTINUE skips and counts it; FAIL throws `StreamsProcessingError` from the pipe).
 */
export class DriverGlobalStores {
  private readonly runs = new Map<string, GlobalStoreRun>();
  private readonly stores = new Map<string, StateStore>();
  private readonly offsets = new Map<string, number>();
  private metadata: RecordMetadata | undefined;
  private timestamp = 0;
  /** Records skipped by the deserialization exception handler. */
  skippedDeserialization = 0;
  /** Records skipped by the processing exception handler. */
  skippedProcessing = 0;

  private constructor(
    private readonly config: ResolvedStreamsConfig,
    private readonly warn: (message: string) => void,
  ) {}

  /** Opens `topology`'s global stores and initializes their update processors. */
  static async open(
    topology: Topology,
    config: ResolvedStreamsConfig,
    now: () => number,
    warn: (message: string) => void = () => undefined,
  ): Promise<DriverGlobalStores> {
    const globals = new DriverGlobalStores(config, warn);
    const taskId = new TaskId(0, 0);
    for (const def of topology.globalStores().values()) {
      const store = def.builder.build();
      await store.init({
        applicationId: config.applicationId,
        taskId,
        taskDir: join(config.stateDir, config.applicationId, 'global'),
        appConfigs: config as unknown as { readonly [name: string]: unknown },
        currentTimestamp: () => globals.timestamp,
        register: () => undefined,
      });
      globals.stores.set(def.storeName, store);
    }
    for (const def of topology.globalStores().values()) {
      const source = topology.nodeDefs().get(def.sourceName);
      const node = topology.nodeDefs().get(def.processorName);
      if (source?.kind !== 'source' || node?.kind !== 'processor') continue;
      const processor = node.supplier();
      processor.init?.(
        globalProcessorContext({
          applicationId: config.applicationId,
          taskId,
          appConfigs: config as unknown as { readonly [name: string]: unknown },
          stores: globals.stores,
          recordMetadata: () => globals.metadata,
          now,
        }),
      );
      globals.runs.set(def.topic, {
        store: globals.stores.get(def.storeName)!,
        processorName: def.processorName,
        processor,
        keySerde: source.keySerde ?? config.defaultKeySerde,
        valueSerde: source.valueSerde ?? config.defaultValueSerde,
        extract: (record, offset, key, value) =>
          source.timestampExtractor
            ? source.timestampExtractor({ ...record, partition: 0, offset }, key, value, -1)
            : record.timestamp,
      });
    }
    return globals;
  }

  /** Whether `topic` is a global store's topic. */
  reads(topic: string): boolean {
    return this.runs.has(topic);
  }

  /** The opened global stores by name (what the tasks' processors read). */
  get all(): ReadonlyMap<string, StateStore> {
    return this.stores;
  }

  /**
   * Updates the global store of `record.topic` with `record`, then flushes the stores (Kafka
   * Streams' driver flushes the global state after every global record too).
   */
  async process(record: QueuedRecord): Promise<void> {
    const run = this.runs.get(record.topic)!;
    const offset = this.offsets.get(record.topic) ?? 0;
    this.offsets.set(record.topic, offset + 1);
    let key: unknown;
    let value: unknown;
    try {
      key = record.key === null ? null : run.keySerde.deserialize(record.key, record.topic);
      value = record.value === null ? null : run.valueSerde.deserialize(record.value, record.topic);
    } catch (error) {
      const consumed = { ...record, partition: 0, offset, headers: record.headers ?? {} };
      decideGlobalDeserializationError(this.config, this.warn, consumed, error);
      this.skippedDeserialization++;
      return;
    }
    this.timestamp = run.extract(record, offset, key, value);
    this.metadata = {
      topic: record.topic,
      partition: 0,
      offset,
      headers: record.headers,
    };
    const input = new Record(key, value, this.timestamp, record.headers);
    try {
      run.processor.process(input);
    } catch (error) {
      decideGlobalProcessingError(
        this.config,
        this.warn,
        {
          processorName: run.processorName,
          taskId: 'global',
          topic: record.topic,
          partition: 0,
          offset,
          record: input,
          rawKey: record.key,
          rawValue: record.value,
        },
        error,
      );
      this.skippedProcessing++;
    } finally {
      this.metadata = undefined;
    }
    await this.flush();
  }

  /** Flushes every global store. */
  async flush(): Promise<void> {
    for (const store of this.stores.values()) await store.flush();
  }

  /** Closes the update processors and the stores. */
  async close(): Promise<void> {
    for (const run of this.runs.values()) run.processor.close?.();
    for (const store of this.stores.values()) await store.close();
  }
}
