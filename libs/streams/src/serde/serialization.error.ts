import { StreamsError } from '../errors/streams.error';

/**
 * A serde could not turn a value into bytes or bytes into a value: malformed JSON, a buffer of
 * the wrong size for a fixed-width number, a number out of the type's range, a value that
 * fails the caller's type guard.
 *
 * What to do: not retriable, the same input fails again. On the input side the runtime hands
 * it to the deserialization-exception handler (log and continue by default, or dead-letter);
 * on the output side fix the value or pick a serde that can represent it.
 */
export class SerializationError extends StreamsError.coded('SERIALIZATION_ERROR', false) {
  constructor(
    message: string,
    options?: {
      cause?: unknown;
      /** The topic the bytes came from or were meant for, when the caller passed it. */
      topic?: string;
    },
  ) {
    super(options?.topic ? `${message} (topic ${options.topic})` : message, options);
    this.topic = options?.topic;
  }

  /** The topic the bytes came from or were meant for, when known. */
  readonly topic: string | undefined;
}
