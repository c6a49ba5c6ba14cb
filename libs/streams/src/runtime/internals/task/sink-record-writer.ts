import { DefaultStreamPartitioner } from '../../../cluster/default-stream-partitioner';
import { StreamsProcessingError } from '../../../errors/streams-processing.error';
import type { RecordCollector } from '../../../processor/internals/record-collector';
import type { SinkNodeDef } from '../../../processor/internals/topology-nodes';
import type { RecordMetadata } from '../../../processor/processor-context';
import type { Record } from '../../../processor/record';
import { HandlerResponse } from '../../exception-handlers';
import type { ResolvedStreamsConfig } from '../../streams-config';
import type { ConsumedRecord } from '../../../client/consumed-record';
import { asError, type DeadLetterWriter } from './dead-letter-writer';
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
  /** Where the input record of an output that cannot be serialized goes, on CONTINUE. */
  readonly deadLetters: DeadLetterWriter;
  /** The input record being processed (`undefined` in a punctuation or a commit's flush). */
  readonly currentSource: () => ConsumedRecord | undefined;
}

/**
 * A task's output side: serializes a sink's records with the sink's serdes (or the defaults),
 * picks the partition (the sink's partitioner, else murmur2 of the key bytes as Kafka's
 * producer, else round robin for `null` keys) and hands them to the record collector.
 *
 * Errors: a record that cannot be serialized goes to the production-exception handler; when it
 * answers FAIL, `send` throws {@link StreamsProcessingError} naming the input record being
 * processed (fix the serde or the data, or choose CONTINUE to drop such records, counted in
 * `skippedProduction`, their input record dead-lettered when a dead-letter topic is set).
 * RETRY cannot help a serde: it counts as FAIL, with a warning (as in Kafka Streams).
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
      this.onSerializationError(topic, record, asError(error), origin);
      return;
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

  /** Asks the production handler about an output `record` its serde could not serialize. */
  private onSerializationError(
    topic: string,
    record: Record<unknown, unknown>,
    err: Error,
    origin: RecordMetadata | undefined,
  ): void {
    const { config, metrics } = this.options;
    const handler = config.productionExceptionHandler;
    const response = handler.handle(
      { topic, key: record.key, value: record.value, kind: 'serialization' },
      err,
      this.options.log,
    );
    if (response === HandlerResponse.CONTINUE) {
      metrics.skippedProduction++;
      this.options.log(
        `dropping an output record to ${topic}: ${err.message} (production handler: continue)`,
      );
      const deadLetterTopic = handler.deadLetterTopic ?? config.deadLetterQueueTopic;
      const source = this.options.currentSource();
      if (deadLetterTopic !== undefined && source !== undefined) {
        this.options.deadLetters.write(deadLetterTopic, source, err, 'production');
      }
      return;
    }
    if (response === HandlerResponse.RETRY) {
      this.options.log(
        `the production handler answered RETRY to a serialization error of a record to ${topic}: treated as FAIL`,
      );
    }
    throw new StreamsProcessingError(
      `an output record to ${topic} could not be serialized and the production handler chose FAIL: ${err.message}`,
      this.options.taskId,
      origin && { topic: origin.topic, partition: origin.partition, offset: origin.offset },
      { cause: err },
    );
  }

  /** The partition of `topic` for serialized `key`: murmur2, or round robin for `null`. */
  partitionFor(topic: string, key: Buffer | null): number {
    const count = this.options.partitionsFor(topic);
    if (key !== null) return partitioner.partition(key, count);
    return this.nullKeyCounter++ % count;
  }
}
