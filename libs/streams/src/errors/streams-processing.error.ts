import { StreamsError } from './streams.error';

/**
 * A processor or punctuator threw, or a handler chose FAIL. Carries the task and, when there
 * was one, the record's origin. What to do: the uncaught-exception handler decides (replace the
 * processing loop, shut down the client or the application); fix the processor or the input.
 */
export class StreamsProcessingError extends StreamsError.coded('PROCESSING_FAILED', false) {
  constructor(
    message: string,
    readonly taskId: string,
    readonly origin?: { topic: string; partition: number; offset: number },
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
