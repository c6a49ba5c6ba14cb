import type { ConsumedRecord } from '../../../client/consumed-record';
import { StreamsProcessingError } from '../../../errors/streams-processing.error';
import type { RecordMetadata } from '../../../processor/processor-context';
import type { Record } from '../../../processor/record';
import { HandlerResponse } from '../../exception-handlers';
import type { ProcessingErrorContext } from '../../processing-exception-handler';
import type { ResolvedStreamsConfig } from '../../streams-config';
import { asError, type DeadLetterWriter } from './dead-letter-writer';
import type { TaskMetrics } from './task-metrics';

/** What a {@link ProcessingErrors} decides with. */
export interface ProcessingErrorsOptions {
  readonly taskId: string;
  readonly config: ResolvedStreamsConfig;
  readonly deadLetters: DeadLetterWriter;
  readonly metrics: TaskMetrics;
  readonly log: (message: string) => void;
}

/** Where a processor's error happened: its node, and the input record, when there is one. */
export interface ProcessingErrorSite {
  readonly nodeName: string;
  /** The record the node was given; `undefined` for a punctuator, `init` or `close`. */
  readonly record?: Record<unknown, unknown>;
  /** The input record being processed, as consumed. */
  readonly source?: ConsumedRecord;
  readonly metadata?: RecordMetadata;
}

/**
 * A task's processing errors (KIP-1033): a processor's or punctuator's error goes to the
 * `processingExceptionHandler`. CONTINUE returns (the record is dropped from that node on,
 * counted in `skippedProcessing`, and dead-lettered when a dead-letter topic is set and there
 * is an input record); FAIL (and RETRY, which processing has not) throws.
 *
 * Errors: {@link onError} and {@link failed} throw
 * {@link StreamsProcessingError} naming the node, the task and the input record's origin (the
 * stream thread's uncaught-exception handler decides); an error that already is one (a nested
 * node's, already decided) is rethrown as it is. A handler that throws fails with its error
 * as the cause.
 */
export class ProcessingErrors {
  constructor(private readonly options: ProcessingErrorsOptions) {}

  /**
   * A node's `process` or a punctuator threw: returns when the handler answered CONTINUE,
   * throws otherwise.
   */
  onError(site: ProcessingErrorSite, thrown: unknown): void {
    if (thrown instanceof StreamsProcessingError) throw thrown;
    this.decide(site, asError(thrown));
  }

  /** `init` or `close` threw: never handled (Kafka Streams does not either): throws. */
  failed(site: ProcessingErrorSite, error: unknown): never {
    if (error instanceof StreamsProcessingError) throw error;
    throw this.processingError(site, asError(error));
  }

  private decide(site: ProcessingErrorSite, error: Error): void {
    const { config, metrics, taskId } = this.options;
    const handler = config.processingExceptionHandler;
    const context: ProcessingErrorContext = {
      processorNodeId: site.nodeName,
      taskId,
      topic: site.metadata?.topic,
      partition: site.metadata?.partition,
      offset: site.metadata?.offset,
      headers: site.metadata?.headers,
      sourceRawKey: site.source?.key,
      sourceRawValue: site.source?.value,
    };
    let response: HandlerResponse;
    try {
      response = handler.handle(context, site.record, error, this.options.log);
    } catch (handlerError) {
      throw new StreamsProcessingError(
        `the processing exception handler threw while handling an error of processor '${site.nodeName}' of task ${taskId}: ${asError(handlerError).message}`,
        taskId,
        origin(site.metadata),
        { cause: handlerError },
      );
    }
    if (response !== HandlerResponse.CONTINUE) throw this.processingError(site, error);
    metrics.skippedProcessing++;
    const topic = handler.deadLetterTopic ?? config.deadLetterQueueTopic;
    if (topic !== undefined && site.source !== undefined) {
      this.options.deadLetters.write(topic, site.source, error, 'processing');
    }
  }

  private processingError(site: ProcessingErrorSite, error: Error): StreamsProcessingError {
    const { taskId } = this.options;
    const at = site.metadata
      ? ` on ${site.metadata.topic}-${site.metadata.partition}@${site.metadata.offset}`
      : '';
    return new StreamsProcessingError(
      `processor '${site.nodeName}' of task ${taskId} failed${at}: ${error.message}`,
      taskId,
      origin(site.metadata),
      { cause: error },
    );
  }
}

function origin(
  metadata: RecordMetadata | undefined,
): { topic: string; partition: number; offset: number } | undefined {
  return (
    metadata && { topic: metadata.topic, partition: metadata.partition, offset: metadata.offset }
  );
}
