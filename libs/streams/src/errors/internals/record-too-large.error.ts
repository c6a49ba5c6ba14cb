import { StreamsError } from '../streams.error';

/**
 * The broker refused records because a record or a batch is larger than the topic's
 * `max.message.bytes` (or the broker's `message.max.bytes`): Kafka's `MESSAGE_TOO_LARGE` and
 * `RECORD_LIST_TOO_LARGE`; Java's `RecordTooLargeException`.
 *
 * What to do: sending the same records again cannot succeed. Make the records smaller (or the
 * topic's `max.message.bytes` larger); the production-exception handler decides whether the
 * task fails. Not retriable.
 */
export class RecordTooLargeError extends StreamsError.coded('RECORD_TOO_LARGE', false) {
  constructor(
    readonly topic: string,
    /** The Kafka error the broker answered with. */
    readonly kafkaError: string,
    options?: { cause?: unknown },
  ) {
    super(`records to ${topic} were refused as too large (${kafkaError})`, options);
  }
}
