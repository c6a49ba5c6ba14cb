import type { ConsumedRecord } from '../client/consumed-record';

/** What a handler decides about a record it was given. */
export enum HandlerResponse {
  /** Skip the record (it is counted) and go on. */
  CONTINUE = 'CONTINUE',
  /** Stop the processing loop: the error goes to the uncaught-exception handler. */
  FAIL = 'FAIL',
  /**
   * Production handler only, for a send the broker refused with a retriable error (Kafka
   * Streams' `ProductionExceptionHandlerResponse.RETRY`, KIP-1065): under at-least-once the
   * same batch is sent again (after `retry.backoff.ms`, 100 ms, until `task.timeout.ms`; the
   * idempotent producer keeps it once and in order). Anywhere else (a serialization error, a
   * non-retriable send error, exactly-once, whose aborted transaction is replayed from the
   * committed offsets) it counts as FAIL, with a warning.
   */
  RETRY = 'RETRY',
}

/**
 * The raw record that could not be deserialized, exactly as consumed.
 *
 * @interface
 */
export type FailedRecord = ConsumedRecord;

/** Headers written on dead-letter records, named as in Kafka Streams (KIP-1034). */
export const DEAD_LETTER_HEADERS = {
  exception: '__streams.errors.exception',
  message: '__streams.errors.message',
  stacktrace: '__streams.errors.stacktrace',
  topic: '__streams.errors.topic',
  partition: '__streams.errors.partition',
  offset: '__streams.errors.offset',
} as const;

/**
 * Decides what happens to a record whose key or value does not deserialize
 * (`default.deserialization.exception.handler`). Returning CONTINUE skips it; a dead-letter
 * topic, when set, receives the original bytes with the error and origin in headers.
 */
export interface DeserializationExceptionHandler {
  /**
   * Decides about one record. `log` writes a warning to the client's logger (the
   * `StreamsLogger` given to `KafkaStreams`; in Nest, Nest's `Logger`).
   */
  handle(record: FailedRecord, error: Error, log?: (message: string) => void): HandlerResponse;
  /** When set, skipped records are also written here (original key and value bytes). */
  readonly deadLetterTopic?: string;
}

/**
 * The output record a {@link ProductionExceptionHandler} is asked about. For a serialization
 * error, the key and value as the processor forwarded them; for a send error, the first record
 * of the batch the broker refused (its bytes) and how many records the batch held.
 */
export interface FailedProduction {
  readonly topic: string;
  readonly key: unknown;
  readonly value: unknown;
  /** `serialization` (the sink's serde threw) or `send` (the broker refused the batch). */
  readonly kind?: 'serialization' | 'send';
  /** For `send`: the partition and the number of records of the refused batch. */
  readonly partition?: number;
  readonly records?: number;
  /** For `send`: whether the broker's error is retriable (what RETRY needs). */
  readonly retriable?: boolean;
}

/**
 * Decides what happens when an output record cannot be serialized or sent
 * (`default.production.exception.handler`): CONTINUE drops it (counted in `skippedProduction`;
 * a serialization error's input record is also dead-lettered when a dead-letter topic is set),
 * FAIL stops the processing loop, RETRY sends a retriable send error's batch again (see
 * {@link HandlerResponse.RETRY}).
 */
export interface ProductionExceptionHandler {
  /** Decides about one record; `log` writes a warning to the client's logger. */
  handle(record: FailedProduction, error: Error, log?: (message: string) => void): HandlerResponse;
  /**
   * When set, the input record whose output could not be serialized is written here when the
   * handler answers CONTINUE (overrides `deadLetterQueueTopic`).
   */
  readonly deadLetterTopic?: string;
}

/**
 * Logs and skips (Kafka Streams' `LogAndContinueExceptionHandler`, our default). Logs to `log`
 * when given, else to the client's logger.
 */
export function logAndContinue(log?: (message: string) => void): DeserializationExceptionHandler {
  return {
    handle(record, error, clientLog) {
      (log ?? clientLog ?? console.warn)(
        `skipping record ${record.topic}-${record.partition}@${record.offset}: ${error.message} (deserialization error; handler: log and continue)`,
      );
      return HandlerResponse.CONTINUE;
    },
  };
}

/**
 * Stops processing (Kafka Streams' `LogAndFailExceptionHandler`). Logs to `log` when given,
 * else to the client's logger.
 */
export function logAndFail(log?: (message: string) => void): DeserializationExceptionHandler {
  return {
    handle(record, error, clientLog) {
      (log ?? clientLog ?? console.error)(
        `cannot deserialize ${record.topic}-${record.partition}@${record.offset}: ${error.message}`,
      );
      return HandlerResponse.FAIL;
    },
  };
}

/**
 * Logs (to `log` when given, else the client's logger), writes the original record to `topic`
 * with error headers, and skips.
 */
export function sendToDeadLetterTopic(
  topic: string,
  log?: (message: string) => void,
): DeserializationExceptionHandler {
  return {
    deadLetterTopic: topic,
    handle(record, error, clientLog) {
      (log ?? clientLog ?? console.warn)(
        `sending record ${record.topic}-${record.partition}@${record.offset} to dead-letter topic ${topic}: ${error.message}`,
      );
      return HandlerResponse.CONTINUE;
    },
  };
}

/**
 * Logs (to `log` when given, else the client's logger) and drops an output record that cannot
 * be serialized.
 */
export function logAndContinueOnProductionError(
  log?: (message: string) => void,
): ProductionExceptionHandler {
  return {
    handle(record, error, clientLog) {
      (log ?? clientLog ?? console.warn)(
        `dropping an output record to ${record.topic}: ${error.message}`,
      );
      return HandlerResponse.CONTINUE;
    },
  };
}

/** Fails on any production error (Kafka Streams' default). */
export const failOnProductionError: ProductionExceptionHandler = {
  handle: () => HandlerResponse.FAIL,
};

/**
 * Retries a send the broker refused with a retriable error (a leader moving, a timeout), and
 * fails on anything else, serialization errors included. Logs each retry to `log` when given,
 * else to the client's logger.
 */
export function retryOnProductionError(
  log?: (message: string) => void,
): ProductionExceptionHandler {
  return {
    handle(record, error, clientLog) {
      if (record.kind !== 'send' || record.retriable !== true) return HandlerResponse.FAIL;
      (log ?? clientLog ?? console.warn)(
        `retrying ${record.records ?? 1} records to ${record.topic}-${record.partition ?? '?'}: ${error.message}`,
      );
      return HandlerResponse.RETRY;
    },
  };
}
