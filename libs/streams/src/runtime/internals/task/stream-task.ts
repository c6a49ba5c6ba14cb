import { StreamsProcessingError } from '../../../errors/streams-processing.error';
import { DeadLetterWriter } from './dead-letter-writer';
import { ProcessingErrors } from './processing-errors';
import type { RecordCollector } from '../../../processor/internals/record-collector';
import type { SourceNodeDef, Subtopology } from '../../../processor/internals/topology-nodes';
import type { RecordMetadata } from '../../../processor/processor-context';
import { PunctuationType } from '../../../processor/punctuation';
import { Record } from '../../../processor/record';
import type { TaskId } from '../../../processor/task-id';
import type { Topology } from '../../../processor/topology';
import type { RecordCache } from '../../../state/internals/record-cache';
import type { StateStoreContext, StoreRegistration } from '../../../processor/state-store-context';
import type { StateStore } from '../../../processor/state-store';
import type { ConsumedRecord } from '../../../client/consumed-record';
import { PunctuationSchedule } from './punctuation-schedule';
import type { ResolvedStreamsConfig } from '../../streams-config';
import { processorGraph, type TaskProcessorNode } from './task-processor-node';
import { preparedBatch, type PreparedBatch, type PreparedRecord } from './prepared-batch';
import { SinkRecordWriter } from './sink-record-writer';
import { SourceRecordReader } from './source-record-reader';
import { TaskMetrics } from './task-metrics';
import { taskProcessorContext, type TaskContextHost } from './task-processor-context';
import { ProcessorNodeMetrics } from '../metrics/processor-node-metrics';
import type { ThreadMetrics } from '../metrics/thread-metrics';
import type { TaskTopics } from './task-topics';
import { TaskInputOffsets, type InputOffset } from './task-input-offsets';
import { PartitionGroup } from './partition-group';

/** What a task needs from the runtime that hosts it (the stream thread or the test driver). */
export interface StreamTaskOptions extends TaskTopics {
  readonly id: TaskId;
  readonly topology: Topology;
  readonly subtopology: Subtopology;
  readonly config: ResolvedStreamsConfig;
  readonly taskDir: string;
  readonly recordCollector: RecordCollector;
  readonly cache?: RecordCache;
  /** Wall-clock source; the test driver supplies a mock clock. */
  readonly now?: () => number;
  readonly log?: (message: string) => void;
  /** The sensors of the stream thread that runs it (processing and punctuation times). */
  readonly threadMetrics?: ThreadMetrics;
}

/**
 * One task: a running copy of a sub-topology for one input partition (or one partition of each
 * co-partitioned input), with its own processors and state stores. Broker-agnostic: the stream
 * thread feeds it fetched batches and drives commits; the test driver does the same without a
 * broker.
 *
 * A batch is processed synchronously after one prefetch (one multi-get per store), so a record
 * never waits on RocksDB. Errors from processors become {@link StreamsProcessingError}.
 *
 * Its metrics (Kafka Streams' task and processor-node metrics): {@link metrics}, and each
 * node's sensors (end-to-end latencies at INFO, process calls and latencies at DEBUG), recorded
 * against the wall-clock time read once per batch, as Kafka Streams reads it once per loop.
 */
export class StreamTask {
  readonly id: TaskId;
  readonly metrics: TaskMetrics;
  private readonly nodes = new Map<string, TaskProcessorNode>();
  private readonly sourcesByTopic = new Map<string, TaskProcessorNode>();
  private readonly storesByName = new Map<string, StateStore>();
  private readonly registrations: StoreRegistration[] = [];
  private readonly punctuations = new PunctuationSchedule();
  /** Its position and what the next commit covers, per input partition. */
  readonly offsets = new TaskInputOffsets();
  /** Fetched records not processed yet, and when they may be (`max.task.idle.ms`). */
  readonly input: PartitionGroup;
  private readonly now: () => number;
  private readonly log: (message: string) => void;
  private currentNode: TaskProcessorNode | undefined;
  private currentMetadata: RecordMetadata | undefined;
  /** The input record being processed, as consumed (for dead letters). */
  private currentSource: ConsumedRecord | undefined;
  private currentTimestamp = 0;
  private streamTime = -1;
  private wallClock = 0;
  /** The wall-clock time read for the batch being processed (end-to-end latencies). */
  private clockMs = 0;
  private readonly contextHost: TaskContextHost;
  private commitRequested = false;
  private processedSinceCommit = 0;
  private readonly reader: SourceRecordReader;
  private readonly writer: SinkRecordWriter;
  private readonly errors: ProcessingErrors;
  private initialized = false;

  constructor(private readonly options: StreamTaskOptions) {
    this.id = options.id;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? ((m) => console.warn(m));
    this.wallClock = this.now();
    this.metrics = new TaskMetrics(options.config.metricsRecordingLevel, this.wallClock);
    this.contextHost = this.processorContextHost();
    const inputs = options.subtopology.sourceTopics.map((t) => options.resolveTopic(t));
    const partitions = inputs.map((topic) => ({ topic, partition: this.id.partition }));
    this.input = new PartitionGroup(partitions, options.config.maxTaskIdleMs, this.metrics);
    const deadLetters = new DeadLetterWriter({
      recordCollector: options.recordCollector,
      partitionFor: (topic, key) => this.writer.partitionFor(topic, key),
      metrics: this.metrics,
    });
    const common = {
      taskId: this.id.toString(),
      config: options.config,
      metrics: this.metrics,
      log: this.log,
      deadLetters,
    };
    this.writer = new SinkRecordWriter({
      ...common,
      recordCollector: options.recordCollector,
      resolveTopic: options.resolveTopic,
      partitionsFor: options.partitionsFor,
      currentSource: () => this.currentSource,
    });
    this.reader = new SourceRecordReader(common);
    this.errors = new ProcessingErrors(common);
  }

  /** Builds and opens the task's stores; returns their registrations (for restore). */
  async initializeStores(): Promise<readonly StoreRegistration[]> {
    const { topology, subtopology, config, taskDir, recordCollector, cache } = this.options;
    const context: StateStoreContext = {
      applicationId: config.applicationId,
      taskId: this.id,
      appConfigs: config as unknown as { readonly [name: string]: unknown },
      taskDir,
      recordCollector,
      cache,
      currentTimestamp: () => this.currentTimestamp,
      register: (registration) => this.registrations.push(registration),
    };
    for (const name of subtopology.stores) {
      const builder = topology.stores().get(name)!;
      const store = builder.build();
      await store.init(context);
      this.storesByName.set(name, store);
    }
    return this.registrations;
  }

  /** Creates the processors and calls their `init`. Call after the stores are restored. */
  initializeTopology(): void {
    const { topology, subtopology, resolveTopic } = this.options;
    const now = this.now();
    const process = this.options.config.metricsRecordingLevel !== 'INFO';
    processorGraph(topology, subtopology, resolveTopic, this.nodes, this.sourcesByTopic, (node) => {
      const source = node.def.kind === 'source';
      return ProcessorNodeMetrics.forNode(source, node.children.length === 0, process, now);
    });
    for (const node of this.nodes.values()) {
      if (!node.processor?.init) continue;
      const context = taskProcessorContext(node, this.contextHost);
      this.runInNode(node, () => node.processor!.init!(context), false);
    }
    this.initialized = true;
  }

  /** The task's store by name (for interactive queries and tests). */
  store(name: string): StateStore | undefined {
    return this.storesByName.get(name);
  }

  storeNames(): string[] {
    return [...this.storesByName.keys()];
  }

  /** Its processor nodes by name, with their sensors (once the topology is initialized). */
  processorNodes(): ReadonlyMap<string, TaskProcessorNode> {
    return this.nodes;
  }

  storeRegistrations(): readonly StoreRegistration[] {
    return this.registrations;
  }

  /**
   * Processes records of its input partitions in the order given (the thread takes them from
   * {@link input}): deserialized, prefetched in one multi-get, then run synchronously.
   */
  async process(records: readonly ConsumedRecord[]): Promise<void> {
    const batch = this.prepare(records);
    await batch.loaded;
    this.run(batch);
  }

  /**
   * The first half of {@link process}: deserializes `records` and starts the prefetch, runs
   * nothing. The stream thread prepares a slice while it runs the one before; each is
   * {@link run} after its `loaded`, in order (a write made meanwhile wins over the prefetch).
   */
  prepare(records: readonly ConsumedRecord[]): PreparedBatch {
    if (!this.initialized) throw new Error(`task ${this.id.toString()} is not initialized`);
    const ready: PreparedRecord[] = [];
    const skipped: ConsumedRecord[] = [];
    const sends: (() => void)[] = []; // dead letters, sent when the batch runs
    for (const raw of records) {
      // After a rebalance the consumer fetches again from the committed offset; records this
      // task already processed (and holds in its state) are skipped, never counted twice.
      if (this.offsets.alreadyProcessed(raw)) continue;
      const prepared = this.deserialize(raw, sends);
      if (prepared) ready.push(prepared);
      else skipped.push(raw);
    }
    return preparedBatch(ready, skipped, sends);
  }

  /** Processes a batch from {@link prepare}, synchronously; call once its `loaded` resolved. */
  run(batch: PreparedBatch): void {
    const started = performance.now();
    this.clockMs = this.now();
    const lateness = this.metrics.lateness;
    for (const send of batch.sends) send();
    for (const raw of batch.skipped) this.offsets.markConsumed(raw);
    for (const { source, raw, record } of batch.ready) {
      this.currentMetadata = {
        topic: raw.topic,
        partition: raw.partition,
        offset: raw.offset,
        headers: raw.headers,
      };
      this.currentSource = raw;
      this.currentTimestamp = record.timestamp;
      lateness?.record(Math.max(0, this.streamTime - record.timestamp));
      if (record.timestamp > this.streamTime) this.streamTime = record.timestamp;
      const sensors = source.metrics;
      const mark = sensors === undefined ? 0 : sensors.start();
      sensors?.entered(record.timestamp, this.clockMs);
      for (const child of source.children) this.processNode(child, record);
      sensors?.processed(mark, record.timestamp, this.clockMs);
      this.offsets.markConsumed(raw);
      this.metrics.processed++;
      this.processedSinceCommit++;
      if (this.punctuations.size > 0) this.punctuate(PunctuationType.STREAM_TIME, this.streamTime);
    }
    this.currentMetadata = undefined;
    this.currentSource = undefined;
    this.recordSlice(batch.ready.length, performance.now() - started);
  }

  /** A slice of `records` records took `elapsedMs` (the thread's and the task's latencies). */
  private recordSlice(records: number, elapsedMs: number): void {
    if (records === 0) return;
    this.options.threadMetrics?.recordProcessing(records, elapsedMs);
    this.metrics.processLatency?.record((elapsedMs * 1e6) / records);
  }

  /** Fires due wall-clock punctuators; the processing loop calls it regularly. */
  punctuateWallClock(now = this.now()): number {
    this.wallClock = now;
    this.clockMs = now;
    return this.punctuate(PunctuationType.WALL_CLOCK_TIME, now);
  }

  /** Flushes caches and stores (cache flushes forward downstream, reaching the collector). */
  async flushState(): Promise<void> {
    this.clockMs = this.now(); // what the caches forward reaches terminal nodes now
    for (const store of this.storesByName.values()) {
      this.currentMetadata = undefined;
      await store.flush();
    }
  }

  /** Next offsets to commit per input partition (offset of the last processed record + 1). */
  offsetsToCommit(): { topic: string; partition: number; offset: number }[] {
    return this.offsets.toCommit();
  }

  /** Whether anything was processed or requested since the last {@link markCommitted}. */
  commitNeeded(): boolean {
    return this.processedSinceCommit > 0 || this.commitRequested || this.offsets.uncommitted;
  }

  /** A processor called `context.commit()`. */
  commitRequestedByProcessor(): boolean {
    return this.commitRequested;
  }

  markCommitted(): void {
    this.processedSinceCommit = 0;
    this.commitRequested = false;
    this.offsets.committed();
  }

  /** Closes processors and stores; `clean` flushes first (a dirty close writes nothing more). */
  async close(clean: boolean): Promise<void> {
    if (this.initialized) {
      for (const node of this.nodes.values()) {
        if (node.processor?.close) {
          try {
            this.runInNode(node, () => node.processor!.close!(), false);
          } catch (error) {
            if (clean) throw error;
          }
        }
      }
    }
    this.initialized = false;
    this.input.clear();
    if (clean) await this.flushState();
    for (const store of this.storesByName.values()) {
      try {
        await store.close();
      } catch (error) {
        if (clean) throw error;
      }
    }
  }

  currentStreamTime(): number {
    return this.streamTime;
  }

  private deserialize(raw: ConsumedRecord, sends: (() => void)[]): PreparedRecord | undefined {
    const source = this.sourcesByTopic.get(raw.topic);
    if (!source)
      throw new StreamsProcessingError(`no source reads topic ${raw.topic}`, this.id.toString());
    const record = this.reader.read(raw, source.def as SourceNodeDef, this.streamTime, sends);
    return record && { source, raw, record };
  }

  private processNode(node: TaskProcessorNode, record: Record<unknown, unknown>): void {
    const sensors = node.metrics;
    const mark = sensors === undefined ? 0 : sensors.start();
    if (node.def.kind === 'sink') this.writer.send(node.def, record, this.currentMetadata);
    else this.processInNode(node, record);
    sensors?.processed(mark, record.timestamp, this.clockMs);
  }

  private processInNode(node: TaskProcessorNode, record: Record<unknown, unknown>): void {
    const previous = this.currentNode;
    const previousTimestamp = this.currentTimestamp;
    this.currentNode = node;
    this.currentTimestamp = record.timestamp;
    try {
      node.processor!.process(record);
    } catch (error) {
      const metadata = this.currentMetadata;
      const source = metadata && this.currentSource;
      this.errors.onError({ nodeName: node.def.name, record, metadata, source }, error);
    } finally {
      this.currentNode = previous;
      this.currentTimestamp = previousTimestamp;
    }
  }

  private punctuate(type: PunctuationType, time: number): number {
    return this.punctuations.fire(type, time, (nodeName, fn) => {
      const node = this.nodes.get(nodeName)!;
      this.currentMetadata = undefined;
      const started = performance.now();
      this.runInNode(node, fn, true);
      this.options.threadMetrics?.punctuate.record(performance.now() - started);
    });
  }

  /** Runs `fn` as `node`; a punctuator's error (`handled`) goes to the processing handler. */
  private runInNode(node: TaskProcessorNode, fn: () => void, handled: boolean): void {
    const previous = this.currentNode;
    this.currentNode = node;
    try {
      fn();
    } catch (error) {
      if (handled) this.errors.onError({ nodeName: node.def.name }, error);
      else this.errors.failed({ nodeName: node.def.name }, error);
    } finally {
      this.currentNode = previous;
    }
  }

  /** Where it starts: records below these (committed) offsets are skipped if fetched again. */
  seedInputPositions(offsets: readonly InputOffset[]): void {
    this.offsets.seed(offsets);
  }

  /** Next offset to process per input partition (for read-your-writes position bounds). */
  inputPositions(): InputOffset[] {
    return this.offsets.positionList();
  }

  private processorContextHost(): TaskContextHost {
    return {
      id: this.id,
      config: this.options.config,
      recordMetadata: () => this.currentMetadata,
      process: (child, record) => this.processNode(child, record),
      store: (name) => this.storesByName.get(name),
      schedule: (...args) => this.punctuations.schedule(...args),
      requestCommit: () => void (this.commitRequested = true),
      streamTime: () => this.streamTime,
      wallClock: () => this.wallClock,
      now: () => this.now(),
      recordDropped: (reason) => this.metrics.dropped(reason),
    };
  }
}
