import { DefaultStreamPartitioner } from '../../../cluster/default-stream-partitioner';
import { StreamsProcessingError } from '../../../errors/streams-processing.error';
import type { RecordCollector } from '../../../processor/internals/record-collector';
import type { SinkNodeDef } from '../../../processor/internals/topology-nodes';
import type { RecordMetadata } from '../../../processor/processor-context';
import type { Record } from '../../../processor/record';
import { HandlerResponse } from '../../exception-handlers';
import type { ResolvedStreamsConfig } from '../../streams-config';
import type { TaskMetrics } from './task-metrics';
import type { TaskTopics } from './task-topics';

const partitioner = new DefaultStreamPartitioner();

/** What a {@link SinkRecordWriter} writes with: its task's settings, collector and counters. */
export interface SinkRecordWriterOptions extends TaskTopics {
  readonly taskId: string;
  readonly config: ResolvedStreamsConfig;
  readonly recordCollector: RecordCollector;
  readonly metrics: TaskMetrics;
  readonly log: (message: string) => void;
}

/**
 * A task's output side: serializes a sink's records with the sink's serdes (or the defaults),
 * picks the partition (the sink's partitioner, else murmur2 of the key bytes as Kafka's
 * producer, else round robin for `null` keys) and hands them to the record collector.
 *
 * Errors: a record that cannot be serialized goes to the production-exception handler; when it
 * answers FAIL, `send` throws {@link StreamsProcessingError} naming the input record being
 * processed (fix the serde or the data, or choose CONTINUE to drop such records, counted in
 * `skippedProduction`).
 */
export class SinkRecordWriter {
  private nullKeyCounter = 0;

  constructor(private readonly options: SinkRecordWriterOptions) {}

  /** Writes `record` to the sink's topic; `origin` is the input record being processed. */
  send(
    def: SinkNodeDef,
    record: Record<unknown, unknown>,
    origin: RecordMetadata | undefined,
  ): void {
    const { config, resolveTopic, partitionsFor, metrics } = this.options;
    const topic = resolveTopic(def.topic);
    let key: Buffer | null;
    let value: Buffer | null;
    try {
      key =
        record.key === null || record.key === undefined
          ? null
          : (def.keySerde ?? config.defaultKeySerde).serialize(record.key, topic);
      value =
        record.value === null || record.value === undefined
          ? null
          : (def.valueSerde ?? config.defaultValueSerde).serialize(record.value, topic);
    } catch (error) {
      // An output that cannot be serialized goes to the production-exception handler.
      const err = error instanceof Error ? error : new Error(String(error));
      const response = config.productionExceptionHandler.handle(
        { topic, key: record.key, value: record.value },
        err,
        this.options.log,
      );
      if (response === HandlerResponse.CONTINUE) {
        metrics.skippedProduction++;
        this.options.log(
          `dropping an output record to ${topic}: ${err.message} (production handler: continue)`,
        );
        return;
      }
      throw new StreamsProcessingError(
        `an output record to ${topic} could not be serialized and the production handler chose FAIL: ${err.message}`,
        this.options.taskId,
        origin && { topic: origin.topic, partition: origin.partition, offset: origin.offset },
        { cause: err },
      );
    }
    let partition: number | undefined;
    if (def.partitioner)
      partition = def.partitioner(topic, record.key, record.value, partitionsFor(topic));
    if (partition === undefined) partition = this.partitionFor(topic, key);
    this.options.recordCollector.send({
      topic,
      partition,
      key,
      value,
      timestamp: record.timestamp,
      headers: record.headers,
    });
    metrics.produced++;
  }

  /** The partition of `topic` for serialized `key`: murmur2, or round robin for `null`. */
  partitionFor(topic: string, key: Buffer | null): number {
    const count = this.options.partitionsFor(topic);
    if (key !== null) return partitioner.partition(key, count);
    return this.nullKeyCounter++ % count;
  }
}
