import { StreamsProcessingError } from '../../../errors/streams-processing.error';
import type { SourceNodeDef } from '../../../processor/internals/topology-nodes';
import { Record } from '../../../processor/record';
import type { ConsumedRecord } from '../../../client/consumed-record';
import { HandlerResponse } from '../../exception-handlers';
import type { ResolvedStreamsConfig } from '../../streams-config';
import type { DeadLetterWriter } from './dead-letter-writer';
import { deserializeSource } from './source-deserializer';
import { asError } from './dead-letter-writer';
import type { TaskMetrics } from './task-metrics';

/** What a {@link SourceRecordReader} reads with: its task's settings, collector and counters. */
export interface SourceRecordReaderOptions {
  readonly taskId: string;
  readonly config: ResolvedStreamsConfig;
  /** Where dead letters go. */
  readonly deadLetters: DeadLetterWriter;
  readonly metrics: TaskMetrics;
  readonly log: (message: string) => void;
}

/**
 * A task's input side: deserializes a fetched record with its source's serdes (or the
 * defaults) and extracts its timestamp. A record that does not deserialize goes to the
 * deserialization-exception handler: skipped and counted (`skippedDeserialization`), and
 * written unchanged to the dead-letter topic with Kafka's `__streams.errors.*` headers when
 * the handler has one; a negative or non-numeric timestamp is skipped and counted
 * (`skippedInvalidTimestamp`), as Kafka Streams does.
 *
 * Errors: when the handler answers FAIL, `read` throws {@link StreamsProcessingError} with the
 * record's topic, partition and offset (fix the data or the serde, or choose a skipping
 * handler); the stream thread then applies the uncaught-exception handler.
 */
export class SourceRecordReader {
  constructor(private readonly options: SourceRecordReaderOptions) {}

  /**
   * The record to process, or `undefined` when it is skipped. A dead-letter record for a
   * record that did not deserialize is not sent here but pushed to `sends`, for the caller to
   * send when it processes the batch (so that it belongs to the batch's transaction).
   */
  read(
    raw: ConsumedRecord,
    def: SourceNodeDef,
    streamTime: number,
    sends: (() => void)[],
  ): Record<unknown, unknown> | undefined {
    const { config, metrics } = this.options;
    let key: unknown;
    let value: unknown;
    try {
      ({ key, value } = deserializeSource(def, config, raw, raw.topic));
    } catch (error) {
      this.onDeserializationError(raw, asError(error), sends);
      return undefined;
    }
    const timestamp = def.timestampExtractor
      ? def.timestampExtractor(raw, key, value, streamTime)
      : raw.timestamp;
    if (!Number.isFinite(timestamp) || timestamp < 0) {
      metrics.skippedInvalidTimestamp++;
      this.options.log(
        `skipping record ${raw.topic}-${raw.partition}@${raw.offset}: invalid timestamp ${timestamp}`,
      );
      return undefined;
    }
    return new Record(key, value, timestamp, raw.headers);
  }

  private onDeserializationError(raw: ConsumedRecord, error: Error, sends: (() => void)[]): void {
    const { config, metrics } = this.options;
    const handler = config.deserializationExceptionHandler;
    const response = handler.handle(raw, error, this.options.log);
    if (response === HandlerResponse.FAIL) {
      throw new StreamsProcessingError(
        `deserialization of ${raw.topic}-${raw.partition}@${raw.offset} failed and the handler chose FAIL: ${error.message}`,
        this.options.taskId,
        { topic: raw.topic, partition: raw.partition, offset: raw.offset },
        { cause: error },
      );
    }
    metrics.skippedDeserialization++;
    const topic = handler.deadLetterTopic ?? config.deadLetterQueueTopic;
    if (topic === undefined) return;
    sends.push(() => this.options.deadLetters.write(topic, raw, error, 'deserialization'));
  }
}
