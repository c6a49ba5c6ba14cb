import type { FetchedRecord } from '../../../client/assigned-partition-reader';
import type { ConsumedRecord } from '../../../client/consumed-record';
import type { StreamsLogger } from '../../../logging/logger';
import type { SourceNodeDef } from '../../../processor/internals/topology-nodes';
import type { Processor } from '../../../processor/processor';
import { globalProcessorContext } from '../../../processor/internals/global-processor-context';
import type { RecordMetadata } from '../../../processor/processor-context';
import { Record } from '../../../processor/record';
import type { StateStore } from '../../../processor/state-store';
import { TaskId } from '../../../processor/task-id';
import type { Topology } from '../../../processor/topology';
import { TaskEngines } from '../../../state/internals/task-engines';
import {
  decideGlobalDeserializationError,
  decideGlobalProcessingError,
} from './global-record-errors';
import type { ResolvedStreamsConfig } from '../../streams-config';
import { deserializeSource } from '../task/source-deserializer';

/** The task id global stores are opened and processed under (they belong to no task). */
export const GLOBAL_TASK_ID = new TaskId(0, 0);

/** One global store's topic as the updater runs it: its source and update processor. */
interface GlobalTopicRun {
  readonly source: SourceNodeDef;
  readonly processorName: string;
  readonly processor: Processor<unknown, unknown, unknown, unknown>;
}

/** What a {@link GlobalStoreUpdater} opens its stores with. */
export interface GlobalStoreUpdaterOptions {
  readonly topology: Topology;
  readonly config: ResolvedStreamsConfig;
  /** `<stateDir>/<applicationId>/global`: where persistent global stores live. */
  readonly globalDir: string;
  readonly logger: StreamsLogger;
  /** The process-wide record cache (caching layers of `addGlobalStore`'s stores). */
  readonly cache?: object;
}

/**
 * The global stores of a topology and their update processors (Kafka Streams'
 * `GlobalStateUpdateTask`): each record of a global topic is deserialized with its source's
 * serdes (or the defaults), stamped by its timestamp extractor, and handed to the store's
 * update processor: `globalTable`'s table source puts it as it is, `addGlobalStore`'s
 * processor does what it does. Global processors forward nothing and have no stream time nor
 * punctuations, as in Kafka Streams.
 *
 * Errors: a record that does not deserialize goes to the deserialization exception handler,
 * and an error of the update processor to the processing exception handler, as in a task
 * (CONTINUE: skipped, counted and logged); FAIL throws {@link StreamsProcessingError} naming
 * the record: the client stops (fix the data, the serde or the processor, or choose a skipping
 * handler). No dead letter is written for a global topic's record, even with a dead-letter
 * topic set (a warning says so): every instance reads a global topic whole, at every restore
 * from scratch too, so each would write its own copy of every dead letter each time. Kafka
 * Streams 4.x writes none either (its global processors' handler warns "Dead letter queue
 * records cannot be sent for global state/KTable processors").
 */
export class GlobalStoreUpdater {
  /** The opened stores by name: what the tasks' processors and `store()` read. */
  readonly stores = new Map<string, StateStore>();
  private readonly runs = new Map<string, GlobalTopicRun>();
  private readonly engines = new TaskEngines();
  private metadata: RecordMetadata | undefined;
  private timestamp = 0;
  /** Records skipped because they did not deserialize (the handler said continue). */
  skipped = 0;
  /** Records skipped because their update processor failed (the handler said continue). */
  skippedProcessing = 0;

  constructor(private readonly options: GlobalStoreUpdaterOptions) {}

  /** The topics of the global stores, each read whole. */
  topics(): string[] {
    return [...this.options.topology.globalStores().values()].map((def) => def.topic);
  }

  /** The name of the global store `topic` feeds (the topic itself when none does). */
  storeOf(topic: string): string {
    const def = [...this.options.topology.globalStores().values()].find((d) => d.topic === topic);
    return def?.storeName ?? topic;
  }

  /**
   * Whether the store `topic` feeds keeps its data over a restart (RocksDB): only then may a
   * checkpoint of `topic` be written or resumed from (an in-memory store restores whole).
   */
  persistent(topic: string): boolean {
    const def = [...this.options.topology.globalStores().values()].find((d) => d.topic === topic);
    return def !== undefined && this.stores.get(def.storeName)?.persistent === true;
  }

  /**
   * Opens every global store, then creates and initializes the update processors.
   *
   * @throws the store's error when one cannot open (a locked or corrupt RocksDB directory):
   *   a startup error.
   */
  async open(): Promise<void> {
    const { topology, config, globalDir, cache } = this.options;
    const appConfigs = this.engines.attachTo(
      config as unknown as { readonly [k: string]: unknown },
    );
    for (const def of topology.globalStores().values()) {
      const store = def.builder.build();
      await store.init({
        applicationId: config.applicationId,
        taskId: GLOBAL_TASK_ID,
        taskDir: globalDir,
        appConfigs,
        cache,
        currentTimestamp: () => this.timestamp,
        register: () => undefined,
      });
      this.stores.set(def.storeName, store);
    }
    const context = globalProcessorContext({
      applicationId: config.applicationId,
      taskId: GLOBAL_TASK_ID,
      appConfigs: config as unknown as { readonly [name: string]: unknown },
      stores: this.stores,
      recordMetadata: () => this.metadata,
      now: () => Date.now(),
    });
    for (const def of topology.globalStores().values()) {
      const source = topology.nodeDefs().get(def.sourceName);
      const node = topology.nodeDefs().get(def.processorName);
      if (source?.kind !== 'source' || node?.kind !== 'processor') continue;
      const processor = node.supplier();
      processor.init?.(context);
      this.runs.set(def.topic, { source, processorName: def.processorName, processor });
    }
  }

  /**
   * Updates the store of `topic` with `records` of one partition, in offset order (the
   * processor's prefetch first, when it has one). Returns how many records were processed
   * (those skipped by the deserialization or the processing exception handler are not).
   *
   * @throws StreamsProcessingError as the class says.
   */
  async update(
    topic: string,
    partition: number,
    records: readonly FetchedRecord[],
  ): Promise<number> {
    const run = this.runs.get(topic);
    if (run === undefined || records.length === 0) return 0;
    const ready: { raw: FetchedRecord; record: Record<unknown, unknown> }[] = [];
    for (const raw of records) {
      const record = this.read(run.source, topic, partition, raw);
      if (record !== undefined) ready.push({ raw, record });
    }
    await run.processor.prefetch?.(ready.map((r) => r.record));
    let processed = 0;
    for (const { raw, record } of ready) {
      this.timestamp = record.timestamp;
      this.metadata = { topic, partition, offset: raw.offset, headers: record.headers };
      try {
        run.processor.process(record);
        processed++;
      } catch (error) {
        decideGlobalProcessingError(
          this.options.config,
          (message) => this.options.logger.warn(message),
          {
            processorName: run.processorName,
            taskId: 'global',
            topic,
            partition,
            offset: raw.offset,
            record,
            rawKey: raw.key,
            rawValue: raw.value,
          },
          error,
        );
        this.skippedProcessing++;
      } finally {
        this.metadata = undefined;
      }
    }
    if (this.engines.overWriteBehindLimit()) await this.engines.writeHeld();
    return processed;
  }

  /**
   * Makes every update so far durable: the stores' caches flushed, then their engines (call
   * before writing the checkpoint, which must never claim more than the files hold).
   *
   * @throws the store's or engine's error: do not write the checkpoint.
   */
  async flush(): Promise<void> {
    for (const store of this.stores.values()) await store.flush();
    await this.engines.flush();
  }

  /** Closes the update processors and the stores (errors are logged). */
  async close(): Promise<void> {
    for (const run of this.runs.values()) {
      try {
        run.processor.close?.();
      } catch (error) {
        this.options.logger.warn(`closing a global update processor failed: ${String(error)}`);
      }
    }
    for (const [name, store] of this.stores) {
      await store
        .close()
        .catch((error: unknown) =>
          this.options.logger.warn(`closing global store '${name}' failed: ${String(error)}`),
        );
    }
  }

  /** The record to process, or `undefined` when it is skipped (see the class). */
  private read(
    source: SourceNodeDef,
    topic: string,
    partition: number,
    raw: FetchedRecord,
  ): Record<unknown, unknown> | undefined {
    const { config, logger } = this.options;
    // Headers in kafkajs' shape, as the stream tasks hand them to processors.
    const headers = (raw.headers ?? {}) as ConsumedRecord['headers'];
    let key: unknown;
    let value: unknown;
    try {
      ({ key, value } = deserializeSource(source, config, raw, topic));
    } catch (error) {
      const consumed = { ...raw, topic, partition, headers };
      decideGlobalDeserializationError(config, (m) => logger.warn(m), consumed, error);
      this.skipped++;
      return undefined;
    }
    const timestamp = source.timestampExtractor
      ? source.timestampExtractor(
          { topic, partition, offset: raw.offset, timestamp: raw.timestamp },
          key,
          value,
          -1,
        )
      : raw.timestamp;
    return new Record(key, value, timestamp, headers);
  }
}
