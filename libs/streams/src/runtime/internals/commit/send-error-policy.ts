import type { BatchSendFailure } from '../../../processor/internals/kafka-record-collector';
import { HandlerResponse } from '../../exception-handlers';
import type { ResolvedStreamsConfig } from '../../streams-config';

/**
 * Whether an error (or one of its causes) says to try again: the client's own flag
 * (kafkajs' and the engine's errors carry `retriable`).
 */
export function isRetriableSendError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 8; depth++) {
    if ((e as { retriable?: unknown }).retriable === true) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The at-least-once collector's `onSendError`: asks the production-exception handler about a
 * batch the producer could not send (with its first record, kind `send`). RETRY of a retriable
 * error sends the batch again; RETRY of any other error counts as FAIL, with a warning (as in
 * Kafka Streams); CONTINUE drops the batch's records, with a warning naming how many.
 *
 * Not used under exactly-once: a transaction whose send failed cannot commit; it aborts and its
 * records are processed again from the committed offsets, whatever a handler would answer.
 */
export function sendErrorPolicy(
  config: ResolvedStreamsConfig,
  warn: (message: string) => void,
): (failure: BatchSendFailure) => 'continue' | 'retry' | 'fail' {
  return ({ error, partitions }) => {
    const err = error instanceof Error ? error : new Error(String(error));
    const [first] = partitions;
    const records = partitions.reduce((n, p) => n + p.records.length, 0);
    const retriable = isRetriableSendError(error);
    let response: HandlerResponse;
    try {
      response = config.productionExceptionHandler.handle(
        {
          topic: first.topic,
          partition: first.partition,
          key: first.records[0]?.key ?? null,
          value: first.records[0]?.value ?? null,
          kind: 'send',
          records,
          retriable,
        },
        err,
        warn,
      );
    } catch {
      return 'fail';
    }
    if (response === HandlerResponse.RETRY) {
      if (retriable) return 'retry';
      warn(
        `the production handler answered RETRY to a non-retriable send error (${err.message}): treated as FAIL`,
      );
      return 'fail';
    }
    if (response === HandlerResponse.CONTINUE) {
      warn(
        `dropping ${records} output records to ${first.topic}-${first.partition} the broker refused: ${err.message} (production handler: continue)`,
      );
      return 'continue';
    }
    return 'fail';
  };
}
