import type { ConsumedRecord } from '../../../client/consumed-record';
import { StreamsProcessingError } from '../../../errors/streams-processing.error';
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
  warn: (message: string) => void,
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
      warn,
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
  warnNoDeadLetter(handler.deadLetterTopic ?? config.deadLetterQueueTopic, where, warn);
}

/**
 * Hands a record of a global store's topic that does not deserialize to the deserialization
 * exception handler, as in a task and as Kafka Streams' global thread does: returns when it
 * answers CONTINUE (the record is skipped; a dead-letter topic gets no copy: a warning says
 * so). Errors: throws {@link StreamsProcessingError} naming the record when the handler
 * answers FAIL (the client stops: fix the data or the serde, or choose a skipping handler).
 */
export function decideGlobalDeserializationError(
  config: ResolvedStreamsConfig,
  warn: (message: string) => void,
  record: ConsumedRecord,
  thrown: unknown,
): void {
  const cause = asError(thrown);
  const where = `${record.topic}-${record.partition}@${record.offset}`;
  const handler = config.deserializationExceptionHandler;
  if (handler.handle(record, cause, warn) === HandlerResponse.FAIL) {
    throw new StreamsProcessingError(
      `deserialization of ${where} (a global store's topic) failed and the handler chose FAIL: ${cause.message}`,
      'global',
      { topic: record.topic, partition: record.partition, offset: record.offset },
      { cause },
    );
  }
  warnNoDeadLetter(handler.deadLetterTopic ?? config.deadLetterQueueTopic, where, warn);
}

/**
 * Says that a skipped record of a global topic gets no dead letter: every instance reads a
 * global topic whole (and again at each restore from scratch), so each would write its own
 * copy; Kafka Streams 4.x sends none either.
 */
function warnNoDeadLetter(
  topic: string | undefined,
  where: string,
  warn: (message: string) => void,
): void {
  if (topic === undefined) return;
  warn(
    `no dead letter is written to ${topic} for ${where}, a global store's topic (every instance reads it whole): the record is skipped`,
  );
}
