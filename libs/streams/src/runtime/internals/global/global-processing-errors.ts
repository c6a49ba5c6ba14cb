import { StreamsProcessingError } from '../../../errors/streams-processing.error';
import type { StreamsLogger } from '../../../logging/logger';
import type { Record } from '../../../processor/record';
import { HandlerResponse } from '../../exception-handlers';
import type { ResolvedStreamsConfig } from '../../streams-config';
import { asError } from '../task/dead-letter-writer';

/** Where a global store's update processor failed: its node, the record and its origin. */
export interface GlobalProcessingFailure {
  readonly processorName: string;
  readonly taskId: string;
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly record: Record<unknown, unknown>;
  readonly rawKey: Buffer | null;
  readonly rawValue: Buffer | null;
}

/**
 * Hands an error of a global store's update processor to the processing exception handler, as
 * Kafka Streams 4.x does for global processors (`ProcessorNode.process`): returns when it
 * answers CONTINUE (the record is skipped; a dead-letter topic gets no copy, as there: a
 * warning says so). Errors: throws {@link StreamsProcessingError} naming the processor and the
 * record when the handler answers otherwise or throws (the client stops: fix the processor or
 * the data, or choose a skipping handler).
 */
export function decideGlobalProcessingError(
  config: ResolvedStreamsConfig,
  logger: StreamsLogger,
  failure: GlobalProcessingFailure,
  thrown: unknown,
): void {
  const { processorName, taskId, topic, partition, offset } = failure;
  const error = asError(thrown);
  const handler = config.processingExceptionHandler;
  const where = `${topic}-${partition}@${offset}`;
  const origin = { topic, partition, offset };
  let response: HandlerResponse;
  try {
    response = handler.handle(
      {
        processorNodeId: processorName,
        taskId,
        topic,
        partition,
        offset,
        headers: failure.record.headers,
        sourceRawKey: failure.rawKey,
        sourceRawValue: failure.rawValue,
      },
      failure.record,
      error,
      (message) => logger.warn(message),
    );
  } catch (handlerError) {
    throw new StreamsProcessingError(
      `the processing exception handler threw while handling an error of the global update processor '${processorName}' on ${where}: ${asError(handlerError).message}`,
      taskId,
      origin,
      { cause: handlerError },
    );
  }
  if (response !== HandlerResponse.CONTINUE) {
    throw new StreamsProcessingError(
      `the update processor of global topic ${topic} failed on ${where}: ${error.message}`,
      taskId,
      origin,
      { cause: thrown },
    );
  }
  const deadLetterTopic = handler.deadLetterTopic ?? config.deadLetterQueueTopic;
  if (deadLetterTopic !== undefined) {
    logger.warn(
      `no dead letter is written to ${deadLetterTopic} for ${where}, a global store's topic (every instance reads it whole): the record is skipped`,
    );
  }
}
