import type { Record } from '../processor/record';
import { HandlerResponse } from './exception-handlers';

/**
 * Where a processing error happened (Kafka Streams' `ErrorHandlerContext`, KIP-1033): the
 * processor node, the task, and the input record being processed when there was one (a
 * punctuator's error, or one of a cache flush at commit, has none: `topic` is `undefined`).
 */
export interface ProcessingErrorContext {
  /** The processor node whose `process` (or punctuator) threw. */
  readonly processorNodeId: string;
  /** The task, `<subtopology>_<partition>`. */
  readonly taskId: string;
  /** The input record's topic, partition, offset and headers, when there is one. */
  readonly topic: string | undefined;
  readonly partition: number | undefined;
  readonly offset: number | undefined;
  readonly headers: { readonly [name: string]: Buffer | string | undefined } | undefined;
  /** The input record's bytes as consumed (KIP-1034's `sourceRawKey`/`sourceRawValue`). */
  readonly sourceRawKey: Buffer | null | undefined;
  readonly sourceRawValue: Buffer | null | undefined;
}

/**
 * Decides what happens when a processor (or punctuator) throws (`processing.exception.handler`,
 * KIP-1033). CONTINUE drops the record from that node on (the nodes it already reached keep
 * their effects, as in Kafka Streams; counted in `skippedProcessing` and the task's
 * dropped-records with reason `processing_error`) and, with a dead-letter topic, writes the
 * input record there unchanged with the error in Kafka's `__streams.errors.*` headers (in the
 * same transaction as the offsets that skip it under exactly-once). FAIL stops the processing
 * loop: the error goes to the uncaught-exception handler. RETRY counts as FAIL.
 *
 * A handler that throws fails the processing loop with its own error.
 */
export interface ProcessingExceptionHandler {
  /**
   * Decides about one failure. `record` is the record the node was given (`undefined` for a
   * punctuator); `log` writes a warning to the client's logger.
   */
  handle(
    context: ProcessingErrorContext,
    record: Record<unknown, unknown> | undefined,
    error: Error,
    log?: (message: string) => void,
  ): HandlerResponse;
  /** When set, dropped input records are written here (overrides `deadLetterQueueTopic`). */
  readonly deadLetterTopic?: string;
}

function where(context: ProcessingErrorContext): string {
  const origin =
    context.topic === undefined
      ? 'a punctuation'
      : `${context.topic}-${context.partition}@${context.offset}`;
  return `processor '${context.processorNodeId}' of task ${context.taskId} failed on ${origin}`;
}

/**
 * Logs and skips the record (Kafka Streams' `LogAndContinueProcessingExceptionHandler`). Logs
 * to `log` when given, else to the client's logger; `deadLetterTopic`, when given, receives
 * the input records.
 */
export function logAndContinueProcessing(
  options: { deadLetterTopic?: string; log?: (message: string) => void } = {},
): ProcessingExceptionHandler {
  return {
    ...(options.deadLetterTopic !== undefined ? { deadLetterTopic: options.deadLetterTopic } : {}),
    handle(context, _record, error, clientLog) {
      (options.log ?? clientLog ?? console.warn)(
        `skipping: ${where(context)}: ${error.message} (processing error; handler: log and continue)`,
      );
      return HandlerResponse.CONTINUE;
    },
  };
}

/**
 * Stops processing (Kafka Streams' `LogAndFailProcessingExceptionHandler`, the default): the
 * error goes to the uncaught-exception handler. Logs to `log` when given, else to the client's
 * logger.
 */
export function logAndFailProcessing(log?: (message: string) => void): ProcessingExceptionHandler {
  return {
    handle(context, _record, error, clientLog) {
      (log ?? clientLog ?? console.error)(`${where(context)}: ${error.message}`);
      return HandlerResponse.FAIL;
    },
  };
}

/**
 * Fails on any processing error without a log line of its own (the default: the
 * uncaught-exception handler logs the error and decides).
 */
export const failOnProcessingError: ProcessingExceptionHandler = {
  handle: () => HandlerResponse.FAIL,
};
