// kafkajs' errors, made as kafkajs makes them, for the specs of the engine's error handling
// outside the Kafka client layer (in libs/streams/src only src/client/ imports kafkajs).
import { KafkaJSConnectionError, KafkaJSNonRetriableError, KafkaJSProtocolError } from 'kafkajs';

export { KafkaJSConnectionError, KafkaJSNonRetriableError };

// kafkajs' own factory of the errors it throws for a broker's error code (no typings).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createErrorFromCode } = require('kafkajs/src/protocol/error') as {
  createErrorFromCode(code: number): KafkaJSProtocolError;
};

/** The error kafkajs throws for a broker error code (as an OffsetCommit answer carries it). */
export function kafkajsProtocolError(code: number): KafkaJSProtocolError {
  const error = createErrorFromCode(code);
  expect(error).toBeInstanceOf(KafkaJSProtocolError);
  return error;
}

/** What kafkajs' retrier rejects with for a non-retriable error (its typings omit `cause`). */
export function kafkajsRetrierWrap(error: Error): Error {
  const Wrapper = KafkaJSNonRetriableError as unknown as new (
    e: Error,
    options: { cause: Error },
  ) => Error;
  return new Wrapper(error, { cause: error });
}
